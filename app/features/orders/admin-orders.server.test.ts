import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { orderStatusCounts, orders, productSizes } from "#app/db/schema.ts";
import { deleteOrArchiveProduct, getAdminProduct } from "#app/features/catalog/product-admin.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { createFormProduct, placedTestOrder } from "#tests/support/admin-fixtures.server.ts";
import { getDashboardStats, listOrders, setOrderStatus } from "./admin-orders.server.ts";

// A Monday morning in New York: today's slots from noon on are open.
const NOW = new Date("2026-11-23T15:00:00Z");

async function product(name: string, stock: number, priceDollars = 50) {
  const loaded = await createFormProduct(name, [
    { size: "3.5g", price: priceDollars, stock, flowerEquivalent: "3.5" },
  ]);
  return { id: loaded.id, sizeId: loaded.sizes[0]?.id as string };
}

/** A shopper per order: these tests place more than the open orders one person may have. */
function order(items: { productId: string; sizeId: string; quantity: number }[], now = NOW) {
  return placedTestOrder(items, { now });
}

describeEachDatabase("admin orders", (database) => {
  it("moves an order through statuses, keeping counts, revenue and stock right", async () => {
    const { db } = database();
    const p = await product("Status Kush", 10);
    const placed = await order([{ productId: p.id, sizeId: p.sizeId, quantity: 2 }]);
    const stock = async () =>
      (await db.select().from(productSizes).where(eq(productSizes.id, p.sizeId)))[0]?.inventoryCount;
    const counts = async () =>
      Object.fromEntries(
        (await db.select().from(orderStatusCounts)).map((row) => [row.status, row.ordersCount]),
      );
    expect(await stock()).toBe(8);
    const before = await getDashboardStats({ now: NOW });

    expect(await setOrderStatus(placed.id, "confirmed")).toEqual({ ok: true, changed: true });
    expect(await setOrderStatus(placed.id, "confirmed")).toEqual({ ok: true, changed: false });
    expect(await counts()).toMatchObject({ pending: before.statusCounts.pending - 1, confirmed: 1 });

    // Cancelling puts the items back and takes the total out of the open orders' value.
    expect(await setOrderStatus(placed.id, "cancelled")).toEqual({ ok: true, changed: true });
    expect(await stock()).toBe(10);
    const cancelled = await getDashboardStats({ now: NOW });
    expect(cancelled.openValueCents).toBe(before.openValueCents - placed.totalAmountCents);
    expect(cancelled.totalRevenueCents).toBe(before.totalRevenueCents);
    expect(cancelled.totalOrders).toBe(before.totalOrders);
    expect(cancelled.statusCounts.cancelled).toBe(1);

    // Re-opening takes the stock again; refused when it is gone. Delivered, it is revenue.
    expect(await setOrderStatus(placed.id, "delivered")).toEqual({ ok: true, changed: true });
    expect(await stock()).toBe(8);
    expect((await getDashboardStats({ now: NOW })).totalRevenueCents).toBe(
      before.totalRevenueCents + placed.totalAmountCents,
    );
    await setOrderStatus(placed.id, "cancelled");
    await db.update(productSizes).set({ inventoryCount: 1 }).where(eq(productSizes.id, p.sizeId));
    expect(await setOrderStatus(placed.id, "confirmed")).toEqual({
      ok: false,
      reason: "out-of-stock",
      itemName: "Status Kush (3.5g)",
    });
    expect(await stock()).toBe(1);
    expect(await setOrderStatus(randomUUID(), "confirmed")).toEqual({ ok: false, reason: "not-found" });
    expect(await setOrderStatus("not-a-uuid", "confirmed")).toEqual({ ok: false, reason: "not-found" });
  });

  it("counts only delivered orders as revenue, with the open orders' value apart", async () => {
    const p = await product("Revenue Haze", 50, 45);
    const before = await getDashboardStats({ now: NOW });
    const [pending, confirmed, delivered, cancelled] = [
      await order([{ productId: p.id, sizeId: p.sizeId, quantity: 2 }]),
      await order([{ productId: p.id, sizeId: p.sizeId, quantity: 3 }]),
      await order([{ productId: p.id, sizeId: p.sizeId, quantity: 4 }]),
      await order([{ productId: p.id, sizeId: p.sizeId, quantity: 5 }]),
    ];
    await setOrderStatus(confirmed.id, "confirmed");
    await setOrderStatus(delivered.id, "confirmed");
    await setOrderStatus(delivered.id, "out_for_delivery");
    const onTheRoad = await getDashboardStats({ now: NOW });
    expect(onTheRoad.totalRevenueCents).toBe(before.totalRevenueCents);
    await setOrderStatus(delivered.id, "delivered");
    await setOrderStatus(cancelled.id, "cancelled");

    const after = await getDashboardStats({ now: NOW });
    expect(after.totalRevenueCents - before.totalRevenueCents).toBe(delivered.totalAmountCents);
    expect(after.openValueCents - before.openValueCents).toBe(
      pending.totalAmountCents + confirmed.totalAmountCents,
    );
    expect(after.openOrders - before.openOrders).toBe(2);
    // The running sums agree with the orders themselves.
    const { db } = database();
    const [sums] = await db
      .select({
        delivered: sql<string>`coalesce(sum(${orders.totalAmountCents}) FILTER (WHERE ${orders.status} = 'delivered'), 0)::text`,
        open: sql<string>`coalesce(sum(${orders.totalAmountCents}) FILTER (WHERE ${orders.status} IN ('pending', 'confirmed', 'out_for_delivery')), 0)::text`,
      })
      .from(orders);
    expect(after.totalRevenueCents).toBe(Number(sums?.delivered));
    expect(after.openValueCents).toBe(Number(sums?.open));
  });

  it("lists incoming and completed orders newest first, a page at a time, with every item", async () => {
    const a = await product("Page A", 500, 45);
    const b = await product("Page B", 500, 40);
    const placed = [];
    for (let i = 0; i < 7; i++) {
      placed.push(
        await order(
          [
            { productId: a.id, sizeId: a.sizeId, quantity: 1 },
            { productId: b.id, sizeId: b.sizeId, quantity: 1 },
          ],
          new Date(NOW.getTime() + 60_000 * (i + 1)),
        ),
      );
    }
    await setOrderStatus(placed[6]?.id as string, "delivered");
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await listOrders("incoming", { cursor, limit: 3 });
      seen.push(...page.orders.map((o) => o.id));
      for (const o of page.orders) {
        expect(o.status).not.toBe("delivered");
        expect(o.items.map((item) => item.productName).sort()).toEqual(
          o.items.length === 2 ? ["Page A", "Page B"] : o.items.map((item) => item.productName).sort(),
        );
      }
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 50);
    expect(pages).toBeLessThan(50);
    const mine = placed
      .slice(0, 6)
      .map((o) => o.id)
      .reverse();
    expect(seen.filter((id) => mine.includes(id))).toEqual(mine);
    expect(new Set(seen).size).toBe(seen.length);
    const completed = await listOrders("completed");
    expect(completed.orders[0]?.id).toBe(placed[6]?.id);
    expect(completed.orders[0]?.items).toHaveLength(2);
  });

  it("archives a product that past orders refer to and deletes one that none do", async () => {
    const ordered = await product("Ordered Haze", 20);
    await order([{ productId: ordered.id, sizeId: ordered.sizeId, quantity: 2 }]);
    const fresh = await product("Never Ordered", 5);
    expect(await deleteOrArchiveProduct(ordered.id)).toEqual({ outcome: "archived" });
    expect(await deleteOrArchiveProduct(fresh.id)).toEqual({ outcome: "deleted" });
    expect(await getAdminProduct(ordered.id)).toBeNull();
    expect(await getAdminProduct(fresh.id)).toBeNull();
    expect(await deleteOrArchiveProduct(fresh.id)).toEqual({ outcome: "not-found" });
    const incoming = await listOrders("incoming", { limit: 100 });
    expect(incoming.orders.some((o) => o.items.some((item) => item.productName === "Ordered Haze"))).toBe(
      true,
    );
  });

  it("shows the 5 most recent orders and a 30-day series on the dashboard", async () => {
    const stats = await getDashboardStats({ now: new Date(NOW.getTime() + 3_600_000) });
    expect(stats.recentOrders).toHaveLength(5);
    expect(stats.last30Days).toHaveLength(30);
    expect(stats.last30Days.at(-1)?.day).toBe("2026-11-23");
    expect(stats.last30Days.at(-1)?.orders).toBe(stats.totalOrders);
    const times = stats.recentOrders.map((o) => o.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });
});
