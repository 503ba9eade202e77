import { eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { products } from "#app/db/schema.ts";
import { currentSizePrices, listSuggestionCandidates } from "#app/features/cart/cart.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { findProducts, getProduct, listProductSitemapEntries } from "./catalog.server.ts";
import { insertProducts } from "./product-factory.server.ts";

describeEachDatabase("storefront catalogue queries", (database) => {
  let ids: Record<string, string> = {};
  let sizeIds: Record<string, string> = {};

  beforeAll(async () => {
    const { db } = database();
    const minute = 60_000;
    const now = Date.now();
    const created = await insertProducts(db, [
      {
        name: "Blue Dream",
        category: "Flower",
        strain: "Hybrid",
        isFeatured: true,
        createdAt: new Date(now - 1 * minute),
      },
      {
        name: "Sour Diesel",
        category: "Flower",
        strain: "Sativa",
        isDeal: true,
        createdAt: new Date(now - 2 * minute),
        sizes: [
          { size: "3.5g", priceCents: 4000, salePriceCents: 3200 },
          { size: "7g", priceCents: 7000, inventoryCount: 0 },
        ],
      },
      {
        name: "Northern Lights",
        category: "Flower",
        strain: "Indica",
        createdAt: new Date(now - 3 * minute),
      },
      { name: "100% Pure_Gummies", category: "Edibles", strain: null, createdAt: new Date(now - 4 * minute) },
      {
        name: "Equal Sale Price",
        category: "Edibles",
        strain: "Indica",
        createdAt: new Date(now - 5 * minute),
        sizes: [{ size: "10 pack", priceCents: 2500, salePriceCents: 2500 }],
      },
      {
        name: "Archived Kush",
        category: "Flower",
        strain: "Sativa",
        archivedAt: new Date(),
        createdAt: new Date(now),
      },
    ]);
    ids = Object.fromEntries(created.map((product) => [product.name, product.id]));
    sizeIds = Object.fromEntries(
      created.flatMap((product) => product.sizes.map((size) => [`${product.name} ${size.size}`, size.id])),
    );
  });

  const names = (list: { name: string }[]) => list.map((product) => product.name);

  it("lists newest first, leaves archived products out and counts every match", async () => {
    const page = await findProducts({}, { limit: 2 });
    expect(page.total).toBe(5);
    expect(names(page.products)).toEqual(["Blue Dream", "Sour Diesel"]);
    const next = await findProducts({}, { limit: 2, offset: 2 });
    expect(names(next.products)).toEqual(["Northern Lights", "100% Pure_Gummies"]);
  });

  it("searches names case-insensitively as a substring, with % and _ taken literally", async () => {
    expect(names((await findProducts({ search: "dReAm" }, { limit: 10 })).products)).toEqual(["Blue Dream"]);
    expect(names((await findProducts({ search: "100%" }, { limit: 10 })).products)).toEqual([
      "100% Pure_Gummies",
    ]);
    expect((await findProducts({ search: "%" }, { limit: 10 })).total).toBe(1);
    expect((await findProducts({ search: "e_" }, { limit: 10 })).total).toBe(1);
    expect((await findProducts({ search: "nothing like this" }, { limit: 10 })).total).toBe(0);
  });

  it("filters by category, strains, deals, featured and sale", async () => {
    expect((await findProducts({ category: "Flower" }, { limit: 10 })).total).toBe(3);
    expect(names((await findProducts({ strains: ["Indica", "Hybrid"] }, { limit: 10 })).products)).toEqual([
      "Blue Dream",
      "Northern Lights",
      "Equal Sale Price",
    ]);
    expect((await findProducts({ strains: [] }, { limit: 10 })).total).toBe(0);
    expect(names((await findProducts({ dealsOnly: true }, { limit: 10 })).products)).toEqual(["Sour Diesel"]);
    expect(names((await findProducts({ featuredOnly: true }, { limit: 10 })).products)).toEqual([
      "Blue Dream",
    ]);
    // A sale price equal to the price is not a sale (K-3).
    expect(names((await findProducts({ onSaleOnly: true }, { limit: 10 })).products)).toEqual([
      "Sour Diesel",
    ]);
    expect(
      names(
        (await findProducts({ category: "Flower", strains: ["Sativa"], search: "sour" }, { limit: 10 }))
          .products,
      ),
    ).toEqual(["Sour Diesel"]);
  });

  it("returns sizes in order with stock as a flag, and one product by id", async () => {
    const product = await getProduct(ids["Sour Diesel"] as string);
    expect(
      product?.sizes.map((size) => [size.size, size.priceCents, size.salePriceCents, size.inStock]),
    ).toEqual([
      ["3.5g", 4000, 3200, true],
      ["7g", 7000, null, false],
    ]);
    expect(await getProduct(ids["Archived Kush"] as string)).toBeUndefined();
    expect(await getProduct("not-a-uuid")).toBeUndefined();
    expect(await getProduct("00000000-0000-4000-8000-000000000000")).toBeUndefined();
  });

  it("gives current prices and stock of stored cart sizes, skipping unknown and archived ones", async () => {
    const prices = await currentSizePrices([
      sizeIds["Sour Diesel 3.5g"] as string,
      sizeIds["Sour Diesel 7g"] as string,
      sizeIds["Archived Kush 3.5g"] as string,
      "00000000-0000-4000-8000-000000000000",
      "garbage",
    ]);
    expect(
      prices.map((size) => [size.productName, size.sizeLabel, size.priceCents, size.inStock]).sort(),
    ).toEqual([
      ["Sour Diesel", "3.5g", 4000, true],
      ["Sour Diesel", "7g", 7000, false],
    ]);
  });

  it("lists every shop product for the sitemap", async () => {
    const entries = await listProductSitemapEntries();
    expect(entries).toHaveLength(5);
    const { db } = database();
    const [archived] = await db.select().from(products).where(eq(products.name, "Archived Kush"));
    expect(entries.map((entry) => entry.slug)).not.toContain(archived?.slug);
  });

  it("lists in-stock sizes of the given categories, without the cart's products or archived ones, cheapest first", async () => {
    const candidates = await listSuggestionCandidates(["Flower"], [ids["Blue Dream"] as string]);
    const names = new Set(candidates.map((candidate) => candidate.productName));
    expect(names.has("Blue Dream")).toBe(false);
    expect(names.has("Archived Kush")).toBe(false);
    expect(names.has("100% Pure_Gummies")).toBe(false);
    expect(names.has("Sour Diesel")).toBe(true);
    // The sold-out 7g is no suggestion; the 3.5g is.
    expect(candidates.map((candidate) => candidate.sizeId)).toContain(sizeIds["Sour Diesel 3.5g"]);
    expect(candidates.map((candidate) => candidate.sizeId)).not.toContain(sizeIds["Sour Diesel 7g"]);
    const prices = candidates.map((candidate) => candidate.priceCents);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(await listSuggestionCandidates([], [])).toEqual([]);
  });
});
