/**
 * Purchase limits (P-28): every size counts a weight of flower equivalent against a
 * per-order limit that depends on the delivery state, and one size is capped per order. Pure
 * rules, no zod and no React: the cart panel, the checkout form and the server all run them.
 */

/** The states the shop delivers to, each with its own purchase limit. */
export const US_STATES = ["DC", "VA"] as const;
export type DeliveryState = (typeof US_STATES)[number];

/** How a state is named in messages. */
export const STATE_NAMES: Record<DeliveryState, string> = { DC: "Washington DC", VA: "Virginia" };

/** Grams of flower one unit of other products counts as, in milligrams (set by the owner). */
export type FlowerEquivalences = {
  /** Per 100 mg of THC in an edible. */
  ediblesPer100MgThcMg: number;
  /** Per gram of cartridge (vape) oil. */
  cartridgesPerGramMg: number;
  /** Per gram of concentrate. */
  concentratesPerGramMg: number;
};

export type PurchaseLimitSettings = {
  /** The most flower equivalent one order may hold, per delivery state, in milligrams. */
  stateLimitsMg: Record<DeliveryState, number>;
  /** The most units of one size one order may hold. */
  maxQuantityPerSize: number;
  equivalences: FlowerEquivalences;
};

/** What the browser needs to show the running total: the limits, not the equivalences. */
export type PurchaseLimits = Pick<PurchaseLimitSettings, "stateLimitsMg" | "maxQuantityPerSize">;

/**
 * Defaults the operator must confirm with counsel (README): DC's 2 oz and Virginia's 1 oz, rounded
 * down to the grams the shop sells by; edibles, cartridges and concentrates at the common
 * "1 oz of flower = 8 g of concentrate = 800 mg of THC" ratio (3.5 g per 100 mg or per gram).
 */
export const DEFAULT_PURCHASE_LIMITS: PurchaseLimitSettings = {
  stateLimitsMg: { DC: 56_000, VA: 28_000 },
  maxQuantityPerSize: 10,
  equivalences: { ediblesPer100MgThcMg: 3500, cartridgesPerGramMg: 3500, concentratesPerGramMg: 3500 },
};

/** 30500 → "30.5", 28000 → "28", 3544 → "3.54": grams with at most two decimals. */
export function formatGrams(mg: number) {
  return String(Math.round(mg / 10) / 100);
}

/** "12.5 g of 28 g": the running total against a limit. */
export function weightAgainstLimit(totalMg: number, limitMg: number) {
  return `${formatGrams(totalMg)} g of ${formatGrams(limitMg)} g`;
}

export function weightLimitMessage(totalMg: number, state: DeliveryState, limitMg: number) {
  return `Your order comes to ${formatGrams(totalMg)} g of flower equivalent; the limit for ${STATE_NAMES[state]} is ${formatGrams(limitMg)} g per order.`;
}

export function quantityLimitMessage(maxQuantity: number, productName: string, sizeLabel: string) {
  return `You can order at most ${maxQuantity} of ${productName} (${sizeLabel}) per order.`;
}

/** "3.5" → 3500; anything but a plain decimal number of grams (≤ 3 decimals) → undefined. */
export function gramsToMg(value: string | number): number | undefined {
  const text = typeof value === "number" ? String(value) : value.trim();
  if (!/^\d{1,7}(\.\d{1,3})?$/.test(text)) return undefined;
  return Math.round(Number(text) * 1000);
}

export type WeighedLine = {
  sizeId: string;
  productName: string;
  sizeLabel: string;
  quantity: number;
  /** Null only for a size saved before the limits existed (filled at start-up). */
  flowerEquivalentMg: number | null;
};

export function orderWeightMg(lines: readonly Pick<WeighedLine, "quantity" | "flowerEquivalentMg">[]) {
  return lines.reduce((sum, line) => sum + line.quantity * (line.flowerEquivalentMg ?? 0), 0);
}

export type PurchaseLimitProblem =
  | { kind: "quantity"; sizeId: string; message: string }
  | { kind: "weight"; totalMg: number; limitMg: number; message: string };

/**
 * The first limit an order breaks, or null. `lines` must already be merged by size (one line per
 * size), or repeating a line would get round the per-size cap.
 */
export function purchaseLimitProblem(
  lines: readonly WeighedLine[],
  state: DeliveryState,
  limits: PurchaseLimits,
): PurchaseLimitProblem | null {
  for (const line of lines) {
    if (line.quantity > limits.maxQuantityPerSize) {
      return {
        kind: "quantity",
        sizeId: line.sizeId,
        message: quantityLimitMessage(limits.maxQuantityPerSize, line.productName, line.sizeLabel),
      };
    }
  }
  const totalMg = orderWeightMg(lines);
  const limitMg = limits.stateLimitsMg[state];
  if (totalMg > limitMg) {
    return { kind: "weight", totalMg, limitMg, message: weightLimitMessage(totalMg, state, limitMg) };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// The weight of a size from its label: the demo seed, the factory and the start-up fill use it.

const GRAMS_PER_OUNCE = 28; // The trade's ounce: 1/8 oz is sold as 3.5 g.
const WORD_GRAMS: Record<string, number> = { eighth: 3.5, quarter: 7, half: 14, ounce: 28 };

/** Grams a size label names ("3.5g", "3 x 1g pack", "1/8 oz", "2 x 2g blunts"), or null. */
export function gramsInLabel(label: string): number | null {
  const text = label.toLowerCase();
  const multiple = /(\d+)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(g|gram|grams|oz)\b/.exec(text);
  if (multiple) {
    const each = Number(multiple[2]) * (multiple[3] === "oz" ? GRAMS_PER_OUNCE : 1);
    return Number(multiple[1]) * each;
  }
  const fraction = /(\d+)\s*\/\s*(\d+)\s*(?:oz|ounce)/.exec(text);
  if (fraction && Number(fraction[2]) > 0) {
    return (Number(fraction[1]) / Number(fraction[2])) * GRAMS_PER_OUNCE;
  }
  const ounces = /(\d+(?:\.\d+)?)\s*(?:oz|ounces?)\b/.exec(text);
  if (ounces) return Number(ounces[1]) * GRAMS_PER_OUNCE;
  const grams = /(\d+(?:\.\d+)?)\s*(?:g|gram|grams)\b/.exec(text);
  if (grams) return Number(grams[1]);
  for (const [word, value] of Object.entries(WORD_GRAMS)) {
    if (new RegExp(`\\b${word}\\b`).test(text)) return value;
  }
  return null;
}

/** Categories whose flower equivalent is the weight their size names (`3.5g`, `1/8 oz`, `1 oz`). */
const WEIGHED_BY_LABEL: ReadonlySet<string> = new Set(["Flower", "Pre Rolls"]);

/**
 * The flower equivalent of one unit in milligrams when the size alone says it, or null when staff
 * must give it: flower and pre-rolls by the weight in their label (1/8 oz = 3.5 g, the trade's
 * ounce of 28 g); mushrooms hold no cannabis (0). Other categories depend on their THC or oil.
 */
export function flowerEquivalentFromSize(category: string, sizeLabel: string): number | null {
  if (category === "Mushrooms") return 0;
  if (!WEIGHED_BY_LABEL.has(category)) return null;
  const grams = gramsInLabel(sizeLabel);
  return grams === null ? null : Math.round(grams * 1000);
}

/** How many pieces or packs a label names ("20 pack" → 20, "3 bars" → 3, "Single can" → 1). */
export function unitsInLabel(label: string): number {
  const leading = /^\s*(\d+)\b/.exec(label);
  return leading ? Math.max(1, Number(leading[1])) : 1;
}

export type SizeToWeigh = {
  category: string;
  /** THC in mg of the product's smallest size (edibles). */
  thcMg: number | null;
  sizeLabel: string;
  /** Every size label of the product, to scale an edible's THC by its pack. */
  productSizeLabels: readonly string[];
};

/**
 * The flower equivalent of one unit of a size, in milligrams: flower and pre-rolls by the weight
 * in their label; cartridges and concentrates by that weight times the owner's equivalence; edibles
 * by their THC (the product's THC mg is its smallest pack's, scaled by pack size) times the
 * equivalence. Mushrooms contain no cannabis: 0 (the per-size cap still applies). A label without
 * a weight counts as 1 g (100 mg THC for an edible without THC figures).
 */
export function estimateFlowerEquivalentMg(size: SizeToWeigh, equivalences: FlowerEquivalences): number {
  const grams = gramsInLabel(size.sizeLabel) ?? 1;
  switch (size.category) {
    case "Mushrooms":
      return 0;
    case "Edibles": {
      const smallest = Math.min(...size.productSizeLabels.map(unitsInLabel), unitsInLabel(size.sizeLabel));
      const thcMg = (size.thcMg ?? 100) * (unitsInLabel(size.sizeLabel) / smallest);
      return Math.round((thcMg / 100) * equivalences.ediblesPer100MgThcMg);
    }
    case "Cartridges":
      return Math.round(grams * equivalences.cartridgesPerGramMg);
    case "Concentrates":
      return Math.round(grams * equivalences.concentratesPerGramMg);
    default:
      return Math.round(grams * 1000);
  }
}
