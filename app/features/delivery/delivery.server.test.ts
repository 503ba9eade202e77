import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { catalogState, deliveryZones, orders } from "#app/db/schema.ts";
import {
  commitOrder,
  type OrderQuote,
  placeOrder,
  prepareOrder,
} from "#app/features/checkout/place-order.server.ts";
import { changeOrderStatus } from "#app/features/orders/admin-orders.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import {
  insertTestProduct,
  MONDAY_MORNING,
  oneOf,
  placeOrderInput,
  slotBookingsDrift,
  stockOf,
} from "#tests/support/checkout-test-helpers.server.ts";
import {
  addClosure,
  checkoutDeliveryDays,
  getDeliverySettings,
  listDeliveryZones,
  saveDeliverySettings,
  saveDeliveryZone,
} from "./delivery.server.ts";
import { DELIVERY_AREA_SEED } from "./delivery-area-seed.ts";
import { defaultDeliverySettings } from "./delivery-settings.ts";
import { SLOT_FULL_MESSAGE, SLOT_GONE_TODAY_MESSAGE } from "./delivery-slots.ts";

const MONDAY = "2026-11-23";
const TUESDAY = "2026-11-24";

/** Monday's capacity of `slot` set to `capacity` (the others stay high). */
async function setCapacity(slotIndex: number, capacity: number) {
  const settings = defaultDeliverySettings(500);
  (settings.capacities[1] as number[])[slotIndex] = capacity;
  (settings.capacities[2] as number[])[slotIndex] = capacity;
  await saveDeliverySettings(settings);
}

describeEachDatabase("delivery area, slot capacity and closures", (database) => {
  it("seeds the delivery area of the seed file, once, with the migration", async () => {
    const zones = await listDeliveryZones();
    expect(
      zones.map(({ name, state, active, zipCodes, minimumOrderCents }) => ({
        name,
        state,
        active,
        minimumOrderCents,
        zipCodes,
      })),
    ).toEqual(DELIVERY_AREA_SEED.map((zone) => ({ ...zone, zipCodes: [...zone.zipCodes] })));
  });

  it("places exactly 5 of 50 concurrent orders for a slot with room for 5; the others are told it filled up", async () => {
    const { db } = database();
    await setCapacity(0, 5);
    const product = await insertTestProduct(db, { priceCents: 9000, inventoryCount: 1000 });
    // Every order is priced and checked first (each sees the slot empty), then the 50 writes race:
    // only place_order's check under its slot lock stands between them and an oversold slot.
    const inputs = Array.from({ length: 50 }, () => placeOrderInput(oneOf(product)));
    const quotes = await Promise.all(
      inputs.map(async (input) => {
        const prepared = await prepareOrder(input, { now: MONDAY_MORNING });
        if (!prepared.ok || prepared.replay) throw new Error("not prepared");
        return prepared.quote;
      }),
    );
    const results = await Promise.all(
      inputs.map((input, i) => commitOrder(input, quotes[i] as OrderQuote, { now: MONDAY_MORNING })),
    );
    const placed = results.filter((result) => result.ok);
    const refused = results.filter((result) => !result.ok);
    expect(placed).toHaveLength(5);
    expect(refused).toHaveLength(45);
    for (const refusal of refused)
      expect(refusal).toEqual({ ok: false, reason: "slot-full", message: SLOT_FULL_MESSAGE });
    // 0 oversold units: exactly the placed orders' units left stock, no order beyond capacity.
    expect(await stockOf(db, product.sizeId)).toBe(1000 - 5);
    const [count] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(orders)
      .where(sql`${orders.deliveryDate} = ${MONDAY} AND ${orders.deliveryTime} = '10:00 AM-12:00 PM'`);
    expect(Number(count?.n)).toBe(5);
    const day = (await checkoutDeliveryDays(MONDAY_MORNING)).days[0];
    expect(day?.availability[0]).toMatchObject({ status: "full", left: 0 });

    // A cancelled order frees its place.
    const first = placed[0];
    if (!first?.ok) throw new Error("no order");
    await db.transaction((tx) =>
      changeOrderStatus(tx, first.order.id, "cancelled", { cancelReason: "test" }),
    );
    const again = await placeOrder(placeOrderInput(oneOf(product)), { now: MONDAY_MORNING });
    expect(again.ok).toBe(true);
    expect(await slotBookingsDrift(db)).toEqual([]);
  });

  it("shows 'Only N left' from 3 places down, and the SQL check answers full for a reopen", async () => {
    const { db } = database();
    await setCapacity(1, 4);
    const product = await insertTestProduct(db, { priceCents: 9000 });
    const input = () => placeOrderInput(oneOf(product));
    expect((await checkoutDeliveryDays(MONDAY_MORNING)).days[0]?.availability[1]).toMatchObject({
      status: "open",
      left: 4,
    });
    const placed = await placeOrder({ ...input(), timeSlot: "12:00 PM-2:00 PM" }, { now: MONDAY_MORNING });
    expect((await checkoutDeliveryDays(MONDAY_MORNING)).days[0]?.availability[1]).toMatchObject({
      status: "few",
      left: 3,
    });
    for (let i = 0; i < 3; i++) {
      expect(
        (await placeOrder({ ...input(), timeSlot: "12:00 PM-2:00 PM" }, { now: MONDAY_MORNING })).ok,
      ).toBe(true);
    }
    if (!placed.ok) throw new Error("not placed");
    // What a reopen of a cancelled order calls (the order itself is not counted).
    await db.transaction((tx) =>
      changeOrderStatus(tx, placed.order.id, "cancelled", { cancelReason: "test" }),
    );
    const ask = async (orderId: string | null) => {
      const result = await db.execute(
        sql`SELECT refusal, reason FROM delivery_slot_refusal(${MONDAY}::date, '12:00 PM-2:00 PM', 4, ${orderId}::uuid)`,
      );
      return (result as unknown as { rows: { refusal: string | null }[] }).rows[0]?.refusal ?? null;
    };
    expect(await ask(placed.order.id)).toBeNull();
    expect((await placeOrder({ ...input(), timeSlot: "12:00 PM-2:00 PM" }, { now: MONDAY_MORNING })).ok).toBe(
      true,
    );
    expect(await ask(placed.order.id)).toBe("full");
    expect(await slotBookingsDrift(db)).toEqual([]);
  });

  it("refuses a closed date or slot with its reason, and the checkout shows it closed", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000 });
    await addClosure({ date: TUESDAY, slot: null, reason: "Thanksgiving" });
    await addClosure({ date: MONDAY, slot: "4:00 PM-6:00 PM", reason: "Staff training" });
    const days = (await checkoutDeliveryDays(MONDAY_MORNING)).days;
    expect(days[0]?.availability.find((slot) => slot.label === "4:00 PM-6:00 PM")).toMatchObject({
      status: "closed",
      reason: "Staff training",
    });
    expect(
      days[1]?.availability.every((slot) => slot.status === "closed" && slot.reason === "Thanksgiving"),
    ).toBe(true);
    const refused = await placeOrder(
      {
        ...placeOrderInput(oneOf(product)),
        deliveryDate: TUESDAY,
        timeSlot: "2:00 PM-4:00 PM",
      },
      { now: MONDAY_MORNING },
    );
    expect(refused).toEqual({
      ok: false,
      reason: "delivery",
      field: "timeSlot",
      message: "We're not delivering at this time: Thanksgiving. Please choose another.",
    });
  });

  it("follows the same-day cut-off and lead time, as staff set them", async () => {
    const { db } = database();
    await saveDeliverySettings(defaultDeliverySettings(500));
    const product = await insertTestProduct(db, { priceCents: 9000 });
    const order = (timeSlot: string, deliveryDate = MONDAY) => ({
      ...placeOrderInput(oneOf(product)),
      deliveryDate,
      timeSlot,
    });
    // Mon 11:05 AM: 10–12 ends within the 60 minutes' lead, 12–2 is still offered.
    const late = new Date("2026-11-23T16:05:00Z");
    expect(await placeOrder(order("10:00 AM-12:00 PM"), { now: late })).toEqual({
      ok: false,
      reason: "delivery",
      field: "timeSlot",
      message: SLOT_GONE_TODAY_MESSAGE,
    });
    expect((await placeOrder(order("12:00 PM-2:00 PM"), { now: late })).ok).toBe(true);
    // Mon 7:00 PM: past the cut-off, today is closed (6–8 PM would still be running).
    const evening = new Date("2026-11-24T00:00:00Z");
    expect(await placeOrder(order("6:00 PM-8:00 PM"), { now: evening })).toMatchObject({
      message: SLOT_GONE_TODAY_MESSAGE,
    });
    const { days, defaultDate } = await checkoutDeliveryDays(evening);
    expect(days[0]).toMatchObject({ closedForToday: true, slots: [] });
    expect(defaultDate).toBe(TUESDAY);
    // A later cut-off set by staff (9 PM on Mondays) offers 6–8 PM until 7 PM only (lead time).
    const settings = await getDeliverySettings();
    await saveDeliverySettings({
      ...settings,
      cutoffMinutes: settings.cutoffMinutes.map((m, d) => (d === 1 ? 21 * 60 : m)),
    });
    expect((await checkoutDeliveryDays(new Date("2026-11-23T23:30:00Z"))).days[0]?.slots).toEqual([
      "6:00 PM-8:00 PM",
    ]);
    expect((await checkoutDeliveryDays(evening)).days[0]).toMatchObject({ closedForToday: false, slots: [] });
  });

  it("refuses a ZIP outside the area or of the other state, and applies a zone's own minimum", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000 });
    const base = placeOrderInput(oneOf(product));
    expect(await placeOrder({ ...base, zipCode: "23220", state: "VA" }, { now: MONDAY_MORNING })).toEqual({
      ok: false,
      reason: "delivery-area",
      message: "We don't deliver to 23220 yet. We deliver in Washington DC and Northern Virginia.",
    });
    expect(await placeOrder({ ...base, zipCode: "20001", state: "VA" }, { now: MONDAY_MORNING })).toEqual({
      ok: false,
      reason: "delivery-area",
      message: "20001 is not a Virginia ZIP code. Check the state and the ZIP.",
    });
    const [fairfax] = await db.select().from(deliveryZones).where(eq(deliveryZones.name, "City of Fairfax"));
    if (!fairfax) throw new Error("no zone");
    const saved = await saveDeliveryZone({
      id: fairfax.id,
      name: fairfax.name,
      state: "VA",
      active: true,
      zipCodes: fairfax.zipCodes,
      minimumOrder: 10_000,
    });
    expect(saved.ok).toBe(true);
    expect(await placeOrder({ ...base, zipCode: "22030", state: "VA" }, { now: MONDAY_MORNING })).toEqual({
      ok: false,
      reason: "minimum",
      totalCents: 9000,
      minimumCents: 10_000,
    });
    // Deactivated: out of the area.
    await saveDeliveryZone({
      id: fairfax.id,
      name: fairfax.name,
      state: "VA",
      active: false,
      zipCodes: fairfax.zipCodes,
      minimumOrder: null,
    });
    expect(
      await placeOrder({ ...base, zipCode: "22030-1234", state: "VA" }, { now: MONDAY_MORNING }),
    ).toMatchObject({
      reason: "delivery-area",
      message: "We don't deliver to 22030 yet. We deliver in Washington DC and Northern Virginia.",
    });
  });

  it("refuses a zone save that puts a ZIP in two active zones, and a zone change marks cached pages stale", async () => {
    const { db } = database();
    const [before] = await db.select({ version: catalogState.version }).from(catalogState);
    expect(
      await saveDeliveryZone({
        name: "Richmond",
        state: "VA",
        active: true,
        zipCodes: ["23220", "22201"],
        minimumOrder: null,
      }),
    ).toEqual({
      ok: false,
      field: "zipCodes",
      message: "Already in another active zone: 22201 (Arlington County)",
    });
    const added = await saveDeliveryZone({
      name: "Richmond",
      state: "VA",
      active: true,
      zipCodes: ["23220"],
      minimumOrder: 12_000,
    });
    expect(added.ok).toBe(true);
    const [after] = await db.select({ version: catalogState.version }).from(catalogState);
    expect(Number(after?.version)).toBeGreaterThan(Number(before?.version));
  });

  it("stores 'I'll pay with' and refuses an amount below the total", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 8650 });
    const base = placeOrderInput(oneOf(product));
    expect(await placeOrder({ ...base, payWith: 8000 }, { now: MONDAY_MORNING })).toEqual({
      ok: false,
      reason: "pay-with",
      message: "Enter at least your total of $86.50, or leave this empty.",
    });
    const placed = await placeOrder({ ...base, payWith: 10_000 }, { now: MONDAY_MORNING });
    if (!placed.ok) throw new Error("not placed");
    const [row] = await db
      .select({ payWith: orders.payWithCents })
      .from(orders)
      .where(eq(orders.id, placed.order.id));
    expect(row?.payWith).toBe(10_000);
    const mails = await db.execute(
      sql`SELECT kind, text_body FROM email_outbox WHERE order_id = ${placed.order.id} ORDER BY kind`,
    );
    const shopMail = (mails as unknown as { rows: { kind: string; text_body: string }[] }).rows.find(
      (mail) => mail.kind === "order-notification",
    );
    expect(shopMail?.text_body).toContain("Bring $13.50 change");
  });
});
