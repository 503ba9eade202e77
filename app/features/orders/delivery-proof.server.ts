/**
 * Proof at the door (P-32, record 051): the driver's 'Delivered' with its ID check, cash and the
 * customer's signature, and 'Could not deliver' with its reason. Each applies once, under the
 * order's lock, in one transaction with the status change (its e-mail and audit event) and an
 * audit event of its own; an order that changed meanwhile is refused with words for the driver,
 * never overwritten. The offline queue (P-34) calls these with the phone's time.
 */
import { eq } from "drizzle-orm";
import { db, type Executor, type Transaction } from "#app/db/client.server.ts";
import { deliveryFailures, deliveryProofs, type OrderStatus, orders } from "#app/db/schema.ts";
import { type AuditBy, recordAuditAlone, recordAuditBy } from "#app/features/audit/audit.server.ts";
import {
  openDeliverySignature,
  sealDeliverySignature,
  signaturePngBytes,
} from "#app/features/media/delivery-signatures.server.ts";
import { storeDay } from "#app/utils/store-time.ts";
import { z } from "#app/utils/zod.ts";
import { changeOrderStatus } from "./admin-orders.server.ts";
import { cashChange, checkAge, failureText } from "./delivery-proof.ts";
import {
  DELIVERY_FAILURE_REASONS,
  type DeliveryFailureReason,
  type DeliveryProof,
  deliveryProofSchema,
} from "./driver-actions.schema.ts";

export type DriverActionResult =
  | { ok: true }
  | {
      ok: false;
      conflict: "cancelled" | "reassigned" | "already-done" | "invalid" | "other";
      message: string;
    };

type Refusal = Extract<DriverActionResult, { ok: false }>;
const refuse = (conflict: Refusal["conflict"], message: string): Refusal => ({
  ok: false,
  conflict,
  message,
});

/** The statuses a stop can be delivered or failed from: the driver has it in hand. */
const AT_THE_DOOR: readonly OrderStatus[] = ["confirmed", "out_for_delivery"];

/** Rolls the transaction back with a refusal for the driver. */
class Refused extends Error {
  readonly refusal: Refusal;
  constructor(refusal: Refusal) {
    super(refusal.message);
    this.refusal = refusal;
  }
}

/** What keeps a driver from acting on an order at the door; each caller words it for its screen. */
export type StopProblem =
  | "missing"
  | "cancelled"
  | "reassigned"
  | "delivered"
  | "returned"
  | "not-confirmed"
  | "not-today";

/**
 * The order as the door needs it, and what keeps this driver from acting on it there (null when
 * nothing does): it must be today's (the store day the driver acted on), theirs or nobody's,
 * confirmed or out for delivery. `lock` reads it under the row's lock, inside a transaction.
 */
export async function checkStop(
  executor: Executor,
  stop: { driverId: string; orderId: string; day: string },
  lock = false,
) {
  const query = executor
    .select({
      status: orders.status,
      driverId: orders.driverId,
      deliveryDate: orders.deliveryDate,
      totalAmountCents: orders.totalAmountCents,
      cancelReason: orders.cancelReason,
    })
    .from(orders)
    .where(eq(orders.id, stop.orderId));
  const [order] = await (lock ? query.for("update") : query);
  if (!order) return { problem: "missing" as const, order };
  const problem = stopProblem(order, stop.driverId, stop.day);
  return problem ? { problem, order } : { problem: null, order };
}

function stopProblem(
  order: { status: OrderStatus; driverId: string | null; deliveryDate: string },
  driverId: string,
  day: string,
): StopProblem | null {
  if (order.status === "cancelled") return "cancelled";
  if (order.driverId !== null && order.driverId !== driverId) return "reassigned";
  if (order.status === "delivered") return "delivered";
  if (order.status === "returning") return "returned";
  if (!AT_THE_DOOR.includes(order.status)) return "not-confirmed";
  if (order.deliveryDate !== day) return "not-today";
  return null;
}

const DOOR_REFUSALS: Record<StopProblem, Refusal> = {
  missing: refuse("other", "This order no longer exists"),
  cancelled: refuse("cancelled", "The store cancelled this order: do not hand it over"),
  reassigned: refuse("reassigned", "The store gave this order to another driver"),
  delivered: refuse("already-done", "This order is already marked delivered"),
  returned: refuse("already-done", "This order is already marked could not deliver"),
  "not-confirmed": refuse("other", "This order is not confirmed yet: call the store"),
  "not-today": refuse("other", "This order is not on today's run"),
};

/**
 * The order, locked, when this driver may act on it at the door (`checkStop`). An order of nobody
 * becomes theirs (one 'order.driver_assigned' event), as on the run.
 */
async function lockStop(tx: Transaction, driverId: string, orderId: string, day: string, by: AuditBy) {
  const { order, problem } = await checkStop(tx, { driverId, orderId, day }, true);
  if (problem !== null) throw new Refused(DOOR_REFUSALS[problem]);
  if (order.driverId === null) {
    await tx.update(orders).set({ driverId }).where(eq(orders.id, orderId));
    await recordAuditBy(tx, by, {
      action: "order.driver_assigned",
      targetType: "order",
      targetId: orderId,
      details: { from: null, to: driverId, driver: by.actor.email, taken: true },
    });
  }
  return order;
}

/** Moves the stop on within the driver's scope of `day` (their run), only from `AT_THE_DOOR`. */
async function moveStatus(
  tx: Transaction,
  stop: { orderId: string; driverId: string; by: AuditBy },
  status: OrderStatus,
  options: { now: Date; day: string; reason?: string },
) {
  const result = await changeOrderStatus(tx, stop.orderId, status, {
    now: options.now,
    actorId: stop.by.actor.userId,
    audit: stop.by,
    scope: { kind: "driver", driverId: stop.driverId, date: options.day },
    cancelReason: options.reason,
    onlyFrom: AT_THE_DOOR,
  });
  if (!(result.ok && result.changed)) throw new Refused(refuse("other", "This order changed meanwhile"));
}

async function applying(work: (tx: Transaction) => Promise<void>): Promise<DriverActionResult> {
  const database = await db();
  try {
    await database.transaction(work);
    return { ok: true };
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    throw error;
  }
}

/**
 * 'Delivered' at the door: the ID's date of birth makes the customer 21 or older on the store's
 * date the driver acted on, the cash covers the total (the change is computed), and the signature
 * is a PNG. Stored with the signature sealed; the order becomes delivered.
 */
export async function recordDelivery(input: {
  driverId: string;
  orderId: string;
  proof: DeliveryProof;
  phoneTime?: Date;
  by: AuditBy;
}): Promise<DriverActionResult> {
  const parsed = deliveryProofSchema.safeParse(input.proof);
  if (!parsed.success) return refuse("invalid", "Check the ID, the cash and the signature");
  const proof = parsed.data;
  const now = new Date();
  const actedAt = input.phoneTime ?? now;
  const age = checkAge(proof.dateOfBirth, actedAt);
  if (!age.ok) return refuse("invalid", age.message);
  const png = signaturePngBytes(proof.signaturePng);
  if (!png) return refuse("invalid", "Ask the customer to sign on the screen");
  const day = storeDay(actedAt);
  return applying(async (tx) => {
    const order = await lockStop(tx, input.driverId, input.orderId, day, input.by);
    const cash = cashChange(order.totalAmountCents, proof.cashReceivedCents);
    if (!cash.ok) throw new Refused(refuse("invalid", cash.message));
    const sealed = await sealDeliverySignature(tx, input.orderId, png);
    await tx.insert(deliveryProofs).values({
      orderId: input.orderId,
      driverId: input.driverId,
      ageYears: age.age,
      cashReceivedCents: proof.cashReceivedCents,
      changeCents: cash.changeCents,
      ...sealed,
      phoneTime: input.phoneTime ?? null,
      createdAt: now,
    });
    await moveStatus(tx, input, "delivered", { now, day });
    await recordAuditBy(tx, input.by, {
      action: "order.delivery_proof",
      targetType: "order",
      targetId: input.orderId,
      details: {
        age: age.age,
        cashReceivedCents: proof.cashReceivedCents,
        changeCents: cash.changeCents,
        phoneTime: input.phoneTime?.toISOString() ?? null,
      },
    });
  });
}

/** 'Could not deliver' with its reason: the order becomes 'returning' until staff check it back in. */
export async function recordFailedDelivery(input: {
  driverId: string;
  orderId: string;
  reason: DeliveryFailureReason;
  note?: string;
  phoneTime?: Date;
  by: AuditBy;
}): Promise<DriverActionResult> {
  if (!DELIVERY_FAILURE_REASONS.includes(input.reason)) return refuse("invalid", "Choose a reason");
  const note = input.note?.trim().slice(0, 500) || null;
  if (input.reason === "other" && !note) return refuse("invalid", "Say what happened");
  const now = new Date();
  const day = storeDay(input.phoneTime ?? now);
  return applying(async (tx) => {
    await lockStop(tx, input.driverId, input.orderId, day, input.by);
    await tx.insert(deliveryFailures).values({
      orderId: input.orderId,
      driverId: input.driverId,
      reason: input.reason,
      note,
      phoneTime: input.phoneTime ?? null,
      createdAt: now,
    });
    await moveStatus(tx, input, "returning", { now, day, reason: failureText(input.reason, note) });
    await recordAuditBy(tx, input.by, {
      action: "order.delivery_failed",
      targetType: "order",
      targetId: input.orderId,
      details: { reason: input.reason, note, phoneTime: input.phoneTime?.toISOString() ?? null },
    });
  });
}

/** The customer's signature of a delivered order (PNG bytes), or null when none was taken. */
export async function deliverySignature(orderId: string, executor?: Executor): Promise<Uint8Array | null> {
  const database = executor ?? (await db());
  const [row] = await database
    .select({
      signatureKeyId: deliveryProofs.signatureKeyId,
      signatureNonce: deliveryProofs.signatureNonce,
      signatureBytes: deliveryProofs.signatureBytes,
    })
    .from(deliveryProofs)
    .where(eq(deliveryProofs.orderId, orderId))
    .limit(1);
  return row ? openDeliverySignature(orderId, row) : null;
}

/** The signature for staff to see, with its audit event ('order.signature_viewed'); null when none. */
export async function viewDeliverySignature(orderId: string, by: AuditBy): Promise<Uint8Array | null> {
  const parsed = z.uuid().safeParse(orderId);
  if (!parsed.success) return null;
  const signature = await deliverySignature(parsed.data);
  if (signature) {
    await recordAuditAlone(by, { action: "order.signature_viewed", targetType: "order", targetId: orderId });
  }
  return signature;
}
