/**
 * The stock ledger (record 026). Every change of a size's stock is a movement written by SQL in
 * the same transaction: orders by `place_order`, cancel and reopen by `change_order_status`, and
 * 'received', 'correction' and 'import' by `move_stock` (drizzle/functions/move_stock.sql), called from here only.
 */

import { desc, eq, inArray, sql } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/rows.ts";
import { adminUsers, type OrderStatus, orders, type StockReason, stockMovements } from "#app/db/schema.ts";
import { SQL_REFUSALS } from "#app/db/sql-refusals.ts";
import { type AuditBy, recordAudit } from "#app/features/audit/audit.server.ts";

export type StockMove = {
  sizeId: string;
  /** Units added (positive) or taken (negative); a zero move is skipped. */
  delta: number;
  reason: Extract<StockReason, "received" | "correction" | "import">;
  note?: string | null;
};

/** A move that would take a size below zero (`SQL_REFUSALS.outOfStock` from `move_stock`). */
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
    if (code === SQL_REFUSALS.outOfStock) return new StockBelowZero(String(detail ?? ""), Number(hint ?? 0));
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

/**
 * How a size's stock and its ledger differ: `unrecorded` (stock on hand, no movement at all: set
 * outside the ledger, by an instance of a version from before the ledger or by hand), `added` (more
 * on hand than the movements add up to) or `taken` (less on hand: taken outside the ledger, or
 * movements deleted).
 */
export type StockMismatchKind = "unrecorded" | "added" | "taken";

export type StockMismatch = {
  sizeId: string;
  sku: string;
  label: string;
  onHand: number;
  ledger: number;
  /** How many movements the size has. */
  movements: number;
  kind: StockMismatchKind;
};

/** One line for an operator: what differs and where it most likely came from. */
export function explainStockMismatch(row: Pick<StockMismatch, "onHand" | "ledger" | "kind">): string {
  const gap = Math.abs(row.onHand - row.ledger);
  const figures = `${row.onHand} on hand, ${row.ledger} in the ledger`;
  switch (row.kind) {
    case "unrecorded":
      return `${figures}: stock set outside the stock ledger (by an older instance or by hand), never recorded as a movement`;
    case "added":
      return `${figures}: ${gap} added outside the stock ledger (by an older instance or by hand)`;
    case "taken":
      return `${figures}: ${gap} taken outside the stock ledger (an order or change made by an older instance or by hand), or movements were deleted`;
  }
}

function kindOf(onHand: number, ledger: number, movements: number): StockMismatchKind {
  if (movements === 0) return "unrecorded";
  return onHand > ledger ? "added" : "taken";
}

function mismatchesQuery(sizeIds?: readonly string[], lock = false) {
  return sql`
    SELECT s.id AS size_id, s.sku, p.name || ' (' || s.size || ')' AS label, s.inventory_count AS on_hand,
      coalesce(m.total, 0)::integer AS ledger, coalesce(m.movements, 0)::integer AS movements
    FROM product_sizes AS s
    JOIN products AS p ON p.id = s.product_id
    LEFT JOIN (SELECT size_id, sum(delta) AS total, count(*) AS movements FROM stock_movements GROUP BY size_id) AS m
      ON m.size_id = s.id
    WHERE s.inventory_count <> coalesce(m.total, 0)
      ${
        sizeIds
          ? sql`AND s.id IN (${sql.join(
              sizeIds.map((id) => sql`${id}::uuid`),
              sql`, `,
            )})`
          : sql``
      }
    ORDER BY p.name, s.position
    ${lock ? sql`FOR UPDATE OF s` : sql``}`;
}

function mismatchRows(result: unknown): StockMismatch[] {
  return rowsOf<{
    size_id: string;
    sku: string;
    label: string;
    on_hand: number;
    ledger: number;
    movements: number;
  }>(result).map((row) => {
    const onHand = Number(row.on_hand);
    const ledger = Number(row.ledger);
    const movements = Number(row.movements);
    return {
      sizeId: row.size_id,
      sku: row.sku,
      label: row.label,
      onHand,
      ledger,
      movements,
      kind: kindOf(onHand, ledger, movements),
    };
  });
}

/** Sizes whose stock on hand differs from the sum of their movements (should be none). */
export async function stockMismatches(executor?: Executor): Promise<StockMismatch[]> {
  const database = executor ?? (await db());
  return mismatchRows(await database.execute(mismatchesQuery()));
}

/**
 * Records each size's difference as a 'correction' movement, so the ledger adds up to the stock on
 * hand (which stays as it is), and each adoption in the audit log. The sizes are locked and their
 * difference read again inside the transaction: an order placed meanwhile moves both sides.
 * Returns what was adopted.
 */
export async function adoptStockMismatches(
  by: AuditBy,
  options: { now?: Date; executor?: Executor } = {},
): Promise<StockMismatch[]> {
  const database = options.executor ?? (await db());
  const now = options.now ?? new Date();
  const found = await stockMismatches(database);
  if (found.length === 0) return [];
  return database.transaction(async (tx) => {
    const rows = mismatchRows(
      await tx.execute(
        mismatchesQuery(
          found.map((row) => row.sizeId),
          true,
        ),
      ),
    );
    for (const row of rows) {
      const delta = row.onHand - row.ledger;
      await tx.insert(stockMovements).values({
        sizeId: row.sizeId,
        delta,
        reason: "correction",
        note: `Adopted by npm run stock:verify -- --adopt: ${explainStockMismatch(row)}`,
        actorId: by.actor.userId,
        createdAt: now,
      });
      await recordAudit(tx, by.actor, by.origin, {
        action: "stock.adopted",
        targetType: "product_size",
        targetId: row.sizeId,
        details: { sku: row.sku, onHand: row.onHand, ledger: row.ledger, delta, kind: row.kind },
      });
    }
    return rows;
  });
}
