/**
 * The shopper's cart (spec §3 'Cart line', §4 'Cart', §5 'Minimum order', decisions 7, 9, 20).
 * Pure rules shared by the browser and the server: no React, no database.
 * The server never trusts these numbers (decision 7); they are what the shopper sees.
 */
import { z } from "zod";

export const CART_STORAGE_KEY = "capital-grown-cart";

/** $80.00: the cart panel's checkout button needs at least this total (spec §5). */
export const MIN_ORDER_CENTS = 8000;

export type CartLine = {
  productId: string;
  productName: string;
  imageUrl: string;
  category: string;
  sizeId: string;
  sizeLabel: string;
  priceCents: number;
  salePriceCents: number | null;
  quantity: number;
};

export type CartItemInput = Omit<CartLine, "quantity">;

export type CartAction =
  | { type: "add"; item: CartItemInput; quantity?: number }
  | { type: "remove"; productId: string; sizeId: string }
  | { type: "update"; productId: string; sizeId: string; quantity: number }
  | { type: "clear" }
  | { type: "load"; items: CartLine[] }
  | { type: "reconcile"; current: readonly CurrentSizePrice[]; checkedSizeIds: readonly string[] };

/** A line is identified by the pair of product id and size id (spec §3). */
export function isSameLine(line: { productId: string; sizeId: string }, productId: string, sizeId: string) {
  return line.productId === productId && line.sizeId === sizeId;
}

/**
 * Spec §4: add raises an existing line by 1 (or adds a new line with quantity 1); adding N from the
 * detail page repeats the add N times, so `quantity` adds N at once. Update sets the quantity and drops
 * lines at 0 or below. Clear empties; load replaces.
 */
export function cartReducer(state: CartLine[], action: CartAction): CartLine[] {
  switch (action.type) {
    case "add": {
      const count = Math.max(1, Math.floor(action.quantity ?? 1));
      const { item } = action;
      const existing = state.find((line) => isSameLine(line, item.productId, item.sizeId));
      if (existing) {
        return state.map((line) =>
          line === existing ? { ...line, ...item, quantity: line.quantity + count } : line,
        );
      }
      return [...state, { ...item, quantity: count }];
    }
    case "remove":
      return state.filter((line) => !isSameLine(line, action.productId, action.sizeId));
    case "update": {
      const quantity = Math.floor(action.quantity);
      if (!Number.isFinite(quantity) || quantity <= 0) {
        return state.filter((line) => !isSameLine(line, action.productId, action.sizeId));
      }
      return state.map((line) =>
        isSameLine(line, action.productId, action.sizeId) ? { ...line, quantity } : line,
      );
    }
    case "clear":
      return [];
    case "load":
      return action.items.filter((line) => line.quantity > 0);
    case "reconcile": {
      const result = reconcileCart(state, action.current, action.checkedSizeIds);
      return result.changed ? result.lines : state;
    }
  }
}

/** Sale price when set, non-zero and lower than the price; otherwise the price (spec §3, §4). */
export function lineUnitPriceCents(line: Pick<CartLine, "priceCents" | "salePriceCents">) {
  const sale = line.salePriceCents;
  return sale !== null && sale > 0 && sale < line.priceCents ? sale : line.priceCents;
}

export function lineTotalCents(line: CartLine) {
  return lineUnitPriceCents(line) * line.quantity;
}

export function cartTotalCents(lines: readonly CartLine[]) {
  return lines.reduce((sum, line) => sum + lineTotalCents(line), 0);
}

/** The item count is the sum of quantities (spec §4). */
export function cartItemCount(lines: readonly CartLine[]) {
  return lines.reduce((sum, line) => sum + line.quantity, 0);
}

/** What is still missing to reach the $80.00 minimum; 0 when reached. */
export function amountToMinimumCents(totalCents: number) {
  return Math.max(0, MIN_ORDER_CENTS - totalCents);
}

export function meetsMinimumOrder(lines: readonly CartLine[]) {
  return lines.length > 0 && cartTotalCents(lines) >= MIN_ORDER_CENTS;
}

const cents = z.number().int().nonnegative();

export const cartLineSchema = z.object({
  productId: z.string().min(1),
  productName: z.string(),
  imageUrl: z.string(),
  category: z.string(),
  sizeId: z.string().min(1),
  sizeLabel: z.string(),
  priceCents: cents,
  salePriceCents: cents.nullable(),
  quantity: z.number().int().positive(),
});

export const storedCartSchema = z.array(cartLineSchema);

/**
 * Reads the cart saved in local storage. A cart that cannot be parsed is ignored and an error is
 * logged (spec §5): the result is then an empty cart. Duplicate lines are merged.
 */
export function parseStoredCart(raw: string | null): CartLine[] {
  if (raw === null || raw === "") return [];
  try {
    const parsed = storedCartSchema.safeParse(JSON.parse(raw));
    if (!parsed.success) {
      console.error("Ignoring a stored cart that cannot be parsed", parsed.error.issues);
      return [];
    }
    let lines: CartLine[] = [];
    for (const line of parsed.data) {
      const { quantity, ...item } = line;
      lines = cartReducer(lines, { type: "add", item, quantity });
    }
    return lines;
  } catch (error) {
    console.error("Ignoring a stored cart that cannot be parsed", error);
    return [];
  }
}

export function serializeCart(lines: readonly CartLine[]) {
  return JSON.stringify(lines);
}

/** Current catalogue facts for one stored size (decision 20), as served by /api/cart-prices. */
export type CurrentSizePrice = {
  productId: string;
  productName: string;
  imageUrl: string;
  category: string;
  sizeId: string;
  sizeLabel: string;
  priceCents: number;
  salePriceCents: number | null;
  inStock: boolean;
};

/**
 * Decision 20 and 9: a stored cart is brought in line with the catalogue. Lines whose product or size
 * is gone, or whose size is sold out, are dropped; names, images and prices are refreshed.
 */
export function reconcileCart(
  lines: readonly CartLine[],
  current: readonly CurrentSizePrice[],
  /** Only these sizes were asked about; lines added meanwhile are left alone. Default: every line. */
  checkedSizeIds?: readonly string[],
): { lines: CartLine[]; dropped: CartLine[]; changed: boolean } {
  const bySize = new Map(current.map((size) => [`${size.productId}:${size.sizeId}`, size]));
  const checked = checkedSizeIds ? new Set(checkedSizeIds) : null;
  const kept: CartLine[] = [];
  const dropped: CartLine[] = [];
  let changed = false;
  for (const line of lines) {
    if (checked && !checked.has(line.sizeId)) {
      kept.push(line);
      continue;
    }
    const fresh = bySize.get(`${line.productId}:${line.sizeId}`);
    if (!fresh?.inStock) {
      dropped.push(line);
      changed = true;
      continue;
    }
    const next: CartLine = {
      productId: line.productId,
      productName: fresh.productName,
      imageUrl: fresh.imageUrl,
      category: fresh.category,
      sizeId: line.sizeId,
      sizeLabel: fresh.sizeLabel,
      priceCents: fresh.priceCents,
      salePriceCents: fresh.salePriceCents,
      quantity: line.quantity,
    };
    if (
      next.productName !== line.productName ||
      next.imageUrl !== line.imageUrl ||
      next.category !== line.category ||
      next.sizeLabel !== line.sizeLabel ||
      next.priceCents !== line.priceCents ||
      next.salePriceCents !== line.salePriceCents
    ) {
      changed = true;
    }
    kept.push(next);
  }
  return { lines: kept, dropped, changed };
}
