/**
 * The offline queue's plain rules (record 050), shared by the phone and the server: how a failed
 * delivery is told in the shop's cancel reasons, how the phone shows its run with the actions it
 * still holds, and the banner's words.
 */
import type { DeliveryFailureReason, DriverAction, QueuedDriverAction } from "./driver-actions.schema.ts";
import type { DriverRun } from "./driver-run.server.ts";
import { CANCEL_REASONS, type CancelReasonCode } from "./order-status.ts";

export const FAILURE_LABELS: Record<DeliveryFailureReason, string> = {
  "customer-not-home": "Customer not home",
  "no-valid-id": "No valid ID",
  "under-21": "Under 21",
  refused: "Refused",
  "address-not-reachable": "Address not reachable",
  other: "Other",
};

/** A failed delivery as the board's Cancel reason (until the 'returning' status takes it over). */
export function failureCancelReason(
  reason: DeliveryFailureReason,
  note?: string,
): { reason: CancelReasonCode; reasonText?: string } {
  if (reason === "no-valid-id" || reason === "address-not-reachable") return { reason };
  const text = reason === "other" ? note?.trim() || "Could not deliver" : FAILURE_LABELS[reason];
  return { reason: "other", reasonText: note && reason !== "other" ? `${text}: ${note.trim()}` : text };
}

/** The phone's Cancel form (a staff cancel reason) as a failed delivery. */
export function cancelFormFailure(
  reason: string,
  reasonText: string,
): { reason: DeliveryFailureReason; note?: string } {
  if (reason === "no-valid-id" || reason === "address-not-reachable") return { reason };
  const label = reason in CANCEL_REASONS ? CANCEL_REASONS[reason as CancelReasonCode].label : "Other";
  const note = reason === "other" ? reasonText.trim() : label;
  if (/^customer not home$/i.test(note)) return { reason: "customer-not-home" };
  return { reason: "other", note: note || label };
}

function failedReason(action: Extract<DriverAction, { kind: "fail" }>) {
  const cancel = failureCancelReason(action.reason, action.note);
  return cancel.reason === "other" ? `Other: ${cancel.reasonText}` : CANCEL_REASONS[cancel.reason].label;
}

/**
 * The run as the phone shows it: the last run the server sent, with the actions still waiting
 * applied on top (the server's answer replaces it once they are sent).
 */
export function runWithPending(run: DriverRun, pending: readonly QueuedDriverAction[]): DriverRun {
  let next: DriverRun = { ...run, open: [...run.open], unassigned: [...run.unassigned] };
  for (const { action } of pending) {
    if (action.kind === "move") {
      // The open stops are in delivery order already: swap with the neighbour of the same slot.
      const open = [...next.open];
      const index = open.findIndex((stop) => stop.id === action.orderId);
      const other = action.direction === "up" ? index - 1 : index + 1;
      const stop = open[index];
      const neighbour = open[other];
      if (stop && neighbour && index !== -1 && neighbour.deliveryTime === stop.deliveryTime) {
        open[index] = neighbour;
        open[other] = stop;
        next = { ...next, open };
      }
      continue;
    }
    if (action.kind === "start-run") {
      const ids = new Set(action.orderIds);
      const taken = next.unassigned.filter((stop) => ids.has(stop.id));
      const open = [...next.open, ...taken].map((stop) =>
        ids.has(stop.id) && stop.status === "confirmed"
          ? { ...stop, status: "out_for_delivery" as const }
          : stop,
      );
      next = { ...next, open, unassigned: next.unassigned.filter((stop) => !ids.has(stop.id)) };
      continue;
    }
    const stop =
      next.open.find((s) => s.id === action.orderId) ?? next.unassigned.find((s) => s.id === action.orderId);
    if (!stop) continue;
    const rest = {
      open: next.open.filter((s) => s.id !== stop.id),
      unassigned: next.unassigned.filter((s) => s.id !== stop.id),
    };
    if (action.kind === "deliver") {
      next = {
        ...next,
        ...rest,
        delivered: [...next.delivered, { ...stop, status: "delivered" }],
        collectedCents: next.collectedCents + stop.totalAmountCents,
      };
    } else {
      next = {
        ...next,
        ...rest,
        cancelled: [...next.cancelled, { ...stop, status: "cancelled", cancelReason: failedReason(action) }],
      };
    }
  }
  const toCollectCents = next.open.reduce((sum, stop) => sum + stop.totalAmountCents, 0);
  return { ...next, toCollectCents };
}

/** 'Offline — 3 changes waiting', or the moment they were sent. */
export function syncBannerText(state: {
  online: boolean;
  waiting: number;
  sending: boolean;
  lastSentAt: Date | null;
  formatTime: (date: Date) => string;
}): string | null {
  const changes = `${state.waiting} ${state.waiting === 1 ? "change" : "changes"} waiting`;
  if (!state.online)
    return state.waiting > 0 ? `Offline — ${changes}` : "Offline — your run is saved on this phone";
  if (state.sending) return `Sending ${changes.replace(" waiting", "")}…`;
  if (state.waiting > 0) return `${changes} — they are sent when the signal is back`;
  if (state.lastSentAt) return `Changes sent at ${state.formatTime(state.lastSentAt)}`;
  return null;
}

/** How many queued actions the phone sends per request at most. */
export const SYNC_BATCH = 10;
/** The body of one send at most; the phone splits its queue to stay well under it (signatures). */
export const MAX_SYNC_BODY_BYTES = 4 * 1024 * 1024;
const BATCH_TEXT_TARGET = 1024 * 1024;

/**
 * The next batch to send: the oldest actions, at most SYNC_BATCH of them and about 1 MB of text
 * (an urlencoded signature grows by a tenth), always at least one.
 */
export function nextBatch<Action extends QueuedDriverAction>(pending: readonly Action[]): Action[] {
  const batch: Action[] = [];
  let size = 0;
  for (const action of pending) {
    const length = JSON.stringify(action).length;
    if (batch.length >= SYNC_BATCH || (batch.length > 0 && size + length > BATCH_TEXT_TARGET)) break;
    batch.push(action);
    size += length;
  }
  return batch;
}

/** The form field the batch travels in, as JSON (every post of the shop is a form, record 015). */
export const SYNC_FIELD = "batch";

/**
 * The action a form of the run page stands for, when the phone queues it instead of posting it:
 * null for a form that is not a driver action; 'needs-proof' for the old 'Mark Delivered', which
 * carries no proof at the door and so cannot be queued.
 */
export function actionFromForm(form: FormData): DriverAction | "needs-proof" | null {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const orderId = text("orderId");
  switch (text("intent")) {
    case "start-run": {
      const orderIds = [...form.keys()].filter((key) => key.startsWith("pick-")).map((key) => key.slice(5));
      return orderIds.length > 0 ? { kind: "start-run", orderIds } : null;
    }
    case "move-up":
      return { kind: "move", orderId, direction: "up" };
    case "move-down":
      return { kind: "move", orderId, direction: "down" };
    case "deliver":
      return "needs-proof";
    case "cancel":
      return { kind: "fail", orderId, ...cancelFormFailure(text("reason"), text("reasonText")) };
    default:
      return null;
  }
}

/** The customer's name of the stop an action is about, for the driver's words ('3 stops' for a start). */
export function actionSubject(run: DriverRun, action: DriverAction) {
  if (action.kind === "start-run")
    return `${action.orderIds.length} ${action.orderIds.length === 1 ? "stop" : "stops"}`;
  const stops = [...run.open, ...run.unassigned, ...run.delivered, ...run.cancelled];
  return stops.find((stop) => stop.id === action.orderId)?.customerName ?? "A stop";
}
