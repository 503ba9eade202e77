/**
 * What the driver's phone sends (`/driver`): each action the driver takes on a stop, online or
 * queued while offline. Shared by the page, the offline queue and the server that applies them.
 * A queued action carries the phone's own time and an idempotency key: the server applies each
 * key once and answers a repeat with the first answer.
 */
import { z } from "zod";

/** Why a stop could not be delivered (P-32). */
export const DELIVERY_FAILURE_REASONS = [
  "customer-not-home",
  "no-valid-id",
  "under-21",
  "refused",
  "address-not-reachable",
  "other",
] as const;
export type DeliveryFailureReason = (typeof DELIVERY_FAILURE_REASONS)[number];

const orderId = z.uuid();

/** What the driver records at the door on 'Delivered' (P-32). */
export const deliveryProofSchema = z.object({
  /** The ID's date of birth as the driver typed it, YYYY-MM-DD. */
  dateOfBirth: z.iso.date(),
  /** The driver checked that the name on the ID is the order's. */
  nameMatches: z.literal(true),
  /** Cash handed over by the customer, in cents (at least the order's total). */
  cashReceivedCents: z.number().int().min(0).max(10_000_000),
  /** The customer's signature drawn on the phone, a PNG data URL. */
  signaturePng: z.string().startsWith("data:image/png;base64,").max(400_000),
});
export type DeliveryProof = z.infer<typeof deliveryProofSchema>;

export const driverActionSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("start-run"), orderIds: z.array(orderId).min(1).max(100) }),
  z.object({ kind: z.literal("deliver"), orderId, proof: deliveryProofSchema }),
  z.object({
    kind: z.literal("fail"),
    orderId,
    reason: z.enum(DELIVERY_FAILURE_REASONS),
    note: z.string().trim().max(500).optional(),
  }),
  z.object({ kind: z.literal("move"), orderId, direction: z.enum(["up", "down"]) }),
]);
export type DriverAction = z.infer<typeof driverActionSchema>;

/** One action as queued on the phone. */
export const queuedDriverActionSchema = z.object({
  /** Idempotency key made on the phone (a random UUID). */
  key: z.uuid(),
  /** The phone's clock when the driver acted (ISO 8601). */
  phoneTime: z.iso.datetime({ offset: true }),
  action: driverActionSchema,
});
export type QueuedDriverAction = z.infer<typeof queuedDriverActionSchema>;

/** What the server answers for one action: applied, or refused with words for the driver. */
export type DriverActionOutcome =
  | { key: string; outcome: "applied"; serverTime: string }
  | {
      key: string;
      outcome: "refused";
      /** cancelled: the store cancelled the order; reassigned: another driver has it; other: see message. */
      conflict: "cancelled" | "reassigned" | "already-done" | "invalid" | "other";
      message: string;
      serverTime: string;
    };
