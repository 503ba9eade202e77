import { and, eq, inArray } from "drizzle-orm";
import { expect, it } from "vitest";
import { auditEvents, emailOutbox, orders, productSizes } from "#app/db/schema.ts";
import { listClosures } from "#app/features/delivery/delivery.server.ts";
import { setOrderStatus } from "#app/features/orders/admin-orders.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { auditByStaff, insertStaff } from "#tests/staff/support.ts";
import { productToOrder } from "#tests/support/admin-fixtures.server.ts";
import { slotBookingsDrift } from "#tests/support/checkout-test-helpers.server.ts";
import { handleDeliveryPost } from "./delivery-admin.server.ts";

// A Monday morning in New York: tomorrow's slots are all ahead.
const NOW = new Date("2026-11-23T15:00:00Z");
const TOMORROW = "2026-11-24";

function closeForm(fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries({ intent: "close", date: TOMORROW, ...fields })) {
    form.append(name, value);
  }
  return form;
}

describeEachDatabase("closing a slot that has open orders", (database) => {
  async function setUp() {
    const { db } = database();
    const { sizeId, place } = await productToOrder("Closure", TOMORROW, NOW);
    const owner = await insertStaff(db, "owner");
    const audit = auditByStaff(owner);
    const close = (fields: Record<string, string>) => handleDeliveryPost(closeForm(fields), NOW, audit);
    return { db, sizeId, place, close };
  }

  it("asks first, then moves the slot's orders to another time with an e-mail to each customer", async () => {
    const { db, place, close } = await setUp();
    const slot = "2:00 PM-4:00 PM";
    const a = await place(slot);
    const b = await place(slot);
    await setOrderStatus(b.id, "confirmed");

    const asked = await close({ slot, reason: "Van in the garage" });
    expect(asked).toMatchObject({ ok: false, form: "closure", fieldErrors: {} });
    const closing = asked.ok ? null : asked.closing;
    expect(closing?.orders.map((order) => order.id).sort()).toEqual([a.id, b.id].sort());
    expect(closing?.targets.map((target) => target.value)).not.toContain(`${TOMORROW}|${slot}`);
    expect(closing?.targets.map((target) => target.value)).toContain(`${TOMORROW}|4:00 PM-6:00 PM`);
    // Nothing is closed until staff answer.
    expect((await listClosures(TOMORROW)).filter((closure) => closure.slot === slot)).toEqual([]);

    const moved = await close({
      slot,
      reason: "Van in the garage",
      openOrders: "move",
      moveTo: `${TOMORROW}|4:00 PM-6:00 PM`,
    });
    expect(moved).toEqual({
      ok: true,
      message:
        "Closed for deliveries. 2 orders moved to Tue, Nov 24, 4:00 PM-6:00 PM; each customer is e-mailed.",
    });
    const rows = await db
      .select({ deliveryTime: orders.deliveryTime, status: orders.status })
      .from(orders)
      .where(inArray(orders.id, [a.id, b.id]));
    expect(rows.map((row) => row.deliveryTime)).toEqual(["4:00 PM-6:00 PM", "4:00 PM-6:00 PM"]);
    expect(await slotBookingsDrift(db)).toEqual([]);
    const mails = await db
      .select({ orderId: emailOutbox.orderId, subject: emailOutbox.subject, text: emailOutbox.textBody })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.kind, "order-delivery-moved"), inArray(emailOutbox.orderId, [a.id, b.id])));
    expect(mails).toHaveLength(2);
    expect(mails[0]?.subject).toMatch(
      /^New delivery time for your order #[0-9a-f]{8}: Tue, Nov 24, 4:00 PM-6:00 PM$/,
    );
    expect(mails[0]?.text).toContain(
      "We're not delivering at Tue, Nov 24, 2:00 PM-4:00 PM (Van in the garage)",
    );
    const events = await db
      .select({ targetId: auditEvents.targetId })
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, "order.delivery_moved"), inArray(auditEvents.targetId, [a.id, b.id])),
      );
    expect(events).toHaveLength(2);
    expect((await listClosures(TOMORROW)).find((closure) => closure.slot === slot)?.reason).toBe(
      "Van in the garage",
    );
  });

  it("cancels the orders with the closure's reason, or keeps them, as staff choose", async () => {
    const { db, place, close, sizeId } = await setUp();
    const stock = async () =>
      (await db.select().from(productSizes).where(eq(productSizes.id, sizeId)))[0]?.inventoryCount;
    const c = await place("10:00 AM-12:00 PM");
    const kept = await place("12:00 PM-2:00 PM");
    expect(await stock()).toBe(16);

    const refused = await close({
      slot: "10:00 AM-12:00 PM",
      reason: "Staff training",
      openOrders: "move",
      moveTo: "",
    });
    expect(refused).toMatchObject({
      ok: false,
      fieldErrors: { moveTo: "Choose the delivery time they move to" },
    });

    const cancelled = await close({
      slot: "10:00 AM-12:00 PM",
      reason: "Staff training",
      openOrders: "cancel",
    });
    expect(cancelled).toEqual({
      ok: true,
      message: "Closed for deliveries. 1 order cancelled; each customer is e-mailed.",
    });
    const [row] = await db
      .select({ status: orders.status, cancelReason: orders.cancelReason })
      .from(orders)
      .where(eq(orders.id, c.id));
    expect(row).toEqual({ status: "cancelled", cancelReason: "Closed: Staff training" });
    expect(await stock()).toBe(18);
    const [mail] = await db
      .select({ text: emailOutbox.textBody })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.kind, "order-cancelled"), eq(emailOutbox.orderId, c.id)));
    expect(mail?.text).toContain("because we are not delivering at that time: Staff training");

    const keep = await close({ slot: "12:00 PM-2:00 PM", reason: "Short of drivers", openOrders: "keep" });
    expect(keep).toEqual({
      ok: true,
      message: "Closed for deliveries. 1 order kept: deliver them as booked.",
    });
    const [still] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, kept.id));
    expect(still?.status).toBe("pending");
    expect(await slotBookingsDrift(db)).toEqual([]);
  });
});
