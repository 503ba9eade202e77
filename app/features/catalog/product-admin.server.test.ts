import { asc, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { products, stockMovements } from "#app/db/schema.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { listProducts } from "./catalog.server.ts";
import { productFormSchema } from "./product.schema.ts";
import {
  changeSizeStock,
  createProduct,
  fixCategoryCase,
  getAdminProduct,
  listAdminProducts,
  SkuTaken,
  setProductArchived,
  toFormValues,
  updateProduct,
} from "./product-admin.server.ts";

const base = {
  name: "Edit Me",
  description: "Before",
  category: "Edibles",
  strain: "",
  thcPercentage: "",
  thcMg: "10",
  imageUrl: "https://images.example/a.webp",
  imageKey: "",
  isFeatured: false,
  isDeal: true,
  sizes: [
    { size: "10 pack", price: "20", salePrice: "18.5", inventoryCount: "4", flowerEquivalent: "0.35" },
    { size: "20 pack", price: "38", salePrice: "", inventoryCount: "9", flowerEquivalent: "0.7" },
  ],
};

describeEachDatabase("product admin", (database) => {
  it("creates with sizes in order, in cents, and the shop sees it at once", async () => {
    const { id } = await createProduct(productFormSchema.parse(base));
    const product = await getAdminProduct(id);
    expect(
      product?.sizes.map((s) => [
        s.size,
        s.priceCents,
        s.salePriceCents,
        s.inventoryCount,
        s.flowerEquivalentMg,
      ]),
    ).toEqual([
      ["10 pack", 2000, 1850, 4, 350],
      ["20 pack", 3800, null, 9, 700],
    ]);
    expect(product && toFormValues(product).sizes.map((s) => s.flowerEquivalent)).toEqual(["0.35", "0.7"]);
    expect((await listProducts()).some((p) => p.id === id)).toBe(true);
  });

  it("updates in place: kept sizes keep their id, removed ones go, new ones are added", async () => {
    const { id } = await createProduct(productFormSchema.parse(base));
    const before = await getAdminProduct(id);
    const kept = before?.sizes[1]?.id as string;
    const result = await updateProduct(
      id,
      productFormSchema.parse({
        ...base,
        name: "Edited",
        sizes: [
          {
            id: kept,
            size: "20 pack",
            price: "36",
            salePrice: "",
            inventoryCount: "7",
            flowerEquivalent: "0.7",
          },
          { size: "40 pack", price: "70", salePrice: "", inventoryCount: "2", flowerEquivalent: "1.4" },
        ],
      }),
    );
    expect(result.ok).toBe(true);
    const after = await getAdminProduct(id);
    expect(after?.name).toBe("Edited");
    expect(after?.sizes.map((s) => [s.id === kept, s.size, s.priceCents])).toEqual([
      [true, "20 pack", 3600],
      [false, "40 pack", 7000],
    ]);
    expect(
      (await updateProduct("00000000-0000-4000-8000-000000000000", productFormSchema.parse(base))).ok,
    ).toBe(false);
  });

  it("fixes a category's case and leaves unknown ones alone", async () => {
    const { db } = database();
    const { id } = await createProduct(productFormSchema.parse(base));
    await db.update(products).set({ category: "pre rolls" }).where(eq(products.id, id));
    expect(await fixCategoryCase(id)).toEqual({ ok: true, from: "pre rolls", to: "Pre Rolls" });
    expect(await fixCategoryCase(id)).toEqual({ ok: false, reason: "already-known" });
    await db.update(products).set({ category: "Deals" }).where(eq(products.id, id));
    expect(await fixCategoryCase(id)).toEqual({ ok: false, reason: "no-match" });
    expect((await listAdminProducts()).find((p) => p.id === id)?.category).toBe("Deals");
  });

  it("changes one size's stock in place as a ledger movement with its note, never below zero", async () => {
    const { db } = database();
    const { id } = await createProduct(productFormSchema.parse(base));
    const sizeId = (await getAdminProduct(id))?.sizes[0]?.id as string;
    const received = await changeSizeStock({ sizeId, reason: "received", delta: 6, note: "Grower delivery" });
    expect(received).toMatchObject({ ok: true, onHand: 10, productName: "Edit Me", sizeLabel: "10 pack" });
    const counted = await changeSizeStock({ sizeId, reason: "correction", delta: -3, note: "Shelf count" });
    expect(counted).toMatchObject({ ok: true, onHand: 7 });
    expect(await changeSizeStock({ sizeId, reason: "correction", delta: -8, note: "Too many" })).toEqual({
      ok: false,
      reason: "below-zero",
      onHand: 7,
    });
    const moves = await db
      .select({ delta: stockMovements.delta, reason: stockMovements.reason, note: stockMovements.note })
      .from(stockMovements)
      .where(eq(stockMovements.sizeId, sizeId))
      .orderBy(asc(stockMovements.id));
    expect(moves).toEqual([
      { delta: 4, reason: "received", note: "Opening stock" },
      { delta: 6, reason: "received", note: "Grower delivery" },
      { delta: -3, reason: "correction", note: "Shelf count" },
    ]);
    expect((await getAdminProduct(id))?.sizes[0]?.inventoryCount).toBe(7);
  });

  it("archives a product out of the shop and the list, and restores it as it was", async () => {
    const { id } = await createProduct(productFormSchema.parse({ ...base, isFeatured: true }));
    expect(await setProductArchived(id, true)).toEqual({ ok: true, name: "Edit Me" });
    expect(await setProductArchived(id, true)).toEqual({ ok: false, reason: "not-found" });
    expect((await listAdminProducts()).some((p) => p.id === id)).toBe(false);
    expect((await listProducts()).some((p) => p.id === id)).toBe(false);
    const archived = (await listAdminProducts(undefined, { archived: true })).find((p) => p.id === id);
    expect(archived?.archivedAt).not.toBeNull();
    expect(archived?.sizes).toHaveLength(2);
    expect(await setProductArchived(id, false)).toEqual({ ok: true, name: "Edit Me" });
    expect((await listProducts()).some((p) => p.id === id)).toBe(true);
    expect((await getAdminProduct(id))?.isFeatured).toBe(false);
  });

  it("saves a typed SKU, keeps the one a size has, and refuses one another size holds", async () => {
    const sized = (sku: string, other = "") =>
      productFormSchema.parse({
        ...base,
        sizes: [
          { ...base.sizes[0], sku },
          { ...base.sizes[1], sku: other },
        ],
      });
    const { id } = await createProduct(sized("EDIT-10"));
    const product = await getAdminProduct(id);
    expect(product?.sizes[0]?.sku).toBe("EDIT-10");
    expect(product?.sizes[1]?.sku).toMatch(/^CG-/);
    await expect(createProduct(sized("edit-10"))).rejects.toBeInstanceOf(SkuTaken);
    await expect(createProduct(sized("EDIT-X", "EDIT-X"))).rejects.toMatchObject({
      fieldErrors: { "sizes.1.sku": "Another size already has this SKU" },
    });
    // Saving the form as loaded keeps every SKU; a new one is taken; another product's is refused.
    const values = toFormValues(product as NonNullable<typeof product>);
    expect((await updateProduct(id, productFormSchema.parse(values))).ok).toBe(true);
    const renamed = { ...values, version: String(Number(values.version) + 1) };
    renamed.sizes = values.sizes.map((size, index) => (index === 1 ? { ...size, sku: "EDIT-20" } : size));
    expect((await updateProduct(id, productFormSchema.parse(renamed))).ok).toBe(true);
    expect((await getAdminProduct(id))?.sizes.map((size) => size.sku)).toEqual(["EDIT-10", "EDIT-20"]);
    const other = await createProduct(sized("OTHER-1"));
    const otherValues = toFormValues((await getAdminProduct(other.id)) as NonNullable<typeof product>);
    otherValues.sizes = otherValues.sizes.map((size, index) =>
      index === 0 ? { ...size, sku: "Edit-20" } : size,
    );
    expect(await updateProduct(other.id, productFormSchema.parse(otherValues))).toEqual({
      ok: false,
      reason: "sku",
      fieldErrors: { "sizes.0.sku": "Another size already has this SKU" },
    });
  });
});
