/**
 * P-29 against a real database: open orders per person, the hourly order budget per client
 * address, and single-use photo tokens. The limits stay at their defaults here.
 */
import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { orders, rateLimits } from "#app/db/schema.ts";
import { commitOrder, placeOrder, prepareOrder } from "#app/features/checkout/place-order.server.ts";
import { setOrderStatus } from "#app/features/orders/admin-orders.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { postCheckout, sendPhotoAhead } from "#tests/support/checkout-posts.server.ts";
import {
  insertTestProduct,
  MONDAY_MORNING,
  oneOf,
  placedOrderRow,
  placeOrderInput,
  stockLeft as stockOf,
} from "#tests/support/checkout-test-helpers.server.ts";

/** An order of `items` from `clientAddress`, its ID photo sent ahead. */
async function orderFrom(items: Parameters<typeof postCheckout>[0], clientAddress: string) {
  return postCheckout(items, { idPhotoToken: await sendPhotoAhead() }, { file: null, clientAddress });
}

describeEachDatabase("anti-hoarding", (database) => {
  /** The hourly order budget's points for `key`, in the table every instance on the database shares. */
  async function orderBudgetPoints(key: string) {
    const { db } = database();
    const [row] = await db
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, `cg-checkout:${key}`));
    return row?.points;
  }

  it("refuses a 3rd open order for one phone number, whatever the e-mail, and takes it once one is delivered", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000 });
    const items = oneOf(product);
    // The same number written three ways: only its digits count.
    const phones = ["(202) 555-7788", "202-555-7788", "2025557788"];
    const placed: string[] = [];
    for (const phone of phones.slice(0, 2)) {
      const result = await postCheckout(items, { phone });
      expect(result.ok).toBe(true);
      if (result.ok) placed.push(result.token);
    }
    const third = await postCheckout(items, { phone: phones[2] as string });
    const message =
      "You already have 2 open orders with this phone number. We can take a new one once one of them is delivered — or call us at (202) 555-0142.";
    expect(third).toMatchObject({
      ok: false,
      status: 409,
      fieldErrors: { phone: message },
      toast: { title: "Too many open orders", description: message },
    });
    // No stock taken by the refused order.
    expect(await stockOf(product.sizeId)).toBe(98);

    const first = await placedOrderRow(placed[0] as string);
    await setOrderStatus(first.id, "delivered");
    const again = await postCheckout(items, { phone: phones[2] as string });
    expect(again.ok).toBe(true);
  });

  it("refuses a 3rd open order for one e-mail address, whatever its case or the phone", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000 });
    const items = oneOf(product);
    for (const email of ["Hoarder@Example.com", "hoarder@example.com"]) {
      expect((await placeOrder(placeOrderInput(items, { email }), { now: MONDAY_MORNING })).ok).toBe(true);
    }
    const third = await placeOrder(placeOrderInput(items, { email: "HOARDER@example.com" }), {
      now: MONDAY_MORNING,
    });
    expect(third).toEqual({ ok: false, reason: "open-orders", contact: "email", limit: 2 });
    const refused = await postCheckout(items, { email: "hoarder@example.com" });
    expect(refused).toMatchObject({
      ok: false,
      status: 409,
      fieldErrors: {
        email:
          "You already have 2 open orders with this email address. We can take a new one once one of them is delivered — or call us at (202) 555-0142.",
      },
    });
    expect(await stockOf(product.sizeId)).toBe(98);
  });

  it("places exactly 2 of 10 parallel orders for one phone number", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000, inventoryCount: 50 });
    const items = oneOf(product);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        placeOrder(placeOrderInput(items, { phone: "(703) 555-0199" }), { now: MONDAY_MORNING }),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(2);
    expect(results.filter((result) => !result.ok && result.reason === "open-orders")).toHaveLength(8);
    expect(await stockOf(product.sizeId)).toBe(48);
    const [open] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(orders)
      .where(sql`regexp_replace(${orders.phone}, '\\D', '', 'g') = '7035550199'`);
    expect(open?.count).toBe(2);
  });

  it("answers the 6th order in an hour from one address with 429 and Retry-After; a typo costs nothing", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000 });
    const items = oneOf(product);
    const clientAddress = "198.51.100.23";
    const submit = (overrides: Record<string, string> = {}) =>
      postCheckout(items, overrides, { file: null, clientAddress });

    // Refused posts (a typo, a missing photo) do not spend the budget.
    for (let i = 0; i < 6; i++) expect((await submit({ zipCode: "abc" })).ok).toBe(false);
    const photoToken = sendPhotoAhead;
    for (let i = 0; i < 5; i++) {
      const result = await submit({ idPhotoToken: await photoToken() });
      expect(result.ok).toBe(true);
    }
    const sixth = await submit({ idPhotoToken: await photoToken() });
    expect(sixth).toMatchObject({ ok: false, status: 429, toast: { title: "Too many orders" } });
    if (sixth.ok) return;
    expect(sixth.retryAfterSeconds).toBeGreaterThan(3500);
    expect(sixth.retryAfterSeconds).toBeLessThanOrEqual(3600);
    expect(sixth.toast?.description).toMatch(
      /^We take at most 5 orders an hour from one connection\. Please try again in \d+ minutes, or call us at \(202\) 555-0142\.$/,
    );
    expect(await stockOf(product.sizeId)).toBe(95);
    // Another address is not affected.
    const elsewhere = await orderFrom(items, "198.51.100.24");
    expect(elsewhere.ok).toBe(true);
    // Counted in the shared table, so every instance on this database sees the same budget; the
    // refused sixth spent nothing.
    expect(await orderBudgetPoints(clientAddress)).toBe(5);
  });

  it("counts an IPv6 client by its /64: of 8 orders from 8 addresses in one /64, the 6th is refused", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000 });
    const items = oneOf(product);
    const statuses: number[] = [];
    for (let i = 1; i <= 8; i++) {
      const result = await orderFrom(items, `2001:db8:77:64:${i}::${i}`);
      statuses.push(result.ok ? 200 : result.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect(await stockOf(product.sizeId)).toBe(95);
    // The next /64 has a budget of its own; an IPv4-mapped address is its IPv4 address.
    const nextPrefix = await orderFrom(items, "2001:db8:77:65::1");
    expect(nextPrefix.ok).toBe(true);
    expect(await orderBudgetPoints("2001:db8:77:64::/64")).toBe(5);
    for (let i = 0; i < 5; i++) {
      const result = await orderFrom(items, "198.51.100.66");
      expect(result.ok).toBe(true);
    }
    const mapped = await orderFrom(items, "::ffff:198.51.100.66");
    expect(mapped).toMatchObject({ ok: false, status: 429 });
  });

  it("places exactly 5 of 12 parallel orders from one address, and refused ones give their point back", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000 });
    const scarce = await insertTestProduct(db, { priceCents: 9000, inventoryCount: 0 });
    const clientAddress = "198.51.100.77";
    const photoToken = sendPhotoAhead;
    // An order refused inside place_order (sold out) rolls its budget point back with it.
    const soldOut = await postCheckout(
      [{ productId: scarce.productId, sizeId: scarce.sizeId, quantity: 1 }],
      { idPhotoToken: await photoToken() },
      { file: null, clientAddress },
    );
    expect(soldOut).toMatchObject({ ok: false, status: 409 });
    const items = oneOf(product);
    const tokens = await Promise.all(Array.from({ length: 12 }, photoToken));
    const results = await Promise.all(
      tokens.map(async (idPhotoToken) =>
        postCheckout(items, { idPhotoToken }, { file: null, clientAddress }),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(5);
    for (const result of results.filter((r) => !r.ok)) {
      expect(result).toMatchObject({ ok: false, status: 429, toast: { title: "Too many orders" } });
    }
    expect(await stockOf(product.sizeId)).toBe(95);
  });

  it("uses a photo token for one order only: a second order naming it must upload the photo again", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000 });
    const items = oneOf(product);
    const idPhotoToken = await sendPhotoAhead();
    const first = await postCheckout(items, { idPhotoToken }, { file: null });
    expect(first.ok).toBe(true);
    const second = await postCheckout(items, { idPhotoToken }, { file: null });
    expect(second).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { idFront: "Upload a photo of the front of your ID" },
    });

    // Two orders racing for one photo: the database's unique index decides, the loser is told to
    // upload again (never a 500), and takes no stock.
    const racingToken = await sendPhotoAhead();
    const a = placeOrderInput(items, { idPhotoId: racingToken });
    const b = placeOrderInput(items, { idPhotoId: racingToken });
    const preparedA = await prepareOrder(a, { now: MONDAY_MORNING, photoToken: racingToken });
    const preparedB = await prepareOrder(b, { now: MONDAY_MORNING, photoToken: racingToken });
    if (!preparedA.ok || preparedA.replay || !preparedB.ok || preparedB.replay)
      throw new Error("not prepared");
    expect(preparedB.sentPhotoId).toBe(racingToken);
    const stockBefore = await stockOf(product.sizeId);
    expect((await commitOrder(a, preparedA.quote, { now: MONDAY_MORNING })).ok).toBe(true);
    expect(await commitOrder(b, preparedB.quote, { now: MONDAY_MORNING })).toEqual({
      ok: false,
      reason: "photo-claimed",
    });
    expect(await stockOf(product.sizeId)).toBe((stockBefore as number) - 1);
    // And a fresh look finds the photo taken.
    const afterwards = await prepareOrder(placeOrderInput(items), {
      now: MONDAY_MORNING,
      photoToken: racingToken,
    });
    expect(afterwards.ok && !afterwards.replay && afterwards.sentPhotoId).toBeNull();
  });
});
