/**
 * A few items to suggest to a shopper whose cart is under the minimum order: from the categories
 * already in the cart, one size per product, those that reach the minimum on their own first
 * (cheapest first), then the rest (dearest first). Pure: the browser and the tests share it.
 */
import { type CartItemInput, lineUnitPriceCents } from "./cart.ts";

export const SUGGESTION_COUNT = 3;

/** Where the checkout asks for suggestions: GET ?category=…&exclude=<productId>&missing=<cents>. */
export const MINIMUM_SUGGESTIONS_PATH = "/api/minimum-suggestions";

export function pickSuggestions(
  candidates: readonly CartItemInput[],
  missingCents: number,
  count: number = SUGGESTION_COUNT,
): CartItemInput[] {
  const byProduct = new Map<string, CartItemInput[]>();
  for (const size of candidates) {
    const list = byProduct.get(size.productId) ?? [];
    list.push(size);
    byProduct.set(size.productId, list);
  }
  const chosen: CartItemInput[] = [];
  for (const sizes of byProduct.values()) {
    const sorted = [...sizes].sort((a, b) => lineUnitPriceCents(a) - lineUnitPriceCents(b));
    const covering = sorted.find((size) => lineUnitPriceCents(size) >= missingCents);
    const pick = covering ?? sorted[sorted.length - 1];
    if (pick) chosen.push(pick);
  }
  const covers = (size: CartItemInput) => lineUnitPriceCents(size) >= missingCents;
  return chosen
    .sort((a, b) => {
      if (covers(a) !== covers(b)) return covers(a) ? -1 : 1;
      const difference = lineUnitPriceCents(a) - lineUnitPriceCents(b);
      return covers(a) ? difference : -difference;
    })
    .slice(0, count);
}
