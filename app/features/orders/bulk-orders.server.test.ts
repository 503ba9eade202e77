import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { expect, it } from "vitest";
import { auditEvents, emailOutbox, orders, productSizes } from "#app/db/schema.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { auditByStaff, insertStaff } from "#tests/staff/support.ts";
import { productToOrder } from "#tests/support/admin-fixtures.server.ts";
import { setOrderStatus } from "./admin-orders.server.ts";
import { applyBulkAction, handleBulkPost, reviewBulkAction } from "./bulk-orders.server.ts";
import { assignDriver } from "./driver-assignment.server.ts";
import type { BulkOrderInput } from "./order-bulk.schema.ts";

// A Monday morning in New York: every slot of tomorrow is open.
const NOW = new Date("2026-11-23T15:00:00Z");
const TOMORROW = "2026-11-24";
const SLOT = "2:00 PM-4:00 PM";

async function setUp(db: Parameters<typeof insertStaff>[0]) {
  const { sizeId, place } = await productToOrder("Bulk", TOMORROW, NOW);
  const manager = await insertStaff(db, "manager");
  return { sizeId, place, by: auditByStaff(manager, "127.0.0.1"), manager };
}

function input(fields: Partial<BulkOrderInput> & Pick<BulkOrderInput, "intent">): BulkOrderInput {
  return { orderIds: [], slots: [], ...fields };
}

describeEachDatabase("bulk order actions", (database) => {
  it("confirms a whole slot as one action per order: each its audit event and its e-mail", async () => {
    const { db } = database();
    const { place, by, manager } = await setUp(db);
    const a = await place(SLOT);
    const b = await place(SLOT);
    const c = await place(SLOT);
    const elsewhere = await place("4:00 PM-6:00 PM");
    await setOrderStatus(c.id, "confirmed");

    // The review (the one confirmation) takes the slot's pending orders and says why it leaves one.
    const review = await reviewBulkAction(input({ intent: "bulk-confirm", slots: [`${TOMORROW}|${SLOT}`] }));
    expect(review.orders.map((order) => [order.id, order.skip])).toEqual([
      [a.id, null],
      [b.id, null],
      [c.id, "already confirmed"],
    ]);
    expect(review.orders.map((order) => order.id)).not.toContain(elsewhere.id);

    const missing = randomUUID();
    const report = await applyBulkAction(
      input({ intent: "bulk-confirm", confirmed: "yes", orderIds: [a.id, b.id, c.id, missing] }),
      by,
      { kind: "all" },
    );
    expect(report.outcomes.map((outcome) => [outcome.id, outcome.ok, outcome.message])).toEqual([
      [a.id, true, "Confirmed"],
      [b.id, true, "Confirmed"],
      [c.id, false, "This order has changed meanwhile"],
      [missing, false, "Order not found"],
    ]);
    const statuses = await db
      .select({ id: orders.id, status: orders.status })
      .from(orders)
      .where(inArray(orders.id, [a.id, b.id, elsewhere.id]));
    expect(Object.fromEntries(statuses.map((row) => [row.id, row.status]))).toEqual({
      [a.id]: "confirmed",
      [b.id]: "confirmed",
      [elsewhere.id]: "pending",
    });
    const events = await db
      .select({ targetId: auditEvents.targetId, actorId: auditEvents.actorId, details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "order.status_changed"), eq(auditEvents.actorId, manager.id)));
    expect(events.map((event) => event.targetId).sort()).toEqual([a.id, b.id].sort());
    expect(events[0]?.details).toMatchObject({ from: "pending", to: "confirmed" });
    const mails = await db
      .select({ orderId: emailOutbox.orderId })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.kind, "order-confirmed"), inArray(emailOutbox.orderId, [a.id, b.id, c.id])));
    // c was confirmed before (by setOrderStatus): its e-mail then, none now.
    expect(mails.map((mail) => mail.orderId).sort()).toEqual([a.id, b.id, c.id].sort());
  });

  it("assigns only confirmed orders to a driver, and cancels with the reason and the stock back", async () => {
    const { db } = database();
    const { place, by, sizeId } = await setUp(db);
    const driver = await insertStaff(db, "driver", "Dana");
    const pending = await place("6:00 PM-8:00 PM");
    const confirmed = await place("6:00 PM-8:00 PM");
    await setOrderStatus(confirmed.id, "confirmed");

    // The board's 'Assign slot' leaves the pending order out and says so.
    const slot = await assignDriver(
      { intent: "assign-slot", date: TOMORROW, slot: "6:00 PM-8:00 PM", driverId: driver.id },
      by,
    );
    expect(slot).toMatchObject({ ok: true, orders: 1, pendingLeft: 1, driverName: "Dana" });
    expect(await assignDriver({ intent: "assign", orderId: pending.id, driverId: driver.id }, by)).toEqual({
      ok: false,
      reason: "not-confirmed",
    });

    const assigned = await applyBulkAction(
      input({
        intent: "bulk-assign",
        confirmed: "yes",
        driverId: driver.id,
        orderIds: [pending.id, confirmed.id],
      }),
      by,
      { kind: "all" },
    );
    expect(assigned.outcomes.map((outcome) => [outcome.id, outcome.ok, outcome.message])).toEqual([
      [pending.id, false, "Confirm this order before giving it to a driver"],
      // Already Dana's from the slot's assignment: nothing changes, and that is no failure.
      [confirmed.id, true, "Assigned to Dana"],
    ]);

    const stock = async () =>
      (await db.select().from(productSizes).where(eq(productSizes.id, sizeId)))[0]?.inventoryCount;
    expect(await stock()).toBe(16);
    const cancelled = await applyBulkAction(
      input({
        intent: "bulk-cancel",
        confirmed: "yes",
        reason: "address-not-reachable",
        orderIds: [pending.id, confirmed.id],
      }),
      by,
      { kind: "all" },
    );
    expect(cancelled.outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect(await stock()).toBe(20);
    const rows = await db
      .select({ status: orders.status, cancelReason: orders.cancelReason })
      .from(orders)
      .where(inArray(orders.id, [pending.id, confirmed.id]));
    expect(rows).toEqual([
      { status: "cancelled", cancelReason: "Address not reachable" },
      { status: "cancelled", cancelReason: "Address not reachable" },
    ]);
    const mails = await db
      .select({ orderId: emailOutbox.orderId })
      .from(emailOutbox)
      .where(
        and(
          eq(emailOutbox.kind, "order-cancelled"),
          inArray(emailOutbox.orderId, [pending.id, confirmed.id]),
        ),
      );
    expect(mails).toHaveLength(2);
  });

  it("reads a posted selection: repeated order ids, a review first, printing without one", async () => {
    const { db } = database();
    const { place, by } = await setUp(db);
    const a = await place("10:00 AM-12:00 PM");
    const b = await place("10:00 AM-12:00 PM");
    const form = new FormData();
    form.append("intent", "bulk-confirm");
    form.append("orderIds", a.id);
    form.append("orderIds", b.id);
    const review = await handleBulkPost(form, by, { kind: "all" });
    expect(review.kind).toBe("review");
    expect(await setOrderStatus(a.id, "pending")).toEqual({ ok: true, changed: false });

    const print = new FormData();
    print.append("intent", "bulk-print");
    print.append("slots", `${TOMORROW}|10:00 AM-12:00 PM`);
    const answer = await handleBulkPost(print, by, { kind: "all" });
    expect(answer.kind).toBe("print");
    const location = answer.kind === "print" ? new URL(answer.location, "http://localhost") : null;
    expect(location?.pathname).toBe("/admin/today/driver-slips");
    expect(location?.searchParams.getAll("order")).toEqual([a.id, b.id]);

    const empty = new FormData();
    empty.append("intent", "bulk-cancel");
    expect(await handleBulkPost(empty, by, { kind: "all" })).toEqual({
      kind: "invalid",
      message: "Select at least one order",
    });
  });
});
