import { parse } from "csv-parse/sync";
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { catalogState, productSizes, products, stockMovements } from "#app/db/schema.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { applyImport, exportCatalogCsv, previewImport } from "./catalog-csv.server.ts";
import { CSV_COLUMNS } from "./catalog-csv.ts";
import { insertProduct } from "./product-factory.server.ts";
import { stockMismatches } from "./stock.server.ts";

const HEADER = CSV_COLUMNS.join(",");

async function seed(executor: Parameters<typeof insertProduct>[0]) {
  await insertProduct(executor, {
    name: 'Blue "Quoted", Dream',
    category: "Flower",
    strain: "Hybrid",
    thcPercentage: 22.5,
    description: "Line one,\nline two",
    imageUrl: "https://images.example/test.jpg",
    sizes: [
      { size: "3.5g", priceCents: 4500, salePriceCents: 4000, inventoryCount: 12 },
      { size: "7g", priceCents: 8000, inventoryCount: 0 },
    ],
  });
  await insertProduct(executor, {
    name: "Gummies",
    category: "Edibles",
    thcMg: 100,
    isDeal: true,
    imageUrl: "https://images.example/gummies.jpg",
    sizes: [{ size: "10 pack", priceCents: 2500, inventoryCount: 30 }],
  });
}

describeEachDatabase("catalogue CSV", (database) => {
  it("exports the whole catalogue, and importing the export changes nothing", async () => {
    const { db } = database();
    await seed(db);
    const csv = await exportCatalogCsv();
    const records = parse(csv) as string[][];
    expect(records[0]).toEqual([...CSV_COLUMNS]);
    expect(records).toHaveLength(4);
    expect(records.find((record) => record[6] === "3.5g")?.slice(1, 14)).toEqual([
      'Blue "Quoted", Dream',
      "Flower",
      "Hybrid",
      "22.5%",
      "Line one,\nline two",
      "3.5g",
      "45.00",
      "40.00",
      "12",
      "3.5",
      "no",
      "no",
      "https://images.example/test.jpg",
    ]);
    const plan = await previewImport(csv);
    expect(plan).toMatchObject({
      fileError: null,
      rows: 3,
      create: [],
      update: [],
      unchanged: 3,
      invalid: [],
    });
    expect(plan.products).toBe(0);
    const version = (await db.select().from(catalogState))[0]?.version;
    expect(await applyImport(csv)).toEqual({ ok: true, products: 0, rows: 0 });
    expect((await db.select().from(catalogState))[0]?.version).toBe(version);
  });

  it("lists 3 bad rows by line and reason, and writes nothing even when asked to import", async () => {
    const { db } = database();
    await seed(db);
    const good = (await exportCatalogCsv()).trimEnd().split("\n");
    const lines = [
      HEADER,
      "NEW-1,Fresh Kush,Flower,Sativa,19%,A new one,1g,15.00,,5,1,no,no,https://images.example/a.jpg",
      "NEW-2,Fresh Kush,Flower,Sativa,19%,A new one,3.5g,abc,,5,3.5,no,no,https://images.example/a.jpg",
      "NEW-3,Odd,Tinctures,,,,1oz,10.00,,1,,no,no,https://images.example/b.jpg",
      "NEW-1,Fresh Kush,Flower,Sativa,19%,A new one,7g,50.00,,5,7,no,no,https://images.example/a.jpg",
    ];
    const csv = `${lines.join("\n")}\n`;
    const plan = await previewImport(csv);
    expect(plan.invalid).toEqual([
      { line: 3, sku: "NEW-2", reason: "Price must be an amount in dollars, e.g. 45.00" },
      { line: 4, sku: "NEW-3", reason: expect.stringContaining("Category must be one of") },
      { line: 5, sku: "NEW-1", reason: "SKU NEW-1 is also on line 2" },
    ]);
    expect(plan.create.map((row) => row.line)).toEqual([2]);
    const before = await db.select().from(products);
    const result = await applyImport(csv);
    expect(result.ok).toBe(false);
    expect(await db.select().from(products)).toHaveLength(before.length);
    expect(good.length).toBeGreaterThan(1);
  });

  it("creates, updates and moves stock as 'import' movements in one transaction; the ledger still adds up", async () => {
    const { db } = database();
    await seed(db);
    const exported = parse(await exportCatalogCsv()) as string[][];
    const header = exported[0] as string[];
    const rows = exported
      .slice(1)
      .map((record) => Object.fromEntries(header.map((h, i) => [h, record[i] ?? ""])));
    const gummies = rows.find((row) => row.name === "Gummies") as Record<string, string>;
    const blue = rows.find((row) => row.size === "3.5g") as Record<string, string>;
    gummies.stock = "41";
    blue.price = "47.50";
    const extra = { ...blue, sku: "BLUE-14G", size: "14g", price: "150.00", "sale price": "", stock: "3" };
    const fresh = {
      ...gummies,
      sku: "CHOC-1",
      name: "Chocolate Bar",
      "flower-equivalent grams": "",
      stock: "9",
    };
    const all: Record<string, string>[] = [...rows, extra, fresh];
    const csv = [header, ...all.map((row) => header.map((h) => row[h] ?? ""))]
      .map((record) =>
        record.map((value) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value)).join(","),
      )
      .join("\n");
    const plan = await previewImport(csv);
    expect(plan.invalid).toEqual([]);
    expect(plan.update.map((row) => row.changes.join("; ")).sort()).toEqual([
      "price $45.00 → $47.50",
      "stock 30 → 41",
    ]);
    expect(plan.create.map((row) => row.sku).sort()).toEqual(["BLUE-14G", "CHOC-1"]);
    expect(plan.products).toBe(3);
    expect(await applyImport(csv)).toEqual({ ok: true, products: 3, rows: 4 });

    const [choc] = await db.select().from(products).where(eq(products.name, "Chocolate Bar"));
    const [chocSize] = await db
      .select()
      .from(productSizes)
      .where(eq(productSizes.productId, choc?.id as string));
    expect(chocSize).toMatchObject({ sku: "CHOC-1", inventoryCount: 9, priceCents: 2500 });
    // Estimated from the shop's equivalences: 100 mg THC per unit.
    expect(chocSize?.flowerEquivalentMg).toBe(3500);
    const [blue14] = await db.select().from(productSizes).where(eq(productSizes.sku, "BLUE-14G"));
    expect(blue14).toMatchObject({ inventoryCount: 3, position: 2 });
    const imports = await db.select().from(stockMovements).where(eq(stockMovements.reason, "import"));
    expect(imports.map((move) => move.delta).sort((a, b) => a - b)).toEqual([3, 9, 11]);
    expect(await stockMismatches(db)).toEqual([]);
    // Importing the same file again changes nothing.
    const again = await previewImport(csv);
    expect({ ...again, invalid: again.invalid.length }).toMatchObject({
      rows: all.length,
      unchanged: all.length,
      invalid: 0,
    });
    expect(again.products).toBe(0);
  });

  it("refuses a file that is not the catalogue's CSV", async () => {
    expect((await previewImport("")).fileError).toBe("The file is empty.");
    expect((await previewImport("sku,name\nA,B\n")).fileError).toMatch(/^Missing columns: category, strain/);
    expect((await previewImport(`${HEADER},colour\n`)).fileError).toBe("Unknown column: colour.");
    expect((await previewImport(`${HEADER}\n"unclosed,\n`)).fileError).toMatch(/not valid CSV/);
  });
});
