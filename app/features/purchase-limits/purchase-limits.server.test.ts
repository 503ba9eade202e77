import { eq, inArray, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { catalogState, orders, productSizes } from "#app/db/schema.ts";
import { insertProduct } from "#app/features/catalog/product-factory.server.ts";
import { placeOrder } from "#app/features/checkout/place-order.server.ts";
import { listOrders } from "#app/features/orders/admin-orders.server.ts";
import { getOrderByToken } from "#app/features/orders/orders.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { postCheckout } from "#tests/support/checkout-posts.server.ts";
import {
  insertTestProduct,
  MONDAY_MORNING,
  placeOrderInput,
  stockLeft as stockOf,
} from "#tests/support/checkout-test-helpers.server.ts";
import {
  fillMissingFlowerEquivalents,
  getPurchaseLimitSettings,
  savePurchaseLimitSettings,
} from "./purchase-limits.server.ts";
import { DEFAULT_PURCHASE_LIMITS } from "./purchase-limits.ts";

describeEachDatabase("purchase limits (P-28)", (database) => {
  it("refuses a 100-line order of repeated lines by the merged quantity, reserving nothing", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { name: "Hoarder Kush", inventoryCount: 100_000 });
    const ordersBefore = await db.$count(orders);
    const line = { productId: product.productId, sizeId: product.sizeId, quantity: 999 };
    const result = await postCheckout(Array.from({ length: 100 }, () => line));
    expect(result).toMatchObject({
      ok: false,
      status: 400,
      toast: {
        title: "Purchase limit",
        description: "You can order at most 10 of Hoarder Kush (3.5g) per order.",
      },
    });
    // Eleven lines of one each are merged into eleven of one size, and refused the same way.
    const eleven = await placeOrder(
      placeOrderInput(Array.from({ length: 11 }, () => ({ ...line, quantity: 1 }))),
      { now: MONDAY_MORNING },
    );
    expect(eleven).toMatchObject({ ok: false, reason: "purchase-limit" });
    expect(await stockOf(product.sizeId)).toBe(100_000);
    expect(await db.$count(orders)).toBe(ordersBefore);
  });

  it("limits the weight by the delivery state and names the limit (DC 56 g, VA 28 g)", async () => {
    const { db } = database();
    const flower = await insertTestProduct(db, { name: "Heavy OG", priceCents: 4000 }); // 3.5 g each
    const preRolls = await insertProduct(db, {
      name: "Mini Pack",
      category: "Pre Rolls",
      sizes: [{ size: "5 x 0.5g pack", priceCents: 4000, inventoryCount: 50 }],
    });
    const preRoll = preRolls.sizes[0] as { id: string };
    const items = [
      { productId: flower.productId, sizeId: flower.sizeId, quantity: 8 },
      { productId: preRolls.id, sizeId: preRoll.id, quantity: 1 },
    ]; // 28 g + 2.5 g = 30.5 g
    const virginia = await postCheckout(items, { state: "VA", zipCode: "22201" });
    expect(virginia).toMatchObject({
      ok: false,
      status: 400,
      toast: {
        description:
          "Your order comes to 30.5 g of flower equivalent; the limit for Virginia is 28 g per order.",
      },
    });
    expect(await stockOf(flower.sizeId)).toBe(100);

    const dc = await placeOrder(placeOrderInput(items), { now: MONDAY_MORNING });
    expect(dc.ok).toBe(true);
    expect(await stockOf(flower.sizeId)).toBe(92);

    const overDc = await placeOrder(
      placeOrderInput([
        { productId: flower.productId, sizeId: flower.sizeId, quantity: 10 },
        { productId: preRolls.id, sizeId: preRoll.id, quantity: 10 },
      ]),
      { now: MONDAY_MORNING },
    ); // 35 g + 25 g = 60 g
    expect(overDc).toEqual({
      ok: false,
      reason: "purchase-limit",
      message:
        "Your order comes to 60 g of flower equivalent; the limit for Washington DC is 56 g per order.",
    });
  });

  it("enforces the limits saved in the settings, and marks cached pages stale when the cap changes", async () => {
    const { db } = database();
    expect(await getPurchaseLimitSettings()).toEqual(DEFAULT_PURCHASE_LIMITS);
    const flower = await insertTestProduct(db, { name: "Settings Haze", priceCents: 4000 });
    const twelve = placeOrderInput([{ productId: flower.productId, sizeId: flower.sizeId, quantity: 12 }]);
    const va = { ...twelve, state: "VA" as const, zipCode: "22201" };
    expect(await placeOrder(va, { now: MONDAY_MORNING })).toMatchObject({
      ok: false,
      reason: "purchase-limit",
    });

    const version = async () =>
      (await db.select({ version: catalogState.version }).from(catalogState))[0]?.version;
    const before = await version();
    await savePurchaseLimitSettings({
      ...DEFAULT_PURCHASE_LIMITS,
      stateLimitsMg: { DC: 56_000, VA: 42_000 },
      maxQuantityPerSize: 12,
    });
    expect(await version()).toBe((before as number) + 1);
    expect(await getPurchaseLimitSettings()).toMatchObject({
      stateLimitsMg: { DC: 56_000, VA: 42_000 },
      maxQuantityPerSize: 12,
    });
    expect(await placeOrder(va, { now: MONDAY_MORNING })).toMatchObject({ ok: true }); // 42 g in VA

    // Weight limits alone are not on any cached page.
    await savePurchaseLimitSettings({ ...DEFAULT_PURCHASE_LIMITS, maxQuantityPerSize: 12 });
    expect(await version()).toBe((before as number) + 1);
    await savePurchaseLimitSettings(DEFAULT_PURCHASE_LIMITS);
  });

  it("gives sizes saved before the limits a weight at start-up, once", async () => {
    const { db } = database();
    const edible = await insertProduct(db, {
      name: "Old Gummies",
      category: "Edibles",
      thcMg: 100,
      sizes: [
        { size: "10 pack", priceCents: 2500 },
        { size: "20 pack", priceCents: 4500 },
      ],
    });
    const ids = edible.sizes.map((size) => size.id);
    await db.update(productSizes).set({ flowerEquivalentMg: null }).where(inArray(productSizes.id, ids));
    await savePurchaseLimitSettings({
      ...DEFAULT_PURCHASE_LIMITS,
      equivalences: { ...DEFAULT_PURCHASE_LIMITS.equivalences, ediblesPer100MgThcMg: 2000 },
    });
    expect(await fillMissingFlowerEquivalents()).toBe(2);
    const weights = await db
      .select({ size: productSizes.size, mg: productSizes.flowerEquivalentMg })
      .from(productSizes)
      .where(inArray(productSizes.id, ids))
      .orderBy(productSizes.position);
    expect(weights).toEqual([
      { size: "10 pack", mg: 2000 },
      { size: "20 pack", mg: 4000 },
    ]);
    expect(await fillMissingFlowerEquivalents()).toBe(0);
    await savePurchaseLimitSettings(DEFAULT_PURCHASE_LIMITS);
  });

  it("stores and reads back exactly an order total above $21,474,836.47 (bigint totals)", async () => {
    const { db } = database();
    // Mushrooms weigh 0 g, so the weight limit does not bound the total: the columns must.
    const product = await insertProduct(db, {
      name: "Golden Truffle",
      category: "Mushrooms",
      sizes: [{ size: "1 kg", priceCents: 2_000_000_000, inventoryCount: 5 }],
    });
    const size = product.sizes[0] as { id: string };
    const result = await placeOrder(
      placeOrderInput([{ productId: product.id, sizeId: size.id, quantity: 3 }]),
      { now: MONDAY_MORNING },
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.order.totalAmountCents).toBe(6_000_000_000);
    const order = await getOrderByToken(result.order.publicToken);
    expect(order?.totalAmountCents).toBe(6_000_000_000);
    expect(order?.items[0]?.totalPriceCents).toBe(6_000_000_000);
    const listed = (await listOrders("incoming")).orders.find((row) => row.id === result.order.id);
    expect(listed?.totalAmountCents).toBe(6_000_000_000);
    const [raw] = (
      (await db.execute(
        sql`SELECT total_amount_cents::text AS total FROM orders WHERE id = ${result.order.id}`,
      )) as {
        rows: { total: string }[];
      }
    ).rows;
    expect(raw?.total).toBe("6000000000");
    // A replayed submit reads the stored total back through place_order's JSON.
    const replay = await placeOrder(
      placeOrderInput([{ productId: product.id, sizeId: size.id, quantity: 3 }], {
        idempotencyKey: (
          await db.select({ key: orders.idempotencyKey }).from(orders).where(eq(orders.id, result.order.id))
        )[0]?.key as string,
      }),
      { now: MONDAY_MORNING },
    );
    expect(replay).toMatchObject({ ok: true, replayed: true, order: { totalAmountCents: 6_000_000_000 } });
  });
});
