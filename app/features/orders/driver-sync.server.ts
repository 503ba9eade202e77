/**
 * The server side of the phone's offline queue (record 050): `/driver/sync` hands a batch of
 * queued actions here. Each idempotency key is claimed once in `driver_action_log` before its
 * action runs, so a batch sent twice (a lost answer, a second tab) applies each action once and
 * answers a repeat with the first outcome. Actions go through the run's own domain functions
 * (start, move, the status moves with their e-mail and audit event), within the driver's scope of
 * today; an order the store cancelled or gave to another driver meanwhile is refused with words
 * for the driver, never overwritten.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import { driverActionLog, driverPhoneSyncs } from "#app/db/schema.ts";
import type { AuditBy } from "#app/features/audit/audit.server.ts";
import { storeDay } from "#app/utils/store-time.ts";
import { checkStop, recordDelivery, recordFailedDelivery } from "./delivery-proof.server.ts";
import type { DriverAction, DriverActionOutcome, QueuedDriverAction } from "./driver-actions.schema.ts";
import { moveStop, startRun } from "./driver-run.server.ts";

const PENDING_WAITS = 20;
const PENDING_WAIT_MS = 250;

type Conflict = Extract<DriverActionOutcome, { outcome: "refused" }>["conflict"];
type Verdict = { ok: true } | { ok: false; conflict: Conflict; message: string };

export const CONFLICT_MESSAGES = {
  cancelled: (reason: string | null) =>
    `The store cancelled this order${reason ? ` (${reason})` : ""} while you were offline. Your change was not applied.`,
  reassigned:
    "The store gave this order to another driver while you were offline. Your change was not applied.",
  delivered: "This order is already marked delivered. Your change was not applied.",
  notToday: "This order is not on today's run any more. Your change was not applied.",
  missing: "This order is no longer in the shop's list. Your change was not applied.",
  notOpen: "This order is not ready for delivery. Your change was not applied.",
  cannotMove: "This stop cannot move further within its slot.",
  otherKey: "This change was already sent from another account.",
  busy: "This change is still being applied. Your run shows it once it is done.",
} as const;

/** Whether the driver may still act on the order (`checkStop`), in the words of a queued change. */
async function orderVerdict(executor: Executor, stop: Parameters<typeof checkStop>[1]): Promise<Verdict> {
  const { order, problem } = await checkStop(executor, stop);
  const refuse = (conflict: Conflict, message: string): Verdict => ({ ok: false, conflict, message });
  switch (problem) {
    case null:
      return { ok: true };
    case "missing":
      return refuse("invalid", CONFLICT_MESSAGES.missing);
    case "cancelled":
      return refuse("cancelled", CONFLICT_MESSAGES.cancelled(order.cancelReason));
    case "reassigned":
      return refuse("reassigned", CONFLICT_MESSAGES.reassigned);
    case "delivered":
      return refuse("already-done", CONFLICT_MESSAGES.delivered);
    case "not-today":
      return refuse("invalid", CONFLICT_MESSAGES.notToday);
    case "returned":
    case "not-confirmed":
      return refuse("other", CONFLICT_MESSAGES.notOpen);
  }
}

async function dispatch(
  driverId: string,
  action: DriverAction,
  by: AuditBy,
  now: Date,
  phoneTime: Date,
): Promise<Verdict> {
  const database = await db();
  const day = storeDay(now);
  if (action.kind === "start-run") {
    const verdicts = await Promise.all(
      action.orderIds.map(async (id) => ({
        id,
        verdict: await orderVerdict(database, { driverId, orderId: id, day }),
      })),
    );
    const startable = verdicts.filter((entry) => entry.verdict.ok).map((entry) => entry.id);
    const { started } =
      startable.length > 0 ? await startRun(driverId, startable, by, { now }) : { started: 0 };
    if (started > 0) return { ok: true };
    const refusal = verdicts.find((entry) => !entry.verdict.ok)?.verdict;
    return (
      refusal ?? { ok: false, conflict: "already-done", message: "These stops are already out for delivery." }
    );
  }
  const verdict = await orderVerdict(database, { driverId, orderId: action.orderId, day });
  if (!verdict.ok) return verdict;
  if (action.kind === "move") {
    const moved = await moveStop(driverId, action.orderId, action.direction, { now });
    return moved ? { ok: true } : { ok: false, conflict: "other", message: CONFLICT_MESSAGES.cannotMove };
  }
  // The proof at the door (record 051) checks the order again under a lock, takes an order of
  // nobody's and records the phone's time with it.
  const phone = { driverId, orderId: action.orderId, phoneTime, by };
  const result =
    action.kind === "deliver"
      ? await recordDelivery({ ...phone, proof: action.proof })
      : await recordFailedDelivery({ ...phone, reason: action.reason, note: action.note });
  return result.ok ? { ok: true } : result;
}

/** What the log keeps of an action: the signature stays out (it is personal and stored encrypted). */
function loggedAction(action: DriverAction): Record<string, unknown> {
  if (action.kind !== "deliver") return action;
  const { signaturePng: _signature, ...proof } = action.proof;
  return { ...action, proof: { ...proof, signature: "stored with the order" } };
}

function outcomeOf(
  key: string,
  row: { outcome: string; conflict: string | null; message: string | null; settledAt: Date | null },
): DriverActionOutcome {
  const serverTime = (row.settledAt ?? new Date()).toISOString();
  if (row.outcome === "applied") return { key, outcome: "applied", serverTime };
  if (row.outcome === "pending")
    return { key, outcome: "refused", conflict: "other", message: CONFLICT_MESSAGES.busy, serverTime };
  return {
    key,
    outcome: "refused",
    conflict: (row.conflict ?? "other") as Conflict,
    message: row.message ?? "",
    serverTime,
  };
}

async function applyOne(
  driverId: string,
  queued: QueuedDriverAction,
  by: AuditBy,
  now: () => Date,
): Promise<DriverActionOutcome> {
  const database = await db();
  const { key, action } = queued;
  const claimed = await database
    .insert(driverActionLog)
    .values({
      key,
      driverId,
      kind: action.kind,
      orderId: action.kind === "start-run" ? null : action.orderId,
      action: loggedAction(action),
      phoneTime: new Date(queued.phoneTime),
    })
    .onConflictDoNothing({ target: driverActionLog.key })
    .returning({ key: driverActionLog.key });
  if (claimed.length === 0) {
    let [first] = await database.select().from(driverActionLog).where(eq(driverActionLog.key, key));
    // The same key being applied by another request (a second tab): its answer, once it has one.
    for (let wait = 0; first?.outcome === "pending" && wait < PENDING_WAITS; wait++) {
      await new Promise((resolve) => setTimeout(resolve, PENDING_WAIT_MS));
      [first] = await database.select().from(driverActionLog).where(eq(driverActionLog.key, key));
    }
    if (!first || first.driverId !== driverId) {
      return {
        key,
        outcome: "refused",
        conflict: "invalid",
        message: CONFLICT_MESSAGES.otherKey,
        serverTime: now().toISOString(),
      };
    }
    return outcomeOf(key, first);
  }
  let verdict: Verdict;
  try {
    verdict = await dispatch(driverId, action, by, now(), new Date(queued.phoneTime));
  } catch (error) {
    // Not applied: free the key so the phone's next send can try again.
    await database.delete(driverActionLog).where(eq(driverActionLog.key, key));
    throw error;
  }
  const settledAt = now();
  await database
    .update(driverActionLog)
    .set({
      outcome: verdict.ok ? "applied" : "refused",
      conflict: verdict.ok ? null : verdict.conflict,
      message: verdict.ok ? null : verdict.message,
      settledAt,
    })
    .where(eq(driverActionLog.key, key));
  return verdict.ok
    ? { key, outcome: "applied", serverTime: settledAt.toISOString() }
    : {
        key,
        outcome: "refused",
        conflict: verdict.conflict,
        message: verdict.message,
        serverTime: settledAt.toISOString(),
      };
}

/**
 * Applies a phone's queued actions in the order the driver took them, each once. Throws when the
 * database fails mid-batch: the actions answered so far are logged, so the phone sends the whole
 * batch again and gets their first answers back.
 */
export async function applyQueuedActions(
  driverId: string,
  queued: readonly QueuedDriverAction[],
  by: AuditBy,
  options: { now?: () => Date } = {},
): Promise<DriverActionOutcome[]> {
  const now = options.now ?? (() => new Date());
  const ordered = [...queued].sort((a, b) => Date.parse(a.phoneTime) - Date.parse(b.phoneTime));
  const outcomes = new Map<string, DriverActionOutcome>();
  for (const action of ordered) {
    // A key twice in one batch is the same action: answered once, applied once.
    outcomes.set(action.key, outcomes.get(action.key) ?? (await applyOne(driverId, action, by, now)));
  }
  return queued.map((action) => outcomes.get(action.key) as DriverActionOutcome);
}

/** Records that the driver's phone reached the server, with the actions it still held. */
export async function recordPhoneSync(driverId: string, waiting: number, at = new Date()) {
  const database = await db();
  await database
    .insert(driverPhoneSyncs)
    .values({ driverId, syncedAt: at, waiting })
    .onConflictDoUpdate({
      target: driverPhoneSyncs.driverId,
      set: { syncedAt: sql`excluded.synced_at`, waiting: sql`excluded.waiting` },
    });
}

/** The last time each of these drivers' phones synced (the today board's per-driver panel). */
export async function lastPhoneSyncs(driverIds: readonly string[], executor?: Executor) {
  if (driverIds.length === 0) return new Map<string, { syncedAt: Date; waiting: number }>();
  const database = executor ?? (await db());
  const rows = await database
    .select()
    .from(driverPhoneSyncs)
    .where(inArray(driverPhoneSyncs.driverId, [...driverIds]));
  return new Map(rows.map((row) => [row.driverId, { syncedAt: row.syncedAt, waiting: row.waiting }]));
}

/** The log of one order's phone actions, oldest first (the order page and the tests read it). */
export async function phoneActionsOf(orderId: string, driverId?: string) {
  const database = await db();
  return database
    .select()
    .from(driverActionLog)
    .where(
      driverId
        ? and(eq(driverActionLog.orderId, orderId), eq(driverActionLog.driverId, driverId))
        : eq(driverActionLog.orderId, orderId),
    )
    .orderBy(driverActionLog.phoneTime);
}
