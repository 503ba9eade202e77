/**
 * The stock ledger (decision 026). Every change of a size's stock is a movement written by SQL in
 * the same transaction: orders by `place_order`, cancel and reopen by `change_order_status`, and
 * 'received', 'correction' and 'import' by `move_stock` (drizzle/0007), called from here only.
 */

import { desc, eq, inArray, sql } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/rows.ts";
import { adminUsers, type OrderStatus, orders, type StockReason, stockMovements } from "#app/db/schema.ts";

export type StockMove = {
  sizeId: string;
  /** Units added (positive) or taken (negative); a zero move is skipped. */
  delta: number;
  reason: Extract<StockReason, "received" | "correction" | "import">;
  note?: string | null;
};

/** A move that would take a size below zero (SQLSTATE CG409 from `move_stock`). */
export class StockBelowZero extends Error {
  readonly sizeId: string;
  readonly onHand: number;
  constructor(sizeId: string, onHand: number) {
    super(`Stock of ${sizeId} would go below zero (${onHand} on hand)`);
    this.sizeId = sizeId;
    this.onHand = onHand;
  }
}

function belowZeroOf(error: unknown): StockBelowZero | null {
  for (let cause = error; cause && typeof cause === "object"; cause = (cause as { cause?: unknown }).cause) {
    const { code, detail, hint } = cause as { code?: unknown; detail?: unknown; hint?: unknown };
    if (code === "CG409") return new StockBelowZero(String(detail ?? ""), Number(hint ?? 0));
  }
  return null;
}

/**
 * Applies the moves with their ledger rows, inside the caller's transaction (one statement).
 * Throws StockBelowZero when one would take a size below zero; the caller's transaction is then
 * to be rolled back. Returns the new stock of each moved size.
 */
export async function moveStock(
  tx: Executor,
  moves: readonly StockMove[],
  options: { actorId?: string | null; now?: Date } = {},
): Promise<Map<string, number>> {
  const effective = moves.filter((move) => move.delta !== 0);
  if (effective.length === 0) return new Map();
  const payload = effective.map((move) => ({
    size_id: move.sizeId,
    delta: move.delta,
    reason: move.reason,
    note: move.note ?? null,
  }));
  try {
    const result = await tx.execute(
      sql`SELECT size_id, inventory_count FROM move_stock(${JSON.stringify(payload)}::jsonb,
        ${options.actorId ?? null}::uuid, ${(options.now ?? new Date()).toISOString()}::timestamptz)`,
    );
    const rows = rowsOf<{ size_id: string; inventory_count: number }>(result);
    return new Map(rows.map((row) => [row.size_id, Number(row.inventory_count)]));
  } catch (error) {
    throw belowZeroOf(error) ?? error;
  }
}

/** The admin who changes order statuses in this transaction: `change_order_status` records them. */
export async function setStockActor(tx: Executor, actorId: string) {
  await tx.execute(sql`SELECT set_config('stock.actor', ${actorId}, true)`);
}

export type StockMovementView = {
  id: number;
  sizeId: string;
  delta: number;
  reason: StockReason;
  note: string | null;
  orderId: string | null;
  /** The order's status now (its admin list: open or completed). */
  orderStatus: OrderStatus | null;
  actorEmail: string | null;
  createdAt: string;
};

/** The last `limit` movements of each size, newest first (the admin product page). */
export async function recentMovements(
  sizeIds: readonly string[],
  limit = 20,
  executor?: Executor,
): Promise<Map<string, StockMovementView[]>> {
  const bySize = new Map<string, StockMovementView[]>(sizeIds.map((id) => [id, []]));
  if (sizeIds.length === 0) return bySize;
  const database = executor ?? (await db());
  const ranked = database
    .select({
      id: stockMovements.id,
      sizeId: stockMovements.sizeId,
      delta: stockMovements.delta,
      reason: stockMovements.reason,
      note: stockMovements.note,
      orderId: stockMovements.orderId,
      actorId: stockMovements.actorId,
      createdAt: stockMovements.createdAt,
      rank: sql<number>`row_number() OVER (PARTITION BY ${stockMovements.sizeId} ORDER BY ${stockMovements.id} DESC)`.as(
        "rank",
      ),
    })
    .from(stockMovements)
    .where(inArray(stockMovements.sizeId, [...sizeIds]))
    .as("ranked");
  const rows = await database
    .select({
      id: ranked.id,
      sizeId: ranked.sizeId,
      delta: ranked.delta,
      reason: ranked.reason,
      note: ranked.note,
      orderId: ranked.orderId,
      orderStatus: orders.status,
      actorEmail: adminUsers.email,
      createdAt: ranked.createdAt,
    })
    .from(ranked)
    .leftJoin(adminUsers, eq(adminUsers.id, ranked.actorId))
    .leftJoin(orders, eq(orders.id, ranked.orderId))
    .where(sql`${ranked.rank} <= ${limit}`)
    .orderBy(desc(ranked.id));
  for (const row of rows) {
    bySize.get(row.sizeId)?.push({ ...row, createdAt: new Date(row.createdAt).toISOString() });
  }
  return bySize;
}

export type StockMismatch = { sizeId: string; sku: string; label: string; onHand: number; ledger: number };

/** Sizes whose stock on hand differs from the sum of their movements (should be none). */
export async function stockMismatches(executor?: Executor): Promise<StockMismatch[]> {
  const database = executor ?? (await db());
  const result = await database.execute(sql`
    SELECT s.id AS size_id, s.sku, p.name || ' (' || s.size || ')' AS label, s.inventory_count AS on_hand,
      coalesce(m.total, 0)::integer AS ledger
    FROM product_sizes AS s
    JOIN products AS p ON p.id = s.product_id
    LEFT JOIN (SELECT size_id, sum(delta) AS total FROM stock_movements GROUP BY size_id) AS m
      ON m.size_id = s.id
    WHERE s.inventory_count <> coalesce(m.total, 0)
    ORDER BY p.name, s.position`);
  const rows = (
    result as unknown as {
      rows: { size_id: string; sku: string; label: string; on_hand: number; ledger: number }[];
    }
  ).rows;
  return rows.map((row) => ({
    sizeId: row.size_id,
    sku: row.sku,
    label: row.label,
    onHand: Number(row.on_hand),
    ledger: Number(row.ledger),
  }));
}
