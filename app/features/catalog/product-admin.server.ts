/**
 * Product writes and the admin list (K-4 'Product form' / 'Product deletion', K-7 'Product
 * writes'; P-15). Catalogue pages see every change at once: the catalogue-version triggers
 * on products and product_sizes mark cached pages stale in the same transaction.
 */
import { and, eq, inArray, isNotNull, isNull, notInArray, sql } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import { orderItems, productSizes, products } from "#app/db/schema.ts";
import { type AuditBy, recordAuditBy } from "#app/features/audit/audit.server.ts";
import { formatGrams } from "#app/features/purchase-limits/purchase-limits.ts";
import { attachSizes, NEWEST_FIRST } from "./catalog.server.ts";
import { canonicalCategory, type ProductFields } from "./catalog.ts";
import { productFieldsOf } from "./catalog-csv.ts";
import {
  dollarsToCentsNumber,
  fieldErrorsOf,
  namedFieldsToPayload,
  type ProductFormData,
  type ProductFormValues,
  productFormSchema,
  SKU_TAKEN,
  submittedFormValues,
} from "./product.schema.ts";
import { moveStock, StockBelowZero, type StockMove } from "./stock.server.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A size with this many or fewer units left is shown as low stock in the admin list. */
export { LOW_STOCK_THRESHOLD } from "./catalog.ts";

export type AdminProductSize = {
  id: string;
  sku: string;
  size: string;
  priceCents: number;
  salePriceCents: number | null;
  inventoryCount: number;
  flowerEquivalentMg: number | null;
  lowStockThreshold: number;
};

export type AdminProduct = ProductFields & {
  version: number;
  /** ISO time it was archived (hidden from the shop), or null. */
  archivedAt: string | null;
  sizes: AdminProductSize[];
};

async function withSizes(
  executor: Executor,
  rows: (typeof products.$inferSelect)[],
): Promise<AdminProduct[]> {
  const versions = new Map(rows.map((row) => [row.id, row.version]));
  const archived = new Map(rows.map((row) => [row.id, row.archivedAt?.toISOString() ?? null]));
  const listed = await attachSizes(executor, rows, (size) => ({
    id: size.id,
    sku: size.sku,
    size: size.size,
    priceCents: size.priceCents,
    salePriceCents: size.salePriceCents,
    inventoryCount: size.inventoryCount,
    flowerEquivalentMg: size.flowerEquivalentMg,
    lowStockThreshold: size.lowStockThreshold,
  }));
  return listed.map((product) => ({
    ...product,
    version: versions.get(product.id) ?? 1,
    archivedAt: archived.get(product.id) ?? null,
  }));
}

/**
 * Every product not archived, newest first, with sizes and stock; with
 * `archived`, the archived ones instead.
 */
export async function listAdminProducts(
  executor?: Executor,
  options: { archived?: boolean } = {},
): Promise<AdminProduct[]> {
  const database = executor ?? (await db());
  const rows = await database
    .select()
    .from(products)
    .where(options.archived ? isNotNull(products.archivedAt) : isNull(products.archivedAt))
    .orderBy(...NEWEST_FIRST);
  return withSizes(database, rows);
}

/** The product to edit, or null when it does not exist or was archived. */
export async function getAdminProduct(id: string, executor?: Executor): Promise<AdminProduct | null> {
  if (!UUID.test(id)) return null;
  const database = executor ?? (await db());
  const rows = await database
    .select()
    .from(products)
    .where(and(eq(products.id, id), isNull(products.archivedAt)))
    .limit(1);
  const [product] = await withSizes(database, rows);
  return product ?? null;
}

/** The edit form's starting values. */
export function toFormValues(product: AdminProduct): ProductFormValues {
  const dollars = (cents: number) => (cents / 100).toFixed(2);
  return {
    name: product.name,
    description: product.description,
    category: canonicalCategory(product.category) ?? "",
    strain: product.strain ?? "",
    thcPercentage: product.thcPercentage === null ? "" : String(product.thcPercentage),
    thcMg: product.thcMg === null ? "" : String(product.thcMg),
    imageUrl: product.imageUrl,
    imageKey: product.imageKey ?? "",
    isFeatured: product.isFeatured,
    isDeal: product.isDeal,
    version: String(product.version),
    sizes: product.sizes.map((size) => ({
      id: size.id,
      key: size.id,
      size: size.size,
      sku: size.sku,
      price: dollars(size.priceCents),
      salePrice: size.salePriceCents === null ? "" : dollars(size.salePriceCents),
      inventoryCount: String(size.inventoryCount),
      received: "",
      correction: "",
      stockNote: "",
      flowerEquivalent: size.flowerEquivalentMg === null ? "" : formatGrams(size.flowerEquivalentMg),
      lowStockThreshold: String(size.lowStockThreshold),
    })),
  };
}

function productColumns(input: ProductFormData) {
  return { ...productFieldsOf(input), imageKey: input.imageKey };
}

/** A size's columns as the form writes them: never its stock (record 026). */
function sizeColumns(size: ProductFormData["sizes"][number], position: number) {
  return {
    size: size.size,
    priceCents: dollarsToCentsNumber(size.price),
    salePriceCents:
      size.salePrice === null || size.salePrice === undefined ? null : dollarsToCentsNumber(size.salePrice),
    flowerEquivalentMg: size.flowerEquivalent,
    lowStockThreshold: size.lowStockThreshold,
    position,
    ...(size.sku ? { sku: size.sku } : {}),
  };
}

export type ProductWriteOptions = {
  now?: Date;
  actorId?: string | null;
  /** Recorded in the audit log with the change (P-27). */
  audit?: AuditBy;
};

/** The audit events of a saved product form: its stock moves (received, correction) by size. */
async function auditStockMoves(
  tx: Executor,
  options: ProductWriteOptions,
  productId: string,
  input: ProductFormData,
  moves: ReturnType<typeof formMoves>,
) {
  if (moves.length === 0) return;
  const label = new Map(input.sizes.map((size, index) => [index, size.size]));
  await recordAuditBy(tx, options.audit, {
    action: "stock.changed",
    targetType: "product",
    targetId: productId,
    details: {
      moves: moves.map((move) => ({
        size: label.get(Number(move.field.split(".")[1])) ?? "",
        reason: move.reason,
        delta: move.delta,
      })),
    },
  });
}

export type ProductWriteResult =
  | { ok: true; id: string }
  | { ok: false; reason: "not-found" }
  | { ok: false; reason: "conflict" }
  | { ok: false; reason: "stock" | "sku"; fieldErrors: Record<string, string> };

/** Rolls the transaction back with a result for the caller. */
class Refused extends Error {
  readonly result: ProductWriteResult;
  constructor(result: ProductWriteResult) {
    super("refused");
    this.result = result;
  }
}

/** The moves a saved form asks for, and the form field each belongs to (for a refusal's message). */
function formMoves(input: ProductFormData, sizeIds: readonly string[], fresh: ReadonlySet<number>) {
  const moves: (StockMove & { field: string })[] = [];
  for (const [index, size] of input.sizes.entries()) {
    const sizeId = sizeIds[index] as string;
    const note = size.stockNote || null;
    if (fresh.has(index)) {
      moves.push({
        sizeId,
        delta: size.inventoryCount,
        reason: "received",
        note: note ?? "Opening stock",
        field: `sizes.${index}.inventoryCount`,
      });
      continue;
    }
    moves.push({ sizeId, delta: size.received, reason: "received", note, field: `sizes.${index}.received` });
    moves.push({
      sizeId,
      delta: size.correction,
      reason: "correction",
      note,
      field: `sizes.${index}.correction`,
    });
  }
  return moves.filter((move) => move.delta !== 0);
}

async function applyFormMoves(
  tx: Executor,
  moves: ReturnType<typeof formMoves>,
  options: ProductWriteOptions,
): Promise<void> {
  try {
    await moveStock(tx, moves, { actorId: options.actorId ?? null, now: options.now });
  } catch (error) {
    if (!(error instanceof StockBelowZero)) throw error;
    const move = moves.find((candidate) => candidate.sizeId === error.sizeId && candidate.delta < 0);
    throw new Refused({
      ok: false,
      reason: "stock",
      fieldErrors: {
        [move?.field ?? "form"]:
          `Only ${error.onHand} in stock: a correction can take at most ${error.onHand}`,
      },
    });
  }
}

/** A save whose SKU another size already has (case aside): the form shows it at the field. */
export class SkuTaken extends Error {
  readonly fieldErrors: Record<string, string>;
  constructor(fieldErrors: Record<string, string>) {
    super("sku taken");
    this.fieldErrors = fieldErrors;
  }
}

/**
 * The SKU fields that another size (of any product, or of this form) already has. The unique index
 * on lower(sku) is the last word; this names the field before it would answer with an error.
 */
async function skuConflicts(tx: Executor, input: ProductFormData): Promise<Record<string, string> | null> {
  const typed = input.sizes.flatMap((size, index) =>
    size.sku ? [{ index, sku: size.sku, id: size.id }] : [],
  );
  if (typed.length === 0) return null;
  const taken = await tx
    .select({ id: productSizes.id, sku: sql<string>`lower(${productSizes.sku})` })
    .from(productSizes)
    .where(
      inArray(
        sql`lower(${productSizes.sku})`,
        typed.map((size) => size.sku.toLowerCase()),
      ),
    );
  const errors: Record<string, string> = {};
  const seen = new Set<string>();
  for (const size of typed) {
    const key = size.sku.toLowerCase();
    const holder = taken.find((row) => row.sku === key);
    if ((holder && holder.id !== size.id) || seen.has(key)) errors[`sizes.${size.index}.sku`] = SKU_TAKEN;
    seen.add(key);
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

async function refusable(work: () => Promise<ProductWriteResult>): Promise<ProductWriteResult> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Refused) return error.result;
    throw error;
  }
}

/**
 * Inserts the product, then its sizes with no stock, then each size's opening stock as a
 * 'received' movement, in one transaction.
 */
export async function createProduct(
  input: ProductFormData,
  options: ProductWriteOptions = {},
): Promise<{ ok: true; id: string }> {
  const now = options.now ?? new Date();
  const database = await db();
  return database.transaction(async (tx) => {
    const skuErrors = await skuConflicts(tx, input);
    if (skuErrors) throw new SkuTaken(skuErrors);
    const [created] = await tx
      .insert(products)
      .values({ ...productColumns(input), createdAt: now, updatedAt: now })
      .returning({ id: products.id });
    const id = (created as { id: string }).id;
    const sizes = await tx
      .insert(productSizes)
      .values(input.sizes.map((size, index) => ({ productId: id, ...sizeColumns(size, index) })))
      .returning({ id: productSizes.id, position: productSizes.position });
    const ids = sizes.sort((a, b) => a.position - b.position).map((size) => size.id);
    const all = new Set(input.sizes.map((_, index) => index));
    // Opening stock only adds: it cannot be refused.
    const moves = formMoves(input, ids, all);
    await applyFormMoves(tx, moves, { ...options, now });
    await recordAuditBy(tx, options.audit, {
      action: "product.created",
      targetType: "product",
      targetId: id,
      details: {
        name: input.name,
        prices: input.sizes.map((size) => ({ size: size.size, to: dollarsToCentsNumber(size.price) })),
      },
    });
    await auditStockMoves(tx, options, id, input, moves);
    return { ok: true as const, id };
  });
}

/**
 * Updates the product and replaces its sizes with the submitted list (K-4), unless the product
 * changed since the form loaded it (`input.version`, record 026). Sizes that keep their id are
 * updated in place, so carts and past orders stay linked to them; removed sizes are deleted (their
 * order items keep the name, size and price snapshot and lose only the link). Stock is never
 * written as a figure: an order placed meanwhile keeps its units; 'Received' and 'Correction' are
 * movements.
 */
export async function updateProduct(
  id: string,
  input: ProductFormData,
  options: ProductWriteOptions = {},
): Promise<ProductWriteResult> {
  if (!UUID.test(id)) return { ok: false, reason: "not-found" };
  const now = options.now ?? new Date();
  const database = await db();
  return refusable(() =>
    database.transaction(async (tx) => {
      const [updated] = await tx
        .update(products)
        .set({ ...productColumns(input), version: sql`${products.version} + 1`, updatedAt: now })
        .where(
          and(
            eq(products.id, id),
            isNull(products.archivedAt),
            input.version === undefined ? undefined : eq(products.version, input.version),
          ),
        )
        .returning({ id: products.id });
      if (!updated) {
        const [exists] = await tx
          .select({ id: products.id })
          .from(products)
          .where(and(eq(products.id, id), isNull(products.archivedAt)));
        return { ok: false as const, reason: exists ? ("conflict" as const) : ("not-found" as const) };
      }
      const skuErrors = await skuConflicts(tx, input);
      if (skuErrors) throw new Refused({ ok: false, reason: "sku", fieldErrors: skuErrors });
      const existing = await tx
        .select({ id: productSizes.id, size: productSizes.size, priceCents: productSizes.priceCents })
        .from(productSizes)
        .where(eq(productSizes.productId, id));
      const existingIds = new Set(existing.map((row) => row.id));
      const keptIds = input.sizes.flatMap((size) => (size.id && existingIds.has(size.id) ? [size.id] : []));
      await tx
        .delete(productSizes)
        .where(
          keptIds.length
            ? and(eq(productSizes.productId, id), notInArray(productSizes.id, keptIds))
            : eq(productSizes.productId, id),
        );
      const ids: string[] = [];
      const fresh = new Set<number>();
      for (const [index, size] of input.sizes.entries()) {
        if (size.id && existingIds.has(size.id)) {
          await tx
            .update(productSizes)
            .set(sizeColumns(size, index))
            .where(and(eq(productSizes.id, size.id), eq(productSizes.productId, id)));
          ids.push(size.id);
        } else {
          const [inserted] = await tx
            .insert(productSizes)
            .values({ productId: id, ...sizeColumns(size, index) })
            .returning({ id: productSizes.id });
          ids.push((inserted as { id: string }).id);
          fresh.add(index);
        }
      }
      const moves = formMoves(input, ids, fresh);
      await applyFormMoves(tx, moves, { ...options, now });
      const before = new Map(existing.map((row) => [row.id, row]));
      const prices = input.sizes.flatMap((size) => {
        const old = size.id ? before.get(size.id) : undefined;
        const to = dollarsToCentsNumber(size.price);
        return old?.priceCents === to ? [] : [{ size: size.size, from: old?.priceCents ?? null, to }];
      });
      const removed = existing.filter((row) => !keptIds.includes(row.id)).map((row) => row.size);
      await recordAuditBy(tx, options.audit, {
        action: "product.updated",
        targetType: "product",
        targetId: id,
        details: { name: input.name, ...(removed.length ? { removedSizes: removed } : {}) },
      });
      if (prices.length > 0) {
        await recordAuditBy(tx, options.audit, {
          action: "product.price_changed",
          targetType: "product",
          targetId: id,
          details: { name: input.name, prices },
        });
      }
      await auditStockMoves(tx, options, id, input, moves);
      return { ok: true as const, id };
    }),
  );
}

export type DeleteOutcome = { outcome: "deleted" | "archived" } | { outcome: "not-found" };

/**
 * P-15: a product that appears in past orders is archived (hidden from the shop and the
 * admin list, order history intact); any other product loses its sizes, then itself.
 */
export async function deleteOrArchiveProduct(
  id: string,
  options: { now?: Date; audit?: AuditBy } = {},
): Promise<DeleteOutcome> {
  if (!UUID.test(id)) return { outcome: "not-found" };
  const now = options.now ?? new Date();
  const database = await db();
  return database.transaction(async (tx) => {
    const [product] = await tx
      .select({ id: products.id, name: products.name })
      .from(products)
      .where(and(eq(products.id, id), isNull(products.archivedAt)))
      .for("update");
    if (!product) return { outcome: "not-found" } as const;
    const audit = (outcome: "deleted" | "archived") =>
      recordAuditBy(tx, options.audit, {
        action: "product.deleted",
        targetType: "product",
        targetId: id,
        details: { name: product.name, outcome },
      });
    const [ordered] = await tx
      .select({ one: sql<number>`1` })
      .from(orderItems)
      .where(eq(orderItems.productId, id))
      .limit(1);
    if (ordered) {
      await tx
        .update(products)
        .set({ archivedAt: now, isFeatured: false, isDeal: false, updatedAt: now })
        .where(eq(products.id, id));
      await audit("archived");
      return { outcome: "archived" } as const;
    }
    await tx.delete(productSizes).where(eq(productSizes.productId, id));
    await tx.delete(products).where(eq(products.id, id));
    await audit("deleted");
    return { outcome: "deleted" } as const;
  });
}

/**
 * Archive: the product leaves the shop and the list of products on sale (kept for past orders and
 * for restoring); nothing is deleted. Restore brings it back as it was (not featured, no deal).
 */
export async function setProductArchived(
  id: string,
  archived: boolean,
  options: { now?: Date; audit?: AuditBy } = {},
): Promise<{ ok: true; name: string } | { ok: false; reason: "not-found" }> {
  if (!UUID.test(id)) return { ok: false, reason: "not-found" };
  const now = options.now ?? new Date();
  const database = await db();
  return database.transaction(async (tx) => {
    const [changed] = await tx
      .update(products)
      .set(
        archived
          ? { archivedAt: now, isFeatured: false, isDeal: false, updatedAt: now }
          : { archivedAt: null, updatedAt: now },
      )
      .where(
        and(eq(products.id, id), archived ? isNull(products.archivedAt) : isNotNull(products.archivedAt)),
      )
      .returning({ name: products.name });
    if (!changed) return { ok: false, reason: "not-found" } as const;
    await recordAuditBy(tx, options.audit, {
      action: archived ? "product.archived" : "product.restored",
      targetType: "product",
      targetId: id,
      details: { name: changed.name },
    });
    return { ok: true, name: changed.name } as const;
  });
}

export type StockChangeResult =
  | { ok: true; onHand: number; productName: string; sizeLabel: string }
  | { ok: false; reason: "not-found" }
  | { ok: false; reason: "below-zero"; onHand: number };

/**
 * One stock move of one size from the product list (record 026: a movement with its note, never a
 * figure written over), audited with the change.
 */
export async function changeSizeStock(
  move: StockMove & { note: string },
  options: ProductWriteOptions = {},
): Promise<StockChangeResult> {
  if (!UUID.test(move.sizeId)) return { ok: false, reason: "not-found" };
  const database = await db();
  try {
    return await database.transaction(async (tx) => {
      const [size] = await tx
        .select({ productId: productSizes.productId, size: productSizes.size, name: products.name })
        .from(productSizes)
        .innerJoin(products, eq(products.id, productSizes.productId))
        .where(and(eq(productSizes.id, move.sizeId), isNull(products.archivedAt)));
      if (!size) return { ok: false, reason: "not-found" } as const;
      const onHand = await moveStock(tx, [move], { actorId: options.actorId ?? null, now: options.now });
      await recordAuditBy(tx, options.audit, {
        action: "stock.changed",
        targetType: "product",
        targetId: size.productId,
        details: { name: size.name, moves: [{ size: size.size, reason: move.reason, delta: move.delta }] },
      });
      return {
        ok: true,
        onHand: onHand.get(move.sizeId) ?? 0,
        productName: size.name,
        sizeLabel: size.size,
      } as const;
    });
  } catch (error) {
    if (error instanceof StockBelowZero) return { ok: false, reason: "below-zero", onHand: error.onHand };
    throw error;
  }
}

export type FixCaseResult =
  | { ok: true; from: string; to: string }
  | { ok: false; reason: "not-found" | "no-match" | "already-known" };

/** 'Fix Case': rewrites the category to the known one that matches ignoring case. */
export async function fixCategoryCase(id: string): Promise<FixCaseResult> {
  if (!UUID.test(id)) return { ok: false, reason: "not-found" };
  const database = await db();
  const [product] = await database
    .select({ category: products.category })
    .from(products)
    .where(and(eq(products.id, id), isNull(products.archivedAt)))
    .limit(1);
  if (!product) return { ok: false, reason: "not-found" };
  const to = canonicalCategory(product.category);
  if (!to) return { ok: false, reason: "no-match" };
  if (to === product.category) return { ok: false, reason: "already-known" };
  await database.update(products).set({ category: to, updatedAt: new Date() }).where(eq(products.id, id));
  return { ok: true, from: product.category, to };
}

export type ParsedProductForm =
  | { ok: true; data: ProductFormData; values: ProductFormValues }
  | { ok: false; fieldErrors: Record<string, string>; values: ProductFormValues };

/**
 * Reads the admin product form (the JSON payload the script sends, or a plain post's named fields
 * when JavaScript is off) and checks it with the shared schema. `values` is what was typed, for
 * showing the form again after a refusal or a failed save.
 */
export function parseProductForm(form: FormData): ParsedProductForm {
  const payload = form.get("payload");
  let raw: unknown;
  if (payload === null) {
    raw = namedFieldsToPayload(form.entries());
  } else {
    try {
      raw = typeof payload === "string" && payload.length < 200_000 ? JSON.parse(payload) : null;
    } catch {
      raw = null;
    }
  }
  const values = submittedFormValues(raw);
  if (!raw || typeof raw !== "object")
    return { ok: false, fieldErrors: { form: "The form could not be read." }, values };
  const parsed = productFormSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, fieldErrors: fieldErrorsOf(parsed.error), values };
  return { ok: true, data: parsed.data, values };
}
