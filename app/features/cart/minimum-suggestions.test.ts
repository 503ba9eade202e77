import { describe, expect, it } from "vitest";
import type { CartItemInput } from "./cart.ts";
import { pickSuggestions } from "./minimum-suggestions.ts";

function size(productId: string, priceCents: number, salePriceCents: number | null = null): CartItemInput {
  return {
    productId,
    productName: `Product ${productId}`,
    imageUrl: "",
    category: "Edibles",
    sizeId: `${productId}-${priceCents}`,
    sizeLabel: "1 pack",
    priceCents,
    salePriceCents,
  };
}

describe("pickSuggestions", () => {
  it("offers first the items that reach the minimum on their own, cheapest first, one size per product", () => {
    const picked = pickSuggestions(
      [size("a", 1000), size("a", 3000), size("b", 2500), size("c", 9000), size("d", 500)],
      2000,
    );
    expect(picked.map((item) => item.sizeId)).toEqual(["b-2500", "a-3000", "c-9000"]);
  });

  it("falls back to the dearest sizes when none reaches the missing amount alone", () => {
    const picked = pickSuggestions([size("a", 1000), size("a", 1500), size("b", 1200)], 5000);
    expect(picked.map((item) => item.sizeId)).toEqual(["a-1500", "b-1200"]);
  });

  it("reads a sale price as the price paid", () => {
    const picked = pickSuggestions([size("a", 3000, 1500), size("b", 2000)], 1800, 1);
    expect(picked.map((item) => item.sizeId)).toEqual(["b-2000"]);
  });
});
