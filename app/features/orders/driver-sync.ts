/**
 * The offline queue's plain rules (record 050), shared by the phone and the server: how the phone
 * shows its run with the actions it still holds, which form stands for which action, and the
 * banner's words.
 */
import { failureText } from "./delivery-proof.ts";
import type { DriverAction, QueuedDriverAction } from "./driver-actions.schema.ts";
import type { DriverRun } from "./driver-run.server.ts";

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
        returning: [
          ...next.returning,
          { ...stop, status: "returning", failure: failureText(action.reason, action.note) },
        ],
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
 * null for a form that is not one of these. 'Delivered' and 'Could not deliver' hand their action to
 * the queue themselves (their `onAction`, record 051): the proof is checked on their screen first.
 */
export function actionFromForm(form: FormData): DriverAction | null {
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
