/**
 * The posts of /admin/settings/delivery, one intent each (habit 7): save a zone, deactivate or
 * reactivate one, save the slot capacities and cut-offs, close a date or a slot, reopen it. Each
 * is parsed with its schema in delivery-settings.schema.ts (the form's own check in the browser).
 */

import type { AuditBy } from "#app/features/audit/audit.server.ts";
import {
  addClosure,
  getDeliverySettings,
  listClosures,
  listDeliveryZones,
  removeClosure,
  saveDeliverySettings,
  saveDeliveryZone,
  setZoneActive,
} from "#app/features/delivery/delivery.server.ts";
import {
  closureFormSchema,
  deliverySettingsFormFields,
  deliverySettingsFormSchema,
  formErrorsOf,
  settingsFormValues,
  settingsFromForm,
  zoneFormSchema,
} from "#app/features/delivery/delivery-settings.schema.ts";
import { formatStoreDate, storeClock } from "#app/utils/store-time.ts";
import {
  type ClosureOpenOrder,
  cancelOpenOrders,
  type MoveTarget,
  moveOpenOrders,
  moveTargets,
  OPEN_ORDER_CHOICES,
  openOrdersOf,
} from "./slot-closure.server.ts";

export async function deliverySettingsScreen(now: Date = new Date()) {
  const today = storeClock(now).date;
  const [zones, settings, closures] = await Promise.all([
    listDeliveryZones(),
    getDeliverySettings(),
    listClosures(today),
  ]);
  return { zones, values: settingsFormValues(settings), closures, today };
}

/** Closing a date or slot that has open orders: the question of what becomes of them. */
export type ClosingQuestion = {
  date: string;
  slot: string | null;
  reason: string;
  orders: ClosureOpenOrder[];
  targets: MoveTarget[];
};

export type DeliveryPostResult =
  | { ok: true; message: string }
  | { ok: false; form: string; fieldErrors: Record<string, string>; closing?: ClosingQuestion };

function ordersText(count: number) {
  return `${count} ${count === 1 ? "order" : "orders"}`;
}

/**
 * The closure of a date or slot. With open orders in it, staff are asked first (`closing`), then
 * their answer (`openOrders`: keep, move with `moveTo`, cancel) is carried out before the closure
 * is saved; a move that cannot be made closes nothing.
 */
async function closeForDeliveries(
  closure: { date: string; slot: string | null; reason: string },
  answer: { openOrders?: string; moveTo?: string },
  now: Date,
  audit?: AuditBy,
): Promise<DeliveryPostResult> {
  const open = await openOrdersOf(closure.date, closure.slot);
  const choice = OPEN_ORDER_CHOICES.find((candidate) => candidate === answer.openOrders);
  const ask = async (fieldErrors: Record<string, string> = {}): Promise<DeliveryPostResult> => ({
    ok: false,
    form: "closure",
    fieldErrors,
    closing: { ...closure, orders: open, targets: await moveTargets(closure.date, closure.slot, now) },
  });
  if (open.length === 0) {
    await addClosure(closure, audit);
    return { ok: true, message: "Closed for deliveries" };
  }
  if (!choice)
    return ask(answer.openOrders === undefined ? {} : { openOrders: "Choose what happens to them" });
  if (choice === "move") {
    const [date, slot] = (answer.moveTo ?? "").split("|");
    if (!date || !slot) return ask({ moveTo: "Choose the delivery time they move to" });
    const moved = await moveOpenOrders(closure, { date, slot }, closure.reason, { audit, now });
    if (!moved.ok) return ask({ moveTo: moved.message });
    await addClosure(closure, audit);
    return {
      ok: true,
      message: `Closed for deliveries. ${ordersText(moved.moved)} moved to ${formatStoreDate(date)}, ${slot}; each customer is e-mailed.`,
    };
  }
  await addClosure(closure, audit);
  if (choice === "keep") {
    return {
      ok: true,
      message: `Closed for deliveries. ${ordersText(open.length)} kept: deliver them as booked.`,
    };
  }
  const outcomes = await cancelOpenOrders(closure, closure.reason, { audit, now });
  const failed = outcomes.filter((outcome) => !outcome.ok);
  return {
    ok: true,
    message: `Closed for deliveries. ${ordersText(outcomes.length - failed.length)} cancelled; each customer is e-mailed.${
      failed.length > 0
        ? ` Not cancelled (changed meanwhile): ${failed.map((outcome) => `#${outcome.id.slice(0, 8)} ${outcome.customerName}`).join(", ")}.`
        : ""
    }`,
  };
}

const text = (form: FormData, key: string) => {
  const value = form.get(key);
  return typeof value === "string" ? value : undefined;
};

export async function handleDeliveryPost(
  form: FormData,
  now: Date = new Date(),
  audit?: AuditBy,
): Promise<DeliveryPostResult> {
  const intent = text(form, "intent");
  if (intent === "zone") {
    const id = text(form, "id") ?? "";
    const formName = `zone-${id || "new"}`;
    const parsed = zoneFormSchema.safeParse({
      id,
      name: text(form, "name"),
      state: text(form, "state"),
      active: text(form, "active"),
      zipCodes: text(form, "zipCodes"),
      minimumOrder: text(form, "minimumOrder"),
    });
    if (!parsed.success) return { ok: false, form: formName, fieldErrors: formErrorsOf(parsed.error) };
    const saved = await saveDeliveryZone(parsed.data, { now, audit });
    if (!saved.ok) return { ok: false, form: formName, fieldErrors: { [saved.field]: saved.message } };
    return { ok: true, message: id ? `${parsed.data.name} saved` : `${parsed.data.name} added` };
  }
  if (intent === "activate" || intent === "deactivate") {
    const id = text(form, "id") ?? "";
    const saved = await setZoneActive(id, intent === "activate", audit);
    if (!saved.ok) return { ok: false, form: `zone-${id}`, fieldErrors: { [saved.field]: saved.message } };
    return { ok: true, message: intent === "activate" ? "Zone activated" : "Zone deactivated" };
  }
  if (intent === "settings") {
    const raw = Object.fromEntries(deliverySettingsFormFields().map((field) => [field, text(form, field)]));
    const parsed = deliverySettingsFormSchema.safeParse(raw);
    if (!parsed.success) return { ok: false, form: "settings", fieldErrors: formErrorsOf(parsed.error) };
    await saveDeliverySettings(settingsFromForm(parsed.data), { now, audit });
    return { ok: true, message: "Delivery times saved" };
  }
  if (intent === "close") {
    const parsed = closureFormSchema.safeParse({
      date: text(form, "date"),
      slot: text(form, "slot") ?? "",
      reason: text(form, "reason"),
    });
    if (!parsed.success) return { ok: false, form: "closure", fieldErrors: formErrorsOf(parsed.error) };
    if (parsed.data.date < storeClock(now).date) {
      return { ok: false, form: "closure", fieldErrors: { date: "Choose today or a later date" } };
    }
    return closeForDeliveries(
      { date: parsed.data.date, slot: parsed.data.slot || null, reason: parsed.data.reason },
      { openOrders: text(form, "openOrders"), moveTo: text(form, "moveTo") },
      now,
      audit,
    );
  }
  if (intent === "reopen") {
    const id = text(form, "id") ?? "";
    if (/^[0-9a-f-]{36}$/i.test(id)) await removeClosure(id, audit);
    return { ok: true, message: "Open for deliveries again" };
  }
  return { ok: false, form: "form", fieldErrors: { form: "Unknown action" } };
}
