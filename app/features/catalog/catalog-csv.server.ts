/**
 * CSV import and export of the catalogue (record 027). The import is planned first (a dry run that
 * reads the database and writes nothing), shown to the admin, then applied in one transaction that
 * plans again against the locked rows: products and sizes written in a few set-based statements,
 * stock moved through the ledger ('import', record 026), the catalogue-version triggers keeping the
 * page cache right.
 */
import { parse } from "csv-parse/sync";
import { and, inArray, isNull, sql } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import { productSizes, products } from "#app/db/schema.ts";
import { type AuditBy, recordAuditBy } from "#app/features/audit/audit.server.ts";
import { getPurchaseLimitSettings } from "#app/features/purchase-limits/purchase-limits.server.ts";
import { estimateFlowerEquivalentMg } from "#app/features/purchase-limits/purchase-limits.ts";
import { type CsvCell, csvLines } from "#app/utils/csv.ts";
import {
  CSV_COLUMNS,
  type CsvRow,
  MAX_CSV_ROWS,
  productFieldsOf,
  productKeyOf,
  REQUIRED_CSV_COLUMNS,
  readCsvRow,
  writeCsvRow,
} from "./catalog-csv.ts";
import { listAdminProducts } from "./product-admin.server.ts";
import { moveStock } from "./stock.server.ts";

export type InvalidRow = { line: number; sku: string; reason: string };
export type PlannedRow = { line: number; sku: string; name: string; size: string; changes: string[] };

export type ImportPlan = {
  /** A problem with the whole file (not CSV, missing columns, too many rows); nothing else is set. */
  fileError: string | null;
  rows: number;
  create: PlannedRow[];
  update: PlannedRow[];
  unchanged: number;
  invalid: InvalidRow[];
  /** Products that would be created or changed: the 'Import N products' of the button. */
  products: number;
};

type ExistingSize = {
  id: string;
  sku: string;
  productId: string;
  size: string;
  priceCents: number;
  salePriceCents: number | null;
  inventoryCount: number;
  flowerEquivalentMg: number | null;
  position: number;
};

type ExistingProduct = ReturnType<typeof productFieldsOf> & { id: string; archived: boolean };

type Group = {
  key: string;
  /** The product the rows go to; null: a new one. */
  productId: string | null;
  first: { line: number; row: CsvRow };
  rows: { line: number; row: CsvRow; size: ExistingSize | null }[];
};

type Plan = ImportPlan & { groups: Group[]; existingProducts: Map<string, ExistingProduct> };

const PRODUCT_FIELD_NAMES: Record<keyof ReturnType<typeof productFieldsOf>, string> = {
  name: "name",
  category: "category",
  strain: "strain",
  thcPercentage: "thc",
  thcMg: "thc",
  description: "description",
  isFeatured: "featured",
  isDeal: "deal",
  imageUrl: "image URL",
};

function emptyPlan(fileError: string | null): Plan {
  return {
    fileError,
    rows: 0,
    create: [],
    update: [],
    unchanged: 0,
    invalid: [],
    products: 0,
    groups: [],
    existingProducts: new Map(),
  };
}

type Parsed = { line: number; values: string[] };

/** The file's records with the line each starts on, or why it cannot be read. */
function readRecords(text: string): { header: string[]; records: Parsed[] } | { error: string } {
  let parsed: { record: string[]; raw: string; info: { lines: number } }[];
  try {
    parsed = parse(text, {
      bom: true,
      info: true,
      raw: true,
      relax_column_count: true,
      skip_empty_lines: true,
      to: MAX_CSV_ROWS + 2,
    }) as never;
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    return { error: `The file is not valid CSV${line ? ` (near line ${line})` : ""}.` };
  }
  const [head, ...rest] = parsed;
  if (!head) return { error: "The file is empty." };
  if (rest.length > MAX_CSV_ROWS) return { error: `The file has more than ${MAX_CSV_ROWS} rows.` };
  const records = rest.map((entry) => {
    const body = entry.raw.replace(/^[\r\n]+/, "").replace(/\r?\n$/, "");
    const newlines = body.match(/\n/g)?.length ?? 0;
    return { line: entry.info.lines - newlines, values: entry.record };
  });
  return { header: head.record.map((name) => name.trim()), records };
}

function changedFields(row: CsvRow, product: ExistingProduct): string[] {
  const fields = productFieldsOf(row);
  const changed = new Set<string>();
  for (const key of Object.keys(fields) as (keyof typeof fields)[]) {
    if (fields[key] !== product[key]) changed.add(PRODUCT_FIELD_NAMES[key]);
  }
  return [...changed];
}

function dollars(cents: number | null) {
  return cents === null ? "none" : `$${(cents / 100).toFixed(2)}`;
}

function sizeChanges(row: CsvRow, size: ExistingSize): string[] {
  const changes: string[] = [];
  if (row.size !== size.size) changes.push(`size ${size.size} → ${row.size}`);
  if (row.priceCents !== size.priceCents)
    changes.push(`price ${dollars(size.priceCents)} → ${dollars(row.priceCents)}`);
  if (row.salePriceCents !== size.salePriceCents)
    changes.push(`sale price ${dollars(size.salePriceCents)} → ${dollars(row.salePriceCents)}`);
  if (row.stock !== size.inventoryCount) changes.push(`stock ${size.inventoryCount} → ${row.stock}`);
  if (row.flowerEquivalentMg !== null && row.flowerEquivalentMg !== size.flowerEquivalentMg)
    changes.push("flower-equivalent grams");
  return changes;
}

async function loadExisting(executor: Executor, skus: string[], nameKeys: string[], lock: boolean) {
  const sizes: ExistingSize[] = [];
  for (let start = 0; start < skus.length; start += 1000) {
    const chunk = skus.slice(start, start + 1000);
    const query = executor
      .select({
        id: productSizes.id,
        sku: productSizes.sku,
        productId: productSizes.productId,
        size: productSizes.size,
        priceCents: productSizes.priceCents,
        salePriceCents: productSizes.salePriceCents,
        inventoryCount: productSizes.inventoryCount,
        flowerEquivalentMg: productSizes.flowerEquivalentMg,
        position: productSizes.position,
      })
      .from(productSizes)
      .where(
        sql`lower(${productSizes.sku}) = ANY(${sql.raw("ARRAY[")}${sql.join(
          chunk.map((sku) => sql`${sku}`),
          sql`, `,
        )}${sql.raw("]::text[]")})`,
      );
    sizes.push(...(await (lock ? query.for("update") : query)));
  }
  const productIds = [...new Set(sizes.map((size) => size.productId))];
  const productRows = [];
  const columns = {
    id: products.id,
    name: products.name,
    category: products.category,
    strain: products.strain,
    thcPercentage: products.thcPercentage,
    thcMg: products.thcMg,
    description: products.description,
    isFeatured: products.isFeatured,
    isDeal: products.isDeal,
    imageUrl: products.imageUrl,
    archivedAt: products.archivedAt,
  };
  for (let start = 0; start < productIds.length; start += 1000) {
    const query = executor
      .select(columns)
      .from(products)
      .where(inArray(products.id, productIds.slice(start, start + 1000)));
    productRows.push(...(await (lock ? query.for("update") : query)));
  }
  // Products a new SKU may join by name and category (record 027).
  for (let start = 0; start < nameKeys.length; start += 1000) {
    const names = nameKeys.slice(start, start + 1000);
    const query = executor
      .select(columns)
      .from(products)
      .where(
        and(
          isNull(products.archivedAt),
          sql`lower(${products.name}) = ANY(${sql.raw("ARRAY[")}${sql.join(
            names.map((name) => sql`${name}`),
            sql`, `,
          )}${sql.raw("]::text[]")})`,
        ),
      );
    productRows.push(...(await (lock ? query.for("update") : query)));
  }
  const existingProducts = new Map<string, ExistingProduct>();
  for (const { archivedAt, ...row } of productRows) {
    existingProducts.set(row.id, { ...row, archived: archivedAt !== null });
  }
  return { sizes, existingProducts };
}

/** The dry run: what importing `text` would do to the catalogue, read from `executor`. */
async function plan(executor: Executor, text: string, lock: boolean): Promise<Plan> {
  const read = readRecords(text);
  if ("error" in read) return emptyPlan(read.error);
  const missing = REQUIRED_CSV_COLUMNS.filter((column) => !read.header.includes(column));
  if (missing.length > 0)
    return emptyPlan(`Missing column${missing.length === 1 ? "" : "s"}: ${missing.join(", ")}.`);
  const unknown = read.header.filter((column) => !(CSV_COLUMNS as readonly string[]).includes(column));
  if (unknown.length > 0)
    return emptyPlan(`Unknown column${unknown.length === 1 ? "" : "s"}: ${unknown.join(", ")}.`);

  const result = emptyPlan(null);
  result.rows = read.records.length;
  const valid: { line: number; row: CsvRow }[] = [];
  const skuLines = new Map<string, number>();
  for (const record of read.records) {
    const fields = Object.fromEntries(read.header.map((column, index) => [column, record.values[index]]));
    const sku = (fields.sku ?? "").trim();
    if (record.values.length !== read.header.length) {
      result.invalid.push({
        line: record.line,
        sku,
        reason: `Expected ${read.header.length} values, found ${record.values.length}`,
      });
      continue;
    }
    const checked = readCsvRow(fields);
    if (!checked.ok) {
      result.invalid.push({ line: record.line, sku, reason: checked.reason });
      continue;
    }
    const seen = skuLines.get(sku.toLowerCase());
    if (seen !== undefined) {
      result.invalid.push({ line: record.line, sku, reason: `SKU ${sku} is also on line ${seen}` });
      continue;
    }
    skuLines.set(sku.toLowerCase(), record.line);
    valid.push({ line: record.line, row: checked.row });
  }

  const { sizes, existingProducts } = await loadExisting(
    executor,
    valid.map(({ row }) => row.sku.toLowerCase()),
    [...new Set(valid.map(({ row }) => row.name.toLowerCase()))],
    lock,
  );
  result.existingProducts = existingProducts;
  const sizeBySku = new Map(sizes.map((size) => [size.sku.toLowerCase(), size]));
  // A new SKU joins the product its name and category name in this file, else in the shop.
  const productByName = new Map<string, string>();
  for (const { row } of valid) {
    const size = sizeBySku.get(row.sku.toLowerCase());
    if (size && !productByName.has(productKeyOf(row))) productByName.set(productKeyOf(row), size.productId);
  }
  for (const product of existingProducts.values()) {
    if (!product.archived && !productByName.has(productKeyOf(product)))
      productByName.set(productKeyOf(product), product.id);
  }

  const groups = new Map<string, Group>();
  for (const entry of valid) {
    const size = sizeBySku.get(entry.row.sku.toLowerCase()) ?? null;
    if (size && existingProducts.get(size.productId)?.archived) {
      result.invalid.push({
        line: entry.line,
        sku: entry.row.sku,
        reason: `SKU ${entry.row.sku} belongs to a deleted product`,
      });
      continue;
    }
    const productId = size?.productId ?? productByName.get(productKeyOf(entry.row)) ?? null;
    const key = productId ? `product:${productId}` : `new:${productKeyOf(entry.row)}`;
    let group = groups.get(key);
    if (!group) {
      group = { key, productId, first: entry, rows: [] };
      groups.set(key, group);
    }
    const differs = Object.entries(productFieldsOf(entry.row))
      .filter(
        ([field, value]) =>
          productFieldsOf(group.first.row)[field as keyof ReturnType<typeof productFieldsOf>] !== value,
      )
      .map(([field]) => PRODUCT_FIELD_NAMES[field as keyof typeof PRODUCT_FIELD_NAMES]);
    if (differs.length > 0) {
      result.invalid.push({
        line: entry.line,
        sku: entry.row.sku,
        reason: `The product's ${[...new Set(differs)].join(", ")} differ${differs.length === 1 ? "s" : ""} from line ${group.first.line}: rows of one product must agree`,
      });
      continue;
    }
    group.rows.push({ ...entry, size });
  }

  for (const group of groups.values()) {
    const product = group.productId ? existingProducts.get(group.productId) : undefined;
    const productChanges = product ? changedFields(group.first.row, product) : [];
    let touched = false;
    for (const [index, { line, row, size }] of group.rows.entries()) {
      const planned = { line, sku: row.sku, name: row.name, size: row.size };
      if (!size) {
        result.create.push({
          ...planned,
          changes: [product ? `new size of ${product.name}` : "new product"],
        });
        touched = true;
        continue;
      }
      const changes = [...(index === 0 ? productChanges : []), ...sizeChanges(row, size)];
      if (changes.length === 0) result.unchanged += 1;
      else {
        result.update.push({ ...planned, changes });
        touched = true;
      }
    }
    if (touched) result.products += 1;
  }
  result.groups = [...groups.values()];
  result.invalid.sort((a, b) => a.line - b.line);
  return result;
}

function publicPlan({ groups: _groups, existingProducts: _existing, ...rest }: Plan): ImportPlan {
  return rest;
}

/** The dry run shown before anything is written. */
export async function previewImport(text: string): Promise<ImportPlan> {
  return publicPlan(await plan(await db(), text, false));
}

export type ImportResult = { ok: true; products: number; rows: number } | { ok: false; plan: ImportPlan };

/**
 * Imports the file in one transaction, planned again against the locked rows: refused (nothing
 * written) when any row is invalid now.
 */
export async function applyImport(
  text: string,
  options: { actorId?: string | null; now?: Date; audit?: AuditBy } = {},
): Promise<ImportResult> {
  const now = options.now ?? new Date();
  const database = await db();
  const { equivalences } = await getPurchaseLimitSettings(database);
  return database.transaction(async (tx) => {
    const planned = await plan(tx, text, true);
    if (planned.fileError || planned.invalid.length > 0)
      return { ok: false as const, plan: publicPlan(planned) };

    const moves: { sizeId: string; delta: number }[] = [];
    const sizeUpdates: Record<string, unknown>[] = [];
    const productUpdates: Record<string, unknown>[] = [];
    const newSizes: (typeof productSizes.$inferInsert)[] = [];
    const newProducts: { group: Group }[] = [];
    const positions = new Map<string, number>();
    if (planned.groups.some((group) => group.productId)) {
      const ids = planned.groups.flatMap((group) => (group.productId ? [group.productId] : []));
      for (let start = 0; start < ids.length; start += 1000) {
        const rows = await tx
          .select({ productId: productSizes.productId, last: sql<number>`max(${productSizes.position})` })
          .from(productSizes)
          .where(inArray(productSizes.productId, ids.slice(start, start + 1000)))
          .groupBy(productSizes.productId);
        for (const row of rows) positions.set(row.productId, Number(row.last) + 1);
      }
    }

    const sizeOf = (group: Group, row: CsvRow, productId: string) => {
      const position = positions.get(productId) ?? 0;
      positions.set(productId, position + 1);
      return {
        productId,
        sku: row.sku,
        size: row.size,
        priceCents: row.priceCents,
        salePriceCents: row.salePriceCents,
        inventoryCount: 0,
        position,
        flowerEquivalentMg:
          row.flowerEquivalentMg ??
          estimateFlowerEquivalentMg(
            {
              category: row.category,
              thcMg: row.thcMg,
              sizeLabel: row.size,
              productSizeLabels: group.rows.map((entry) => entry.row.size),
            },
            equivalences,
          ),
      };
    };

    for (const group of planned.groups) {
      if (!group.productId) {
        newProducts.push({ group });
        continue;
      }
      const product = planned.existingProducts.get(group.productId) as ExistingProduct;
      let changed = changedFields(group.first.row, product).length > 0;
      for (const { row, size } of group.rows) {
        if (!size) {
          newSizes.push(sizeOf(group, row, group.productId));
          changed = true;
          continue;
        }
        const own = sizeChanges(row, size);
        if (own.some((change) => !change.startsWith("stock "))) {
          sizeUpdates.push({
            id: size.id,
            size: row.size,
            price_cents: row.priceCents,
            sale_price_cents: row.salePriceCents,
            flower_equivalent_mg: row.flowerEquivalentMg ?? size.flowerEquivalentMg,
          });
          changed = true;
        }
        if (row.stock !== size.inventoryCount)
          moves.push({ sizeId: size.id, delta: row.stock - size.inventoryCount });
      }
      if (changed) productUpdates.push({ id: group.productId, ...productJson(group.first.row) });
    }

    for (let start = 0; start < newProducts.length; start += 500) {
      const chunk = newProducts.slice(start, start + 500);
      const inserted = await tx
        .insert(products)
        .values(
          chunk.map(({ group }) => ({ ...productFieldsOf(group.first.row), createdAt: now, updatedAt: now })),
        )
        .returning({ id: products.id });
      chunk.forEach(({ group }, index) => {
        const id = (inserted[index] as { id: string }).id;
        for (const { row } of group.rows) newSizes.push(sizeOf(group, row, id));
      });
    }
    for (let start = 0; start < productUpdates.length; start += 1000) {
      await tx.execute(sql`UPDATE products AS p SET name = j.name, category = j.category, strain = j.strain,
          thc_percentage = j.thc_percentage, thc_mg = j.thc_mg, description = j.description,
          is_featured = j.is_featured, is_deal = j.is_deal, image_url = j.image_url,
          version = p.version + 1, updated_at = ${now.toISOString()}::timestamptz
        FROM jsonb_to_recordset(${JSON.stringify(productUpdates.slice(start, start + 1000))}::jsonb)
          AS j(id uuid, name text, category text, strain text, thc_percentage double precision,
            thc_mg double precision, description text, is_featured boolean, is_deal boolean, image_url text)
        WHERE p.id = j.id`);
    }
    for (let start = 0; start < sizeUpdates.length; start += 1000) {
      await tx.execute(sql`UPDATE product_sizes AS s SET size = j.size, price_cents = j.price_cents,
          sale_price_cents = j.sale_price_cents, flower_equivalent_mg = j.flower_equivalent_mg
        FROM jsonb_to_recordset(${JSON.stringify(sizeUpdates.slice(start, start + 1000))}::jsonb)
          AS j(id uuid, size text, price_cents integer, sale_price_cents integer, flower_equivalent_mg integer)
        WHERE s.id = j.id`);
    }
    const rowBySku = new Map(
      planned.groups.flatMap((group) => group.rows.map(({ row }) => [row.sku.toLowerCase(), row] as const)),
    );
    for (let start = 0; start < newSizes.length; start += 1000) {
      const inserted = await tx
        .insert(productSizes)
        .values(newSizes.slice(start, start + 1000))
        .returning({ id: productSizes.id, sku: productSizes.sku });
      for (const size of inserted) {
        const stock = rowBySku.get(size.sku.toLowerCase())?.stock ?? 0;
        if (stock > 0) moves.push({ sizeId: size.id, delta: stock });
      }
    }
    await moveStock(
      tx,
      moves.map((move) => ({ ...move, reason: "import" as const, note: "CSV import" })),
      { actorId: options.actorId ?? null, now },
    );
    await recordAuditBy(tx, options.audit, {
      action: "catalogue.imported",
      targetType: "catalogue",
      details: {
        products: planned.products,
        created: planned.create
          .map((row) => ({ sku: row.sku, name: row.name, size: row.size }))
          .slice(0, 200),
        updated: planned.update.map((row) => ({ sku: row.sku, changes: row.changes })).slice(0, 200),
      },
    });
    return {
      ok: true as const,
      products: planned.products,
      rows: planned.create.length + planned.update.length,
    };
  });
}

/** The product-level fields of a row with the columns' names, for `jsonb_to_recordset`. */
function productJson(row: CsvRow) {
  return Object.fromEntries(
    Object.entries(productFieldsOf(row)).map(([field, value]) => [
      field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
      value,
    ]),
  );
}

/** The whole catalogue (products not deleted), one row per size, in the import's format. */
export async function exportCatalogCsv(): Promise<string> {
  const list = await listAdminProducts();
  const records: CsvCell[][] = [[...CSV_COLUMNS]];
  for (const product of list) {
    for (const size of product.sizes) {
      records.push(
        writeCsvRow({
          sku: size.sku,
          name: product.name,
          category: product.category,
          strain: product.strain,
          thcPercentage: product.thcPercentage,
          thcMg: product.thcMg,
          description: product.description,
          size: size.size,
          priceCents: size.priceCents,
          salePriceCents: size.salePriceCents,
          stock: size.inventoryCount,
          flowerEquivalentMg: size.flowerEquivalentMg,
          isFeatured: product.isFeatured,
          isDeal: product.isDeal,
          imageUrl: product.imageUrl,
        }),
      );
    }
  }
  return csvLines(records);
}
