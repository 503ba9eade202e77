import { expect, it } from "vitest";
import { describeEachDatabase } from "#tests/db.ts";
import { createFormProduct, placedTestOrder } from "#tests/support/admin-fixtures.server.ts";
import { setOrderStatus } from "./admin-orders.server.ts";
import {
  countPlacedOrders,
  getDayBoard,
  getDriverSlips,
  getPickList,
  getTodayFigures,
} from "./day-board.server.ts";

// A Monday morning in New York: every slot of the day is still open.
const NOW = new Date("2026-11-23T14:00:00Z");
const TODAY = "2026-11-23";
const TOMORROW = "2026-11-24";

async function product(name: string, sizes: { size: string; price: number }[]) {
  const loaded = await createFormProduct(name, sizes, {
    category: "Edibles",
    strain: null,
    thcPercentage: "",
    thcMg: "10",
  });
  return { id: loaded.id, sizeIds: loaded.sizes.map((size) => size.id) };
}

let placedOrders = 0;

function order(
  name: string,
  date: string,
  timeSlot: string,
  items: { productId: string; sizeId: string; quantity: number }[],
  notes: string | null = null,
) {
  placedOrders += 1;
  // A second apart: the board lists a slot's orders first placed first.
  const now = new Date(NOW.getTime() + placedOrders * 1000);
  return placedTestOrder(items, { name, deliveryDate: date, timeSlot, notes, now });
}

describeEachDatabase("the day's work", () => {
  it("groups a date's orders by slot with counts, and bounds the orders shown per slot", async () => {
    const gummies = await product("Board Gummies", [{ size: "10 pack", price: 45 }]);
    const line = (quantity: number) => [
      { productId: gummies.id, sizeId: gummies.sizeIds[0] as string, quantity },
    ];
    const early = await order("Early Bird", TOMORROW, "10:00 AM-12:00 PM", line(2));
    const noonA = await order("Noon A", TOMORROW, "12:00 PM-2:00 PM", line(2));
    const noonB = await order("Noon B", TOMORROW, "12:00 PM-2:00 PM", line(3));
    const gone = await order("Gone Away", TOMORROW, "12:00 PM-2:00 PM", line(2));
    await order("Other Day", TODAY, "12:00 PM-2:00 PM", line(2));
    await setOrderStatus(gone.id, "cancelled");
    await setOrderStatus(noonB.id, "delivered");

    const board = await getDayBoard(TOMORROW);
    expect(board.slots.map((slot) => slot.label)).toEqual([
      "10:00 AM-12:00 PM",
      "12:00 PM-2:00 PM",
      "2:00 PM-4:00 PM",
      "4:00 PM-6:00 PM",
      "6:00 PM-8:00 PM",
    ]);
    const [ten, noon, two] = board.slots;
    expect(ten?.orders.map((o) => o.customerName)).toEqual(["Early Bird"]);
    // Cancelled orders free their place and leave the board; delivered ones stay, marked.
    expect(noon).toMatchObject({ count: 2, cancelled: 1, toCollectCents: noonA.totalAmountCents });
    expect(noon?.orders.map((o) => [o.customerName, o.status])).toEqual([
      ["Noon A", "pending"],
      ["Noon B", "delivered"],
    ]);
    expect(noon?.orders[0]?.items).toMatchObject([
      { productName: "Board Gummies", sizeLabel: "10 pack", quantity: 2 },
    ]);
    expect(two).toMatchObject({ count: 0, orders: [] });
    expect(noon?.capacity).toBeUndefined();
    expect(board.orders).toBe(3);
    expect(board.toCollectCents).toBe(early.totalAmountCents + noonA.totalAmountCents);

    // Capacity is shown when known; one slot on its own; at most `perSlot` orders each.
    const capacities = new Map([["12:00 PM-2:00 PM", 8]]);
    expect((await getDayBoard(TOMORROW, { capacities })).slots[1]?.capacity).toBe(8);
    // A closed slot that kept its orders says so; an empty closed slot has nothing to mark.
    const closures = [
      { date: TOMORROW, slot: "12:00 PM-2:00 PM", reason: "Van in the shop" },
      { date: TOMORROW, slot: "2:00 PM-4:00 PM", reason: "Short-staffed" },
    ];
    const closed = await getDayBoard(TOMORROW, { closures });
    expect(closed.slots.map((slot) => slot.closedReason)).toEqual([
      undefined,
      "Van in the shop",
      undefined,
      undefined,
      undefined,
    ]);
    const wholeDay = await getDayBoard(TOMORROW, {
      closures: [{ date: TOMORROW, slot: null, reason: "Storm" }],
    });
    expect(wholeDay.slots.map((slot) => slot.closedReason)).toEqual([
      "Storm",
      "Storm",
      undefined,
      undefined,
      undefined,
    ]);
    const one = await getDayBoard(TOMORROW, { slot: "12:00 PM-2:00 PM", perSlot: 1 });
    expect(one.slots.map((slot) => [slot.label, slot.count, slot.orders.length])).toEqual([
      ["12:00 PM-2:00 PM", 2, 1],
    ]);
  });

  it("sums the pick list by product and size and prints one slip per order to deliver", async () => {
    const pick = await product("Pick Haze", [
      { size: "3.5g", price: 40 },
      { size: "7g", price: 85 },
    ]);
    const [small, large] = pick.sizeIds as [string, string];
    const date = TODAY; // the first test also put an order on 12:00 PM-2:00 PM today
    const slot = "2:00 PM-4:00 PM";
    const pat = await order(
      "Pat Picker",
      date,
      slot,
      [
        { productId: pick.id, sizeId: small, quantity: 2 },
        { productId: pick.id, sizeId: large, quantity: 1 },
      ],
      "Ring twice",
    );
    const quinn = await order("Quinn Picker", date, slot, [
      { productId: pick.id, sizeId: small, quantity: 3 },
    ]);
    const done = await order("Done Already", date, slot, [
      { productId: pick.id, sizeId: small, quantity: 4 },
    ]);
    const evening = await order("Evening", date, "6:00 PM-8:00 PM", [
      { productId: pick.id, sizeId: large, quantity: 1 },
    ]);
    await setOrderStatus(done.id, "delivered");

    // Pending orders do not go downstream: nothing to pack, no slips, until staff ask for them.
    expect(await getPickList(date)).toEqual([]);
    expect(await getDriverSlips(date)).toEqual({ slips: [], total: 0 });
    const withPending = await getPickList(date, { slot, includePending: true });
    expect(withPending).toMatchObject([{ label: slot, orders: 2, pending: 2 }]);
    expect((await getDriverSlips(date, { includePending: true })).total).toBe(4);

    for (const { id } of [pat, quinn, evening]) await setOrderStatus(id, "confirmed");

    const list = (await getPickList(date)).filter((slot) => slot.label !== "12:00 PM-2:00 PM");
    expect(list).toEqual([
      {
        label: slot,
        orders: 2,
        pending: 0,
        lines: [
          { productName: "Pick Haze", sizeLabel: "3.5g", quantity: 5, orders: 2 },
          { productName: "Pick Haze", sizeLabel: "7g", quantity: 1, orders: 1 },
        ],
      },
      {
        label: "6:00 PM-8:00 PM",
        orders: 1,
        pending: 0,
        lines: [{ productName: "Pick Haze", sizeLabel: "7g", quantity: 1, orders: 1 }],
      },
    ]);
    expect((await getPickList(date, { slot: "6:00 PM-8:00 PM" })).map((s) => s.label)).toEqual([
      "6:00 PM-8:00 PM",
    ]);

    const slips = await getDriverSlips(date);
    // "Other Day" (12:00 PM-2:00 PM, the first test's) is still pending: left out.
    expect(slips.total).toBe(3);
    expect(
      slips.slips
        .filter((slip) => slip.customerName !== "Other Day")
        .map((slip) => [slip.customerName, slip.deliveryTime, slip.notes]),
    ).toEqual([
      ["Pat Picker", slot, "Ring twice"],
      ["Quinn Picker", slot, null],
      ["Evening", "6:00 PM-8:00 PM", null],
    ]);
    expect(
      slips.slips
        .find((slip) => slip.customerName === "Pat Picker")
        ?.items.map((item) => [item.sizeLabel, item.quantity])
        .sort(),
    ).toEqual([
      ["3.5g", 2],
      ["7g", 1],
    ]);
  });

  it("gives today's figures: orders placed today, deliveries by status, revenue and expected", async () => {
    const glance = await product("Glance Kush", [{ size: "1g", price: 90 }]);
    const line = [{ productId: glance.id, sizeId: glance.sizeIds[0] as string, quantity: 1 }];
    const before = await getTodayFigures({ now: NOW });
    const placedBefore = await countPlacedOrders();
    const a = await order("Today A", TODAY, "4:00 PM-6:00 PM", line);
    const b = await order("Today B", TODAY, "4:00 PM-6:00 PM", line);
    const c = await order("Today C", TODAY, "6:00 PM-8:00 PM", line);
    await order("Tomorrow D", TOMORROW, "4:00 PM-6:00 PM", line);
    await setOrderStatus(a.id, "delivered");
    await setOrderStatus(b.id, "confirmed");
    await setOrderStatus(c.id, "cancelled");

    const after = await getTodayFigures({ now: NOW });
    expect(after.date).toBe(TODAY);
    // Every order placed at NOW counts as placed today, whatever its delivery date.
    expect(after.placed - before.placed).toBe(4);
    expect(await countPlacedOrders()).toBe(placedBefore + 4);
    const by = (figures: typeof after, status: string) =>
      figures.deliveries.find((row) => row.status === status) ?? { orders: 0, totalCents: 0 };
    expect(by(after, "delivered").orders - by(before, "delivered").orders).toBe(1);
    expect(by(after, "confirmed").orders - by(before, "confirmed").orders).toBe(1);
    expect(by(after, "cancelled").orders - by(before, "cancelled").orders).toBe(1);
    expect(after.revenueCents - before.revenueCents).toBe(a.totalAmountCents);
    const expected = (figures: typeof after) =>
      figures.expected.reduce((sum, row) => sum + row.totalCents, 0);
    expect(expected(after) - expected(before)).toBe(b.totalAmountCents);
    expect(after.expected.map((row) => row.status)).not.toContain("delivered");
    expect(after.deliveries.map((row) => row.status)).toEqual(
      ["pending", "confirmed", "delivered", "cancelled"].filter((status) =>
        after.deliveries.some((row) => row.status === status),
      ),
    );
  });
});
