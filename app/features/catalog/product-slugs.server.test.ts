import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { productSlugs, products } from "#app/db/schema.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { findProductPage } from "./catalog.server.ts";
import { productFormSchema } from "./product.schema.ts";
import { createProduct, getAdminProduct, toFormValues, updateProduct } from "./product-admin.server.ts";
import { insertProduct, insertProducts } from "./product-factory.server.ts";

const form = (name: string) =>
  productFormSchema.parse({
    name,
    description: "Slug test",
    category: "Flower",
    strain: "Hybrid",
    thcPercentage: "20",
    thcMg: "",
    imageUrl: "https://images.example/a.webp",
    imageKey: "",
    isFeatured: false,
    isDeal: false,
    sizes: [{ size: "3.5g", price: "40", salePrice: "", inventoryCount: "5", flowerEquivalent: "3.5" }],
  });

describeEachDatabase("product slugs", (database) => {
  it("makes a unique slug from the name: blue-dream, blue-dream-2 …", async () => {
    const first = await insertProduct(database().db, { name: "Blue Dream" });
    const second = await insertProduct(database().db, { name: "Blue  Dream!" });
    const [third, fourth] = await insertProducts(database().db, [
      { name: "blue dream" },
      { name: "Blue Dream" },
    ]);
    expect([first.slug, second.slug, third?.slug, fourth?.slug]).toEqual([
      "blue-dream",
      "blue-dream-2",
      "blue-dream-3",
      "blue-dream-4",
    ]);
    const accented = await insertProduct(database().db, { name: "Café Crème & Co. — 10 pack" });
    expect(accented.slug).toBe("cafe-creme-and-co-10-pack");
    const symbols = await insertProduct(database().db, { name: "***" });
    expect(symbols.slug).toBe("product");
  });

  it("finds a product by slug, and sends its id and a renamed product's old slugs to the current one", async () => {
    const { id } = await createProduct(form("Northern Lights"));
    const found = await findProductPage("northern-lights");
    expect(found && "product" in found && found.product.id).toBe(id);
    expect(await findProductPage(id)).toEqual({ redirectTo: "/product/northern-lights" });

    const product = await getAdminProduct(id);
    if (!product) throw new Error("missing");
    // Only the case changes: the slug stays.
    await updateProduct(id, productFormSchema.parse({ ...toFormValues(product), name: "NORTHERN LIGHTS" }));
    expect((await getAdminProduct(id))?.slug).toBe("northern-lights");

    // Edits carry the version they loaded (record 026): load the product again.
    const renamed = await getAdminProduct(id);
    if (!renamed) throw new Error("missing");
    await updateProduct(
      id,
      productFormSchema.parse({ ...toFormValues(renamed), name: "Northern Lights Auto" }),
    );
    expect((await getAdminProduct(id))?.slug).toBe("northern-lights-auto");
    expect(await findProductPage("northern-lights")).toEqual({ redirectTo: "/product/northern-lights-auto" });
    expect(await findProductPage(id)).toEqual({ redirectTo: "/product/northern-lights-auto" });

    // A new product may not take the renamed one's old slug: its old links keep working.
    const { id: other } = await createProduct(form("Northern Lights"));
    const [row] = await database().db.select().from(products).where(eq(products.id, other));
    expect(row?.slug).toBe("northern-lights-2");

    // Renamed back, it takes its old slug back out of the history.
    const latest = await getAdminProduct(id);
    if (!latest) throw new Error("missing");
    await updateProduct(id, productFormSchema.parse({ ...toFormValues(latest), name: "Northern Lights" }));
    expect((await getAdminProduct(id))?.slug).toBe("northern-lights");
    expect(await findProductPage("northern-lights-auto")).toEqual({ redirectTo: "/product/northern-lights" });
    const history = await database()
      .db.select({ slug: productSlugs.slug })
      .from(productSlugs)
      .where(eq(productSlugs.productId, id));
    expect(history.map((entry) => entry.slug)).toEqual(["northern-lights-auto"]);
  });

  it("gives products created at the same moment with the same name different slugs", async () => {
    const created = await Promise.all(Array.from({ length: 6 }, () => createProduct(form("Gelato Cake"))));
    const rows = await Promise.all(created.map(({ id }) => getAdminProduct(id)));
    expect(new Set(rows.map((row) => row?.slug))).toEqual(
      new Set([
        "gelato-cake",
        "gelato-cake-2",
        "gelato-cake-3",
        "gelato-cake-4",
        "gelato-cake-5",
        "gelato-cake-6",
      ]),
    );
  });

  it("answers not found for unknown slugs, ids and malformed keys", async () => {
    expect(await findProductPage("no-such-product")).toBeUndefined();
    expect(await findProductPage("00000000-0000-4000-8000-000000000000")).toBeUndefined();
    expect(await findProductPage("Bad Key%")).toBeUndefined();
  });

  it("folds punctuation and spaces to single hyphens", async () => {
    const [row] = await database()
      .db.select({ slug: sql<string>`product_slug_base('  Gelato #41 (3.5g) ')` })
      .from(products)
      .limit(1);
    expect(row?.slug).toBe("gelato-41-3-5g");
  });
});
