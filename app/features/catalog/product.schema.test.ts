import { describe, expect, it } from "vitest";
import { formDataOf } from "#tests/support/form-data.ts";
import {
  derivedFlowerEquivalent,
  emptyProductForm,
  fieldErrorsOf,
  namedFieldsToPayload,
  productFormSchema,
  SALE_PRICE_NOT_LOWER,
  submittedFormValues,
} from "./product.schema.ts";
import { categoryCounts, filterAdminProducts } from "./product-list.ts";

const valid = {
  name: "Blue Dream",
  description: "Sweet berry aroma.",
  category: "Flower",
  strain: "Hybrid",
  thcPercentage: "21.5",
  thcMg: "",
  imageUrl: "/media/abc123-640.webp",
  imageKey: "abc123",
  isFeatured: true,
  isDeal: false,
  sizes: [{ id: "", size: "3.5g", price: "45", salePrice: "", inventoryCount: "", flowerEquivalent: "3.5" }],
};

describe("product form schema (K-5)", () => {
  it("turns empty price and inventory into 0 and an empty sale price into unset", () => {
    const parsed = productFormSchema.parse({
      ...valid,
      sizes: [{ size: "1g", price: "", salePrice: "", inventoryCount: "", flowerEquivalent: "1" }],
    });
    expect(parsed.sizes[0]).toEqual({
      id: undefined,
      size: "1g",
      price: 0,
      salePrice: null,
      inventoryCount: 0,
      received: 0,
      correction: 0,
      stockNote: "",
      flowerEquivalent: 1000,
      lowStockThreshold: 5,
    });
    expect(parsed.thcPercentage).toBe(21.5);
    expect(parsed.thcMg).toBeNull();
    expect(parsed.imageKey).toBe("abc123");
  });

  it("gives the first shop's messages", () => {
    const result = productFormSchema.safeParse({
      ...valid,
      name: " ",
      description: "",
      category: "",
      imageUrl: "",
      sizes: [{ size: "", price: "-1", salePrice: "", inventoryCount: "-2", flowerEquivalent: "" }],
    });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(fieldErrorsOf(result.error)).toMatchObject({
      name: "Product name is required",
      description: "Description is required",
      category: "Category is required",
      imageUrl: "Image is required",
      "sizes.0.size": "Size is required",
      "sizes.0.price": "Price must be positive",
      "sizes.0.inventoryCount": "Inventory must be non-negative",
      "sizes.0.flowerEquivalent": "Flower equivalent is required",
    });
    const noSizes = productFormSchema.safeParse({ ...valid, sizes: [] });
    expect(noSizes.success || fieldErrorsOf(noSizes.error).sizes).toBe("At least one size is required");
  });

  it("requires each size's flower equivalent in grams (P-28) and stores milligrams", () => {
    const withWeight = (flowerEquivalent: unknown) =>
      productFormSchema.safeParse({ ...valid, sizes: [{ ...valid.sizes[0], flowerEquivalent }] });
    const missing = productFormSchema.safeParse({
      ...valid,
      category: "Edibles",
      sizes: [{ ...valid.sizes[0], size: "10 pack", flowerEquivalent: undefined }],
    });
    expect(missing.success || fieldErrorsOf(missing.error)["sizes.0.flowerEquivalent"]).toBe(
      "Flower equivalent is required",
    );
    for (const bad of ["-1", "abc", "1e3", "3.5.1", "1001"]) {
      const result = withWeight(bad);
      expect(result.success || fieldErrorsOf(result.error)["sizes.0.flowerEquivalent"], bad).toBe(
        "Flower equivalent must be grams from 0 to 1000",
      );
    }
    expect(withWeight("3.5").data?.sizes[0]?.flowerEquivalent).toBe(3500);
    expect(withWeight("0").data?.sizes[0]?.flowerEquivalent).toBe(0);
    expect(withWeight(0.125).data?.sizes[0]?.flowerEquivalent).toBe(125);
    expect(emptyProductForm().sizes[0]?.flowerEquivalent).toBe("");
  });

  it("fills a blank flower equivalent from a weight size of flower and pre-rolls, and asks only otherwise", () => {
    const parse = (category: string, size: string, flowerEquivalent = "") =>
      productFormSchema.safeParse({
        ...valid,
        category,
        sizes: [{ ...valid.sizes[0], size, flowerEquivalent }],
      });
    const grams = (category: string, size: string, typed?: string) => {
      const result = parse(category, size, typed);
      return result.success ? result.data.sizes[0]?.flowerEquivalent : fieldErrorsOf(result.error);
    };
    expect(grams("Flower", "3.5g")).toBe(3500);
    expect(grams("Flower", "1/8 oz")).toBe(3500);
    expect(grams("Flower", "1 oz")).toBe(28_000);
    expect(grams("Pre Rolls", "3 x 0.5g")).toBe(1500);
    expect(grams("Mushrooms", "3.5g")).toBe(0);
    // A typed figure wins over the size's.
    expect(grams("Flower", "3.5g", "3")).toBe(3000);
    // Not derivable: a flower size that names no weight, and every edible, cartridge or concentrate.
    for (const [category, size] of [
      ["Flower", "Shake bag"],
      ["Edibles", "10 pack"],
      ["Cartridges", "1g"],
      ["Concentrates", "1g"],
    ] as const) {
      expect(grams(category, size), `${category} ${size}`).toEqual({
        "sizes.0.flowerEquivalent": "Flower equivalent is required",
      });
    }
    expect(derivedFlowerEquivalent("Flower", "1/8 oz")).toBe("3.5");
    expect(derivedFlowerEquivalent("Edibles", "1/8 oz")).toBeNull();
  });

  it("takes a SKU of letters, digits, dots, dashes and underscores; blank keeps or generates one", () => {
    const withSku = (sku: string) =>
      productFormSchema.safeParse({ ...valid, sizes: [{ ...valid.sizes[0], sku }] });
    expect(withSku(" CG-BD-35 ").data?.sizes[0]?.sku).toBe("CG-BD-35");
    expect(withSku("").data?.sizes[0]?.sku).toBeUndefined();
    const bad = withSku("has space");
    expect(bad.success || fieldErrorsOf(bad.error)["sizes.0.sku"]).toBe(
      "SKU may hold letters, digits, dots, dashes and underscores",
    );
  });

  it("refuses an unknown category, a script URL and a THC percentage over 100", () => {
    expect(productFormSchema.safeParse({ ...valid, category: "Deals" }).success).toBe(false);
    expect(productFormSchema.safeParse({ ...valid, imageUrl: "javascript:alert(1)" }).success).toBe(false);
    expect(productFormSchema.safeParse({ ...valid, thcPercentage: "101" }).success).toBe(false);
  });

  it("starts with one empty size row, price 0 and inventory 0, featured and deal off", () => {
    const form = emptyProductForm();
    expect(form.sizes).toHaveLength(1);
    expect(form.sizes[0]).toMatchObject({ size: "", price: "0", inventoryCount: "0", salePrice: "" });
    expect(form.isFeatured).toBe(false);
    expect(form.isDeal).toBe(false);
  });
});

describe("admin product list rules", () => {
  const products = [
    { name: "Blue Dream", category: "Flower" },
    { name: "Gummies", category: "Edibles" },
    { name: "Old Deal", category: "Deals" },
    { name: "Lower", category: "flower" },
  ];
  it("searches name or category case-insensitively; the category filter is exact", () => {
    expect(filterAdminProducts(products, "FLOWER", "all").map((p) => p.name)).toEqual([
      "Blue Dream",
      "Lower",
    ]);
    expect(filterAdminProducts(products, "gum", "all").map((p) => p.name)).toEqual(["Gummies"]);
    expect(filterAdminProducts(products, "", "Flower").map((p) => p.name)).toEqual(["Blue Dream"]);
    expect(filterAdminProducts(products, "", "all")).toHaveLength(4);
  });
  it("keeps only products with a size at or below its threshold, and finds a size by its SKU", () => {
    const stocked = [
      {
        name: "Plenty",
        category: "Flower",
        sizes: [{ sku: "CG-A", inventoryCount: 40, lowStockThreshold: 5 }],
      },
      {
        name: "One Low",
        category: "Flower",
        sizes: [
          { sku: "CG-B1", inventoryCount: 40, lowStockThreshold: 5 },
          { sku: "CG-B2", inventoryCount: 5, lowStockThreshold: 5 },
        ],
      },
      {
        name: "Sold Out",
        category: "Edibles",
        sizes: [{ sku: "CG-C", inventoryCount: 0, lowStockThreshold: 0 }],
      },
    ];
    expect(filterAdminProducts(stocked, "", "all", { lowStockOnly: true }).map((p) => p.name)).toEqual([
      "One Low",
      "Sold Out",
    ]);
    expect(filterAdminProducts(stocked, "cg-b2", "all").map((p) => p.name)).toEqual(["One Low"]);
  });
  it("counts categories, known first, unknown ones flagged", () => {
    expect(categoryCounts(products)).toEqual([
      { category: "Flower", count: 1, known: true },
      { category: "Edibles", count: 1, known: true },
      { category: "Deals", count: 1, known: false },
      { category: "flower", count: 1, known: false },
    ]);
  });
});

describe("sale price below the price", () => {
  const withSale = (price: string, salePrice: string) =>
    productFormSchema.safeParse({ ...valid, sizes: [{ ...valid.sizes[0], price, salePrice }] });

  it("refuses a sale price at or above the price, on the sale price field", () => {
    for (const [price, sale] of [
      ["45", "45"],
      ["45", "50"],
      ["0", "1"],
    ] as const) {
      const result = withSale(price, sale);
      expect(result.success, `${sale} against ${price}`).toBe(false);
      if (!result.success)
        expect(fieldErrorsOf(result.error)).toEqual({ "sizes.0.salePrice": SALE_PRICE_NOT_LOWER });
    }
  });

  it("takes a lower sale price, and no sale price or 0 (not on sale)", () => {
    expect(withSale("45", "44.99").success).toBe(true);
    expect(withSale("45", "").success).toBe(true);
    expect(withSale("45", "0").success).toBe(true);
  });
});

describe("a plain form post (no JavaScript)", () => {
  it("reads named fields as the payload, switches as on, a pasted URL as the image", () => {
    const { sizes: _sizes, isFeatured: _featured, isDeal: _deal, ...text } = valid;
    const form = formDataOf({
      csrf: "token",
      ...text,
      imageUrl: "/media/old-640.webp",
      imageKey: "old",
      imagePasted: " https://images.example/new.webp ",
      isDeal: "on",
      "sizes.0.size": "3.5g",
      "sizes.0.price": "45",
      "sizes.0.salePrice": "40",
      "sizes.0.inventoryCount": "3",
      "sizes.0.flowerEquivalent": "3.5",
      "sizes.0.lowStockThreshold": "2",
      "sizes.1.size": "7g",
      "sizes.1.price": "80",
      "sizes.1.flowerEquivalent": "7",
    });
    const payload = namedFieldsToPayload(form.entries());
    const parsed = productFormSchema.parse(payload);
    expect(parsed).toMatchObject({
      name: "Blue Dream",
      imageUrl: "https://images.example/new.webp",
      imageKey: null,
      isFeatured: false,
      isDeal: true,
    });
    expect(parsed.sizes.map((size) => [size.size, size.salePrice ?? null, size.lowStockThreshold])).toEqual([
      ["3.5g", 40, 2],
      ["7g", null, 5],
    ]);
    const values = submittedFormValues(payload);
    expect(values.sizes.map((size) => size.price)).toEqual(["45", "80"]);
    expect(values.imageUrl).toBe("https://images.example/new.webp");
  });

  it("gives back what was typed when the payload is refused", () => {
    const values = submittedFormValues({ ...valid, sizes: [{ ...valid.sizes[0], price: "abc" }] });
    expect(values).toMatchObject({
      name: "Blue Dream",
      imageUrl: "/media/abc123-640.webp",
      imageKey: "abc123",
    });
    expect(values.sizes[0]).toMatchObject({ size: "3.5g", price: "abc", flowerEquivalent: "3.5" });
    expect(values.sizes[0]?.key).toBeTruthy();
  });
});
