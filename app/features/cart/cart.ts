import { unitPriceCents } from "#app/features/catalog/catalog.ts";
import { formatCents } from "#app/utils/money.ts";
/**
 * The shopper's cart (K-3 'Cart line', K-4 'Cart', K-5 'Minimum order', P-7, P-9, P-20).
 * Pure rules shared by the browser and the server: no React, no database.
 * The server never trusts these numbers (P-7); they are what the shopper sees.
 */
export const CART_STORAGE_KEY = "capital-grown-cart";

/**
 * $80.00: an order's total must be at least this (K-5, P-16). The one place the minimum
 * is written: the cart panel, the checkout form, the server and the pages' text all read it.
 */
export const MIN_ORDER_CENTS = 8000;
/** The minimum as shoppers read it ("$80.00"). */
export const MIN_ORDER_TEXT = formatCents(MIN_ORDER_CENTS);

/**
 * The minimum order of a delivery zone (P-21): its own minimum when it has one, never
 * below the shop's $80.00, which is the floor.
 */
export function minimumOrderCents(zoneMinimumCents: number | null | undefined = null) {
  return Math.max(MIN_ORDER_CENTS, zoneMinimumCents ?? 0);
}

/** The minimum order rule, for the browser's checks and the server's refusal alike. */
export function isBelowMinimumOrder(totalCents: number, minimumCents: number = MIN_ORDER_CENTS) {
  return totalCents < minimumOrderCents(minimumCents);
}

export type CartLine = {
  productId: string;
  /**
   * The product page's slug (record 028), for the line's link. Carts stored before slugs have
   * none: they link by id (a 301 to the slug) until the next price check fills it in.
   */
  productSlug?: string;
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

/** A line is identified by the pair of product id and size id (K-3). */
export function isSameLine(line: { productId: string; sizeId: string }, productId: string, sizeId: string) {
  return line.productId === productId && line.sizeId === sizeId;
}

/**
 * K-4: add raises an existing line by 1 (or adds a new line with quantity 1); adding N from the
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

/** Sale price when set, non-zero and lower than the price; otherwise the price (K-3, K-4). */
export function lineUnitPriceCents(line: Pick<CartLine, "priceCents" | "salePriceCents">) {
  return unitPriceCents(line);
}

export function lineTotalCents(line: CartLine) {
  return lineUnitPriceCents(line) * line.quantity;
}

export function cartTotalCents(lines: readonly CartLine[]) {
  return lines.reduce((sum, line) => sum + lineTotalCents(line), 0);
}

/** The item count is the sum of quantities (K-4). */
export function cartItemCount(lines: readonly CartLine[]) {
  return lines.reduce((sum, line) => sum + line.quantity, 0);
}

/** What is still missing to reach the minimum order; 0 when reached. */
export function amountToMinimumCents(totalCents: number) {
  return Math.max(0, MIN_ORDER_CENTS - totalCents);
}

/*
 * The stored cart is checked by hand rather than with zod: this module ships with every storefront
 * page, and zod would add ~24 KB (gzip) to the first load for a dozen field checks.
 */
function isCents(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value.length > 0;
}

/** Why a stored line is not a cart line, or null when it is one. */
export function cartLineProblem(value: unknown): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not an object";
  const line = value as Record<string, unknown>;
  if (!isNonEmptyString(line.productId)) return "productId";
  if (!isNonEmptyString(line.sizeId)) return "sizeId";
  for (const key of ["productName", "imageUrl", "category", "sizeLabel"] as const) {
    if (typeof line[key] !== "string") return key;
  }
  if (line.productSlug !== undefined && typeof line.productSlug !== "string") return "productSlug";
  if (!isCents(line.priceCents)) return "priceCents";
  if (line.salePriceCents !== null && !isCents(line.salePriceCents)) return "salePriceCents";
  if (!(typeof line.quantity === "number" && Number.isInteger(line.quantity) && line.quantity > 0))
    return "quantity";
  return null;
}

function toCartLine(value: Record<string, unknown>): CartLine {
  return {
    productId: value.productId as string,
    ...(typeof value.productSlug === "string" && value.productSlug ? { productSlug: value.productSlug } : {}),
    productName: value.productName as string,
    imageUrl: value.imageUrl as string,
    category: value.category as string,
    sizeId: value.sizeId as string,
    sizeLabel: value.sizeLabel as string,
    priceCents: value.priceCents as number,
    salePriceCents: value.salePriceCents as number | null,
    quantity: value.quantity as number,
  };
}

/**
 * Reads the cart saved in local storage. A cart that cannot be parsed is ignored and an error is
 * logged (K-5): the result is then an empty cart. Duplicate lines are merged.
 */
export function parseStoredCart(raw: string | null): CartLine[] {
  if (raw === null || raw === "") return [];
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch (error) {
    console.error("Ignoring a stored cart that cannot be parsed", error);
    return [];
  }
  if (!Array.isArray(data)) {
    console.error("Ignoring a stored cart that cannot be parsed: not a list");
    return [];
  }
  let lines: CartLine[] = [];
  for (const [index, value] of data.entries()) {
    const problem = cartLineProblem(value);
    if (problem) {
      console.error(`Ignoring a stored cart that cannot be parsed: line ${index + 1} has a bad ${problem}`);
      return [];
    }
    const { quantity, ...item } = toCartLine(value as Record<string, unknown>);
    lines = cartReducer(lines, { type: "add", item, quantity });
  }
  return lines;
}

export function serializeCart(lines: readonly CartLine[]) {
  return JSON.stringify(lines);
}

/** Current catalogue facts for one stored size (P-20), as served by /api/cart-prices. */
/** The cart line of one size of a product, before its quantity (a card's and a product page's Add). */
export function cartItemOf(
  product: { id: string; slug: string; name: string; imageUrl: string; category: string },
  size: { id: string; size: string; priceCents: number; salePriceCents: number | null },
): Omit<CartLine, "quantity"> {
  return {
    productId: product.id,
    productSlug: product.slug,
    productName: product.name,
    imageUrl: product.imageUrl,
    category: product.category,
    sizeId: size.id,
    sizeLabel: size.size,
    priceCents: size.priceCents,
    salePriceCents: size.salePriceCents,
  };
}

export type CurrentSizePrice = Omit<CartLine, "quantity"> & {
  inStock: boolean;
  /** What one unit counts against the purchase limit (P-28); null only before start-up filled it. */
  flowerEquivalentMg?: number | null;
  /** Units on hand (record 026): a line asking for more is brought down to it. */
  stock?: number;
};

/**
 * P-20 and P-9: a stored cart is brought in line with the catalogue. Lines whose product or size
 * is gone, or whose size is sold out, are dropped; names, images and prices are refreshed; a quantity
 * above the stock on hand is brought down to it (record 026).
 */
export function reconcileCart(
  lines: readonly CartLine[],
  current: readonly CurrentSizePrice[],
  /** Only these sizes were asked about; lines added meanwhile are left alone. Default: every line. */
  checkedSizeIds?: readonly string[],
): { lines: CartLine[]; dropped: CartLine[]; capped: CartLine[]; changed: boolean } {
  const bySize = new Map(current.map((size) => [`${size.productId}:${size.sizeId}`, size]));
  const checked = checkedSizeIds ? new Set(checkedSizeIds) : null;
  const kept: CartLine[] = [];
  const dropped: CartLine[] = [];
  const capped: CartLine[] = [];
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
      ...(fresh.productSlug ? { productSlug: fresh.productSlug } : {}),
      productName: fresh.productName,
      imageUrl: fresh.imageUrl,
      category: fresh.category,
      sizeId: line.sizeId,
      sizeLabel: fresh.sizeLabel,
      priceCents: fresh.priceCents,
      salePriceCents: fresh.salePriceCents,
      quantity: fresh.stock === undefined ? line.quantity : Math.min(line.quantity, fresh.stock),
    };
    if (next.quantity !== line.quantity) {
      capped.push(next);
      changed = true;
    }
    if (
      next.productName !== line.productName ||
      next.productSlug !== line.productSlug ||
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
  return { lines: kept, dropped, capped, changed };
}
