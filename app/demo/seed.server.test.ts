import { and, eq, isNotNull } from "drizzle-orm";
import { expect, it } from "vitest";
import { mediaFiles, productSizes, products, storeSettings } from "#app/db/schema.ts";
import { insertProduct } from "#app/features/catalog/product-factory.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { DEMO_SEEDED_KEY, seedDemoCatalogue } from "./seed.server.ts";

describeEachDatabase("demo catalogue seed", (database) => {
  it("seeds an empty shop once, with an image for every product", { timeout: 180_000 }, async () => {
    const { db } = database();
    const messages: string[] = [];
    const first = await seedDemoCatalogue(db, { log: (message) => messages.push(message) });
    process.stdout.write(`Seeding 64 demo products took ${first.ms} ms (${first.images} images)\n`);
    expect(first.seeded).toBe(64);
    expect(messages.length).toBeGreaterThan(0);
    expect(await db.$count(products)).toBe(64);
    expect(await db.$count(productSizes)).toBeGreaterThanOrEqual(64);

    const rows = await db.select().from(products);
    for (const row of rows) {
      expect(row.imageUrl).toBe(`/media/${row.imageKey}-640.webp`);
    }
    const withImages = await db
      .select({ id: products.id })
      .from(products)
      .innerJoin(mediaFiles, and(eq(mediaFiles.imageKey, products.imageKey), eq(mediaFiles.width, 640)))
      .where(isNotNull(products.imageKey));
    expect(withImages).toHaveLength(64);
    expect(new Set(rows.map((row) => row.createdAt.getTime())).size).toBe(64);
    // P-28: every size carries its flower equivalent, flower by the weight in its label.
    const sizes = await db
      .select({ size: productSizes.size, mg: productSizes.flowerEquivalentMg, category: products.category })
      .from(productSizes)
      .innerJoin(products, eq(products.id, productSizes.productId));
    expect(sizes.filter((size) => size.mg === null)).toEqual([]);
    expect(
      sizes.filter((size) => size.category === "Flower" && size.size === "28g").map((size) => size.mg),
    ).toContain(28_000);
    expect(sizes.filter((size) => size.category === "Mushrooms").every((size) => size.mg === 0)).toBe(true);

    const second = await seedDemoCatalogue(db);
    expect(second.seeded).toBe(0);
    expect(await db.$count(products)).toBe(64);
    // Each has a readable address of its own (record 028).
    expect(new Set(rows.map((row) => row.slug)).size).toBe(64);
    expect(rows.every((row) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(row.slug))).toBe(true);

    // Once in the life of the database: an owner who deletes every demo product keeps an empty shop.
    await db.delete(productSizes);
    await db.delete(products);
    expect(await seedDemoCatalogue(db)).toMatchObject({ seeded: 0 });
    expect(await db.$count(products)).toBe(0);
    const [flag] = await db.select().from(storeSettings).where(eq(storeSettings.key, DEMO_SEEDED_KEY));
    expect(flag?.value).toMatchObject({ products: 64 });
  });

  it("never touches a shop that already has products", async () => {
    const { db } = database();
    await db.delete(products);
    const mine = await insertProduct(db, { name: "The Owner's Own Kush" });
    expect(await seedDemoCatalogue(db)).toMatchObject({ seeded: 0 });
    const rows = await db.select({ id: products.id }).from(products);
    expect(rows).toEqual([{ id: mine.id }]);
  });

  it("creates products with sensible defaults for tests", async () => {
    const { db } = database();
    const edible = await insertProduct(db, {
      category: "Edibles",
      sizes: [{ size: "10 pack", priceCents: 2500, inventoryCount: 3 }],
    });
    expect(edible).toMatchObject({ category: "Edibles", thcPercentage: null, thcMg: 100, isFeatured: false });
    expect(edible.sizes).toMatchObject([
      { size: "10 pack", priceCents: 2500, salePriceCents: null, inventoryCount: 3, position: 0 },
    ]);
    expect(edible.sizes[0]?.id).toMatch(/^[0-9a-f-]{36}$/);

    const flower = await insertProduct(db, {
      strain: null,
      sizes: [
        { size: "3.5g", priceCents: 4500, salePriceCents: 3900 },
        { size: "7g", priceCents: 8000, inventoryCount: 0 },
      ],
    });
    expect(flower).toMatchObject({ category: "Flower", strain: null, thcPercentage: 22, thcMg: null });
    expect(flower.sizes.map((size) => [size.size, size.salePriceCents, size.inventoryCount])).toEqual([
      ["3.5g", 3900, 20],
      ["7g", null, 0],
    ]);
  });
});
