import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { products } from "#app/db/schema.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { listProducts } from "./catalog.server.ts";
import { productFormSchema } from "./product.schema.ts";
import {
  createProduct,
  fixCategoryCase,
  getAdminProduct,
  listAdminProducts,
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
});
