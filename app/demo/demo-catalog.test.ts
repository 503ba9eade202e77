import { describe, expect, it } from "vitest";
import { CATEGORIES, isOnSale, STRAINS } from "#app/features/catalog/catalog.ts";
import { demoProducts } from "./demo-catalog.ts";

describe("demoProducts", () => {
  const products = demoProducts();

  it("gives 64 realistic products over every category and strain", () => {
    expect(products.length).toBeGreaterThanOrEqual(60);
    expect(new Set(products.map((product) => product.category))).toEqual(new Set(CATEGORIES));
    for (const strain of STRAINS) expect(products.some((product) => product.strain === strain)).toBe(true);
    for (const product of products) {
      expect(product.name.length).toBeGreaterThan(2);
      expect(product.description.length).toBeGreaterThan(20);
      expect(product.sizes.length).toBeGreaterThanOrEqual(1);
      expect(product.sizes.length).toBeLessThanOrEqual(4);
    }
  });

  it("features at least 10 products (4 of them Flower) and flags at least 6 deals", () => {
    const featured = products.filter((product) => product.isFeatured);
    expect(featured.length).toBeGreaterThanOrEqual(10);
    expect(featured.filter((product) => product.category === "Flower").length).toBeGreaterThanOrEqual(4);
    expect(products.filter((product) => product.isDeal).length).toBeGreaterThanOrEqual(6);
  });

  it("shows THC % on Flower and THC mg elsewhere", () => {
    for (const product of products) {
      if (product.category === "Flower") {
        expect(product.thcPercentage).toBeGreaterThanOrEqual(15);
        expect(product.thcPercentage).toBeLessThanOrEqual(32);
        expect(product.thcMg).toBeNull();
      } else {
        expect(product.thcPercentage).toBeNull();
        if (product.category !== "Mushrooms") expect(product.thcMg).toBeGreaterThan(0);
      }
    }
  });

  it("prices in whole cents, with real sales, stock and a few sold-out sizes", () => {
    const sizes = products.flatMap((product) => product.sizes);
    for (const size of sizes) {
      expect(Number.isInteger(size.priceCents)).toBe(true);
      expect(size.priceCents).toBeGreaterThan(0);
      expect(Number.isInteger(size.inventoryCount)).toBe(true);
      if (size.salePriceCents !== null) expect(size.salePriceCents).toBeLessThan(size.priceCents);
    }
    expect(sizes.filter((size) => isOnSale(size)).length).toBeGreaterThanOrEqual(5);
    expect(sizes.filter((size) => size.inventoryCount === 0).length).toBeGreaterThanOrEqual(2);
    expect(sizes.filter((size) => size.inventoryCount >= 5).length / sizes.length).toBeGreaterThan(0.9);
    const flower = products.find((product) => product.name === "Blue Dream");
    expect(flower?.sizes.map((size) => [size.size, size.priceCents])).toEqual([
      ["3.5g", 4500],
      ["7g", 8000],
      ["14g", 15000],
      ["28g", 28000],
    ]);
  });

  it("gives unique names and unique ages, so newest-first is stable and mixes categories", () => {
    expect(new Set(products.map((product) => product.name.toLowerCase())).size).toBe(products.length);
    expect(new Set(products.map((product) => product.ageMinutes)).size).toBe(products.length);
    const newestEight = [...products].sort((a, b) => a.ageMinutes - b.ageMinutes).slice(0, 8);
    expect(new Set(newestEight.map((product) => product.category)).size).toBeGreaterThanOrEqual(3);
  });

  it("is deterministic and generates 500 plausible, uniquely named products", () => {
    expect(demoProducts()).toEqual(products);
    const many = demoProducts(500);
    expect(many).toHaveLength(500);
    expect(many.slice(0, products.length)).toEqual(products);
    expect(new Set(many.map((product) => product.name.toLowerCase())).size).toBe(500);
    expect(new Set(many.map((product) => product.ageMinutes)).size).toBe(500);
    expect(new Set(many.map((product) => product.category))).toEqual(new Set(CATEGORIES));
    for (const product of many) {
      expect(product.sizes.length).toBeGreaterThanOrEqual(1);
      for (const size of product.sizes) {
        expect(Number.isInteger(size.priceCents)).toBe(true);
        if (size.salePriceCents !== null) expect(size.salePriceCents).toBeLessThan(size.priceCents);
      }
    }
    expect(demoProducts(0)).toEqual([]);
  });
});
