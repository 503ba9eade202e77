/**
 * Creates products with their sizes. The demo seed and the tests share it, so demo data and test
 * data cannot drift apart.
 */
import { randomUUID } from "node:crypto";
import type { Executor } from "#app/db/client.server.ts";
import { productSizes, products, stockMovements } from "#app/db/schema.ts";
import {
  DEFAULT_PURCHASE_LIMITS,
  estimateFlowerEquivalentMg,
} from "#app/features/purchase-limits/purchase-limits.ts";

export type ProductRow = typeof products.$inferSelect;
export type ProductSizeRow = typeof productSizes.$inferSelect;
export type ProductWithSizes = ProductRow & { sizes: ProductSizeRow[] };

export type SizeInput = {
  size: string;
  priceCents: number;
  salePriceCents?: number | null;
  inventoryCount?: number;
  /** Flower equivalent of one unit; default: what the label gives with the default equivalences. */
  flowerEquivalentMg?: number;
};

export type ProductInput = Partial<Omit<typeof products.$inferInsert, "id">> & {
  id?: string;
  /** In display order; defaults to one size that suits the category. */
  sizes?: SizeInput[];
};

const DEFAULT_SIZE: Record<string, SizeInput> = {
  Flower: { size: "3.5g", priceCents: 4500, inventoryCount: 20 },
  Edibles: { size: "10 pack", priceCents: 2500, inventoryCount: 20 },
  "Pre Rolls": { size: "1g joint", priceCents: 1200, inventoryCount: 20 },
  Cartridges: { size: "1g", priceCents: 6000, inventoryCount: 20 },
  Concentrates: { size: "1g", priceCents: 5000, inventoryCount: 20 },
  Mushrooms: { size: "3.5g", priceCents: 4000, inventoryCount: 20 },
};

let sequence = 0;

function withDefaults(input: ProductInput) {
  sequence += 1;
  const category = input.category ?? "Flower";
  const isFlower = category === "Flower";
  const { sizes, ...fields } = input;
  const product = {
    ...fields,
    id: input.id ?? randomUUID(),
    name: input.name ?? `Test ${category} ${sequence}`,
    description: input.description ?? `A ${category.toLowerCase()} product for testing.`,
    category,
    strain: "strain" in input ? (input.strain ?? null) : category === "Mushrooms" ? null : "Hybrid",
    thcPercentage: "thcPercentage" in input ? (input.thcPercentage ?? null) : isFlower ? 22 : null,
    thcMg: "thcMg" in input ? (input.thcMg ?? null) : isFlower || category === "Mushrooms" ? null : 100,
  } satisfies typeof products.$inferInsert;
  const sizeList = sizes ?? [
    DEFAULT_SIZE[category] ?? { size: "Single", priceCents: 2000, inventoryCount: 20 },
  ];
  return {
    product,
    sizes: sizeList.map((size, position) => ({
      id: randomUUID(),
      productId: product.id,
      size: size.size,
      priceCents: size.priceCents,
      salePriceCents: size.salePriceCents ?? null,
      inventoryCount: size.inventoryCount ?? 20,
      flowerEquivalentMg:
        size.flowerEquivalentMg ??
        estimateFlowerEquivalentMg(
          {
            category,
            thcMg: product.thcMg,
            sizeLabel: size.size,
            productSizeLabels: sizeList.map((entry) => entry.size),
          },
          DEFAULT_PURCHASE_LIMITS.equivalences,
        ),
      position,
    })),
  };
}

/** Stays well under PostgreSQL's 65,535 bind parameters per statement. */
const CHUNK = 1000;

function chunks<T>(items: T[]) {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += CHUNK) result.push(items.slice(start, start + CHUNK));
  return result;
}

/**
 * Inserts many products and their sizes with a few multi-row statements. Pass a transaction to
 * make it all-or-nothing. Returns the products in input order, each with its sizes by position.
 */
export async function insertProducts(
  executor: Executor,
  inputs: ProductInput[],
): Promise<ProductWithSizes[]> {
  if (inputs.length === 0) return [];
  const prepared = inputs.map(withDefaults);
  const productRows: ProductRow[] = [];
  for (const chunk of chunks(prepared.map((entry) => entry.product))) {
    productRows.push(...(await executor.insert(products).values(chunk).returning()));
  }
  const sizeRows: ProductSizeRow[] = [];
  for (const chunk of chunks(prepared.flatMap((entry) => entry.sizes))) {
    sizeRows.push(...(await executor.insert(productSizes).values(chunk).returning()));
  }
  // The opening 'received' movement of each stocked size: stock equals the sum of its ledger (record 026).
  for (const chunk of chunks(sizeRows.filter((size) => size.inventoryCount !== 0))) {
    await executor.insert(stockMovements).values(
      chunk.map((size) => ({
        sizeId: size.id,
        delta: size.inventoryCount,
        reason: "received" as const,
        note: "Opening stock",
      })),
    );
  }
  const productsById = new Map(productRows.map((row) => [row.id, row]));
  const sizesByProduct = new Map<string, ProductSizeRow[]>();
  for (const size of sizeRows) {
    const list = sizesByProduct.get(size.productId) ?? [];
    list.push(size);
    sizesByProduct.set(size.productId, list);
  }
  return prepared.map(({ product }) => ({
    ...(productsById.get(product.id) as ProductRow),
    sizes: (sizesByProduct.get(product.id) ?? []).sort((a, b) => a.position - b.position),
  }));
}

/**
 * Inserts one product with its sizes, filling in sensible defaults:
 * `insertProduct(db, { category: "Edibles", sizes: [{ size: "10 pack", priceCents: 2500, inventoryCount: 3 }] })`.
 */
export async function insertProduct(
  executor: Executor,
  overrides: ProductInput = {},
): Promise<ProductWithSizes> {
  const [created] = await insertProducts(executor, [overrides]);
  return created as ProductWithSizes;
}
