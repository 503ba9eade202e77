import { eq, inArray } from "drizzle-orm";
import { expect, it } from "vitest";
import { orderDailyStats, orderStatusCounts, orders, productSizes } from "#app/db/schema.ts";
import { placeOrder } from "#app/features/checkout/place-order.server.ts";
import { endedSlots } from "#app/features/delivery/delivery-slots.ts";
import { describeEachDatabase } from "#tests/db.ts";
import {
  insertTestProduct,
  MONDAY_MORNING,
  placeOrderInput,
} from "#tests/support/checkout-test-helpers.server.ts";
import { getDashboardStats, setOrderStatus } from "./admin-orders.server.ts";
import { cancelUnconfirmedOrders, NOT_CONFIRMED_IN_TIME } from "./auto-cancel.server.ts";

/** Monday 23 Nov 2026, 12:05 PM in New York: the 10-12 slot has just ended. */
const AFTER_FIRST_SLOT = new Date("2026-11-23T17:05:00Z");

describeEachDatabase("cancelling orders not confirmed in time", (database) => {
  it("cancels pending orders whose slot ended, puts the stock back and moves the totals like staff would", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000, inventoryCount: 10 });
    const items = [{ productId: product.productId, sizeId: product.sizeId, quantity: 2 }];
    const place = async (timeSlot: string) => {
      const input = { ...placeOrderInput(items), timeSlot };
      const result = await placeOrder(input, { now: MONDAY_MORNING });
      if (!result.ok) throw new Error(`not placed: ${result.reason}`);
      return result.order.id;
    };
    const ended = await place("10:00 AM-12:00 PM");
    const endedButConfirmed = await place("10:00 AM-12:00 PM");
    const later = await place("12:00 PM-2:00 PM");
    await setOrderStatus(endedButConfirmed, "confirmed", { now: MONDAY_MORNING });
    const stock = async () =>
      (await db.select().from(productSizes).where(eq(productSizes.id, product.sizeId)))[0]?.inventoryCount;
    expect(await stock()).toBe(4);
    const before = await getDashboardStats({ now: MONDAY_MORNING });

    // Before the slot ends, nothing happens.
    expect(await cancelUnconfirmedOrders({ now: new Date("2026-11-23T16:59:00Z") })).toBe(0);
    // Two instances running the job at once cancel the order once.
    const runs = await Promise.all([
      cancelUnconfirmedOrders({ now: AFTER_FIRST_SLOT }),
      cancelUnconfirmedOrders({ now: AFTER_FIRST_SLOT }),
    ]);
    expect(runs[0] + runs[1]).toBe(1);

    const rows = await db
      .select({ id: orders.id, status: orders.status, cancelReason: orders.cancelReason })
      .from(orders)
      .where(inArray(orders.id, [ended, endedButConfirmed, later]));
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(ended)).toMatchObject({ status: "cancelled", cancelReason: NOT_CONFIRMED_IN_TIME });
    expect(byId.get(endedButConfirmed)).toMatchObject({ status: "confirmed", cancelReason: null });
    expect(byId.get(later)).toMatchObject({ status: "pending" });
    expect(await stock()).toBe(6);

    const after = await getDashboardStats({ now: MONDAY_MORNING });
    expect(after.statusCounts.cancelled - before.statusCounts.cancelled).toBe(1);
    expect(after.statusCounts.pending - before.statusCounts.pending).toBe(-1);
    expect(before.openValueCents - after.openValueCents).toBe(18000);
    expect(after.totalRevenueCents).toBe(before.totalRevenueCents);
    const [day] = await db.select().from(orderDailyStats).where(eq(orderDailyStats.day, "2026-11-23"));
    expect(day?.ordersCount).toBeGreaterThanOrEqual(3);
    const counts = await db.select().from(orderStatusCounts);
    expect(counts.every((row) => row.ordersCount >= 0)).toBe(true);

    // A later run leaves it alone; staff can still un-cancel it, which clears the reason.
    expect(await cancelUnconfirmedOrders({ now: AFTER_FIRST_SLOT })).toBe(0);
    await setOrderStatus(ended, "confirmed");
    const [reopened] = await db.select().from(orders).where(eq(orders.id, ended));
    expect(reopened).toMatchObject({ status: "confirmed", cancelReason: null });
    expect(await stock()).toBe(4);

    // The next morning, yesterday's pending orders are all past their slot.
    expect(await cancelUnconfirmedOrders({ now: new Date("2026-11-24T14:00:00Z") })).toBe(1);
  });

  it("knows which slots have ended in New York, whatever the server's zone", () => {
    expect(endedSlots("2026-11-23", MONDAY_MORNING)).toEqual([]);
    expect(endedSlots("2026-11-23", AFTER_FIRST_SLOT)).toEqual(["10:00 AM-12:00 PM"]);
    expect(endedSlots("2026-11-22", MONDAY_MORNING)).toHaveLength(5);
    expect(endedSlots("2026-11-24", AFTER_FIRST_SLOT)).toEqual([]);
  });
});
