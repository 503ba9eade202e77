import { describe, expect, it } from "vitest";
import { demoProducts } from "#app/demo/demo-catalog.ts";
import {
  DEFAULT_PURCHASE_LIMITS,
  estimateFlowerEquivalentMg,
  flowerEquivalentFromSize,
  formatGrams,
  gramsInLabel,
  gramsToMg,
  purchaseLimitProblem,
  weightAgainstLimit,
} from "./purchase-limits.ts";

const equivalences = DEFAULT_PURCHASE_LIMITS.equivalences;
const weigh = (category: string, sizeLabel: string, thcMg: number | null = null, labels = [sizeLabel]) =>
  estimateFlowerEquivalentMg({ category, thcMg, sizeLabel, productSizeLabels: labels }, equivalences);

describe("weights of flower equivalent (P-28)", () => {
  it("reads grams from size labels", () => {
    expect(gramsInLabel("3.5g")).toBe(3.5);
    expect(gramsInLabel("28 g")).toBe(28);
    expect(gramsInLabel("1/8 oz")).toBe(3.5);
    expect(gramsInLabel("1 oz")).toBe(28);
    expect(gramsInLabel("3 x 1g pack")).toBe(3);
    expect(gramsInLabel("5 x 0.5g pack")).toBe(2.5);
    expect(gramsInLabel("2 x 2g blunts")).toBe(4);
    expect(gramsInLabel("1g disposable")).toBe(1);
    expect(gramsInLabel("Quarter")).toBe(7);
    expect(gramsInLabel("10 pack")).toBeNull();
  });

  it("weighs flower and pre-rolls by weight, the rest by the owner's equivalences, mushrooms at 0", () => {
    expect(weigh("Flower", "3.5g")).toBe(3500);
    expect(weigh("Flower", "1/8 oz")).toBe(3500);
    expect(weigh("Pre Rolls", "5 x 0.5g pack")).toBe(2500);
    expect(weigh("Cartridges", "0.5g")).toBe(1750);
    expect(weigh("Concentrates", "2g")).toBe(7000);
    // An edible's THC mg is its smallest pack's: a 20 pack of a 100 mg 10 pack holds 200 mg.
    expect(weigh("Edibles", "10 pack", 100, ["10 pack", "20 pack"])).toBe(3500);
    expect(weigh("Edibles", "20 pack", 100, ["10 pack", "20 pack"])).toBe(7000);
    expect(weigh("Edibles", "4 pack", 10, ["Single can", "4 pack"])).toBe(1400);
    expect(weigh("Mushrooms", "14g")).toBe(0);
    expect(weigh("Flower", "Single")).toBe(1000);
    expect(
      estimateFlowerEquivalentMg(
        { category: "Edibles", thcMg: 100, sizeLabel: "10 pack", productSizeLabels: ["10 pack"] },
        { ...equivalences, ediblesPer100MgThcMg: 2000 },
      ),
    ).toBe(2000);
  });

  it("gives every size of the demo catalogue a weight", () => {
    for (const product of demoProducts(500)) {
      for (const size of product.sizes) {
        const mg = weigh(
          product.category,
          size.size,
          product.thcMg,
          product.sizes.map((entry) => entry.size),
        );
        expect(Number.isInteger(mg) && mg >= 0, `${product.name} ${size.size}`).toBe(true);
        if (product.category !== "Mushrooms") expect(mg, `${product.name} ${size.size}`).toBeGreaterThan(0);
      }
    }
  });

  it("takes flower and pre-rolls' weight from a weight size: 1/8 oz is the trade's 3.5 g, 1 oz 28 g", () => {
    const table: Array<[category: string, size: string, mg: number | null]> = [
      ["Flower", "3.5g", 3500],
      ["Flower", "1/8 oz", 3500],
      ["Flower", "1/4 oz", 7000],
      ["Flower", "1 oz", 28_000],
      ["Pre Rolls", "1g", 1000],
      ["Pre Rolls", "5 x 0.5g", 2500],
      ["Mushrooms", "3.5g", 0],
      ["Flower", "Shake bag", null],
      ["Edibles", "3.5g", null],
      ["Cartridges", "1g", null],
    ];
    for (const [category, size, mg] of table) {
      expect(flowerEquivalentFromSize(category, size), `${category} ${size}`).toBe(mg);
    }
  });

  it("formats and parses grams", () => {
    expect(formatGrams(30_500)).toBe("30.5");
    expect(formatGrams(28_000)).toBe("28");
    expect(weightAgainstLimit(12_500, 28_000)).toBe("12.5 g of 28 g");
    expect(gramsToMg("3.5")).toBe(3500);
    expect(gramsToMg("0.125")).toBe(125);
    for (const bad of ["", "-1", "1e3", "0x10", " ", "1.2345", "abc"])
      expect(gramsToMg(bad), bad).toBeUndefined();
  });
});

describe("purchase limits", () => {
  const line = (quantity: number, flowerEquivalentMg: number, sizeId = "s1") => ({
    sizeId,
    productName: "Blue Dream",
    sizeLabel: "3.5g",
    quantity,
    flowerEquivalentMg,
  });
  const limits = DEFAULT_PURCHASE_LIMITS;

  it("caps the quantity of one size", () => {
    expect(purchaseLimitProblem([line(10, 0)], "DC", limits)).toBeNull();
    expect(purchaseLimitProblem([line(11, 0)], "DC", limits)?.message).toBe(
      "You can order at most 10 of Blue Dream (3.5g) per order.",
    );
  });

  it("limits the order's weight by the delivery state and names the limit", () => {
    const order = [line(8, 3500, "a"), line(1, 2500, "b")]; // 30.5 g
    expect(purchaseLimitProblem(order, "DC", limits)).toBeNull();
    expect(purchaseLimitProblem(order, "VA", limits)?.message).toBe(
      "Your order comes to 30.5 g of flower equivalent; the limit for Virginia is 28 g per order.",
    );
    expect(purchaseLimitProblem([line(8, 3500)], "VA", limits)).toBeNull(); // exactly 28 g
    expect(purchaseLimitProblem([line(9, 7000)], "DC", limits)?.message).toBe(
      "Your order comes to 63 g of flower equivalent; the limit for Washington DC is 56 g per order.",
    );
  });
});
