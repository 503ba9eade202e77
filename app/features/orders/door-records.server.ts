/**
 * What the door recorded for orders (record 051), as staff and the run read it: the proof of a
 * delivered order (without its signature) and every 'Could not deliver'.
 */
import { desc, inArray } from "drizzle-orm";
import type { Executor } from "#app/db/client.server.ts";
import { deliveryFailures, deliveryProofs } from "#app/db/schema.ts";
import { failureText } from "./delivery-proof.ts";
import type { DeliveryFailureReason } from "./driver-actions.schema.ts";

/** What the door recorded for an order, as staff read it on the order's card. */
export type DoorRecord = {
  proof: {
    ageYears: number;
    cashReceivedCents: number;
    changeCents: number;
    at: string;
    phoneTime: string | null;
  } | null;
  /** Every 'Could not deliver', oldest first. */
  failures: { reason: DeliveryFailureReason; text: string; at: string; phoneTime: string | null }[];
};

/** The door records of these orders, in two queries (the proof without its signature). */
export async function doorRecords(executor: Executor, orderIds: readonly string[]) {
  const found = new Map<string, DoorRecord>();
  if (orderIds.length === 0) return found;
  const ids = [...orderIds];
  const [proofs, failures] = await Promise.all([
    executor
      .select({
        orderId: deliveryProofs.orderId,
        ageYears: deliveryProofs.ageYears,
        cashReceivedCents: deliveryProofs.cashReceivedCents,
        changeCents: deliveryProofs.changeCents,
        createdAt: deliveryProofs.createdAt,
        phoneTime: deliveryProofs.phoneTime,
      })
      .from(deliveryProofs)
      .where(inArray(deliveryProofs.orderId, ids)),
    executor
      .select({
        orderId: deliveryFailures.orderId,
        reason: deliveryFailures.reason,
        note: deliveryFailures.note,
        createdAt: deliveryFailures.createdAt,
        phoneTime: deliveryFailures.phoneTime,
      })
      .from(deliveryFailures)
      .where(inArray(deliveryFailures.orderId, ids))
      .orderBy(deliveryFailures.createdAt),
  ]);
  const entry = (orderId: string) => {
    let record = found.get(orderId);
    if (!record) {
      record = { proof: null, failures: [] };
      found.set(orderId, record);
    }
    return record;
  };
  for (const row of proofs) {
    entry(row.orderId).proof = {
      ageYears: row.ageYears,
      cashReceivedCents: row.cashReceivedCents,
      changeCents: row.changeCents,
      at: row.createdAt.toISOString(),
      phoneTime: row.phoneTime?.toISOString() ?? null,
    };
  }
  for (const row of failures) {
    const reason = row.reason as DeliveryFailureReason;
    entry(row.orderId).failures.push({
      reason,
      text: failureText(reason, row.note),
      at: row.createdAt.toISOString(),
      phoneTime: row.phoneTime?.toISOString() ?? null,
    });
  }
  return found;
}

/** The latest failure of each of these orders (the today board's returning orders). */
export async function latestFailures(executor: Executor, orderIds: readonly string[]) {
  const latest = new Map<string, string>();
  if (orderIds.length === 0) return latest;
  const rows = await executor
    .select({
      orderId: deliveryFailures.orderId,
      reason: deliveryFailures.reason,
      note: deliveryFailures.note,
    })
    .from(deliveryFailures)
    .where(inArray(deliveryFailures.orderId, [...orderIds]))
    .orderBy(desc(deliveryFailures.createdAt));
  for (const row of rows) {
    if (!latest.has(row.orderId))
      latest.set(row.orderId, failureText(row.reason as DeliveryFailureReason, row.note));
  }
  return latest;
}
