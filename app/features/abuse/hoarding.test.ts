/**
 * Decision 29 against a real database: open orders per person, the hourly order budget per client
 * address, and single-use photo tokens. The limits stay at their defaults here.
 */
import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { orders, rateLimits } from "#app/db/schema.ts";
import { submitCheckout } from "#app/features/checkout/checkout.server.ts";
import { uploadIdPhoto } from "#app/features/media/id-photos.server.ts";
import { setOrderStatus } from "#app/features/orders/admin-orders.server.ts";
import { commitOrder, placeOrder, prepareOrder } from "#app/features/orders/place-order.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import {
  checkoutRequest,
  insertTestProduct,
  MONDAY_MORNING,
  newShopper,
  orderFields,
  placeOrderInput,
  stockOf as stockOfSize,
  testIdPhoto,
} from "#tests/support/checkout-test-helpers.server.ts";

describeEachDatabase("anti-hoarding", (database) => {
  const stockOf = (sizeId: string) => stockOfSize(database().db, sizeId);

  it("refuses a 3rd open order for one phone number, whatever the e-mail, and takes it once one is delivered", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000 });
    const items = [{ productId: product.productId, sizeId: product.sizeId, quantity: 1 }];
    // The same number written three ways: only its digits count.
    const phones = ["(202) 555-7788", "202-555-7788", "2025557788"];
    const placed: string[] = [];
    for (const phone of phones.slice(0, 2)) {
      const result = await submitCheckout(
        checkoutRequest(orderFields(items, { phone }), await testIdPhoto()),
        {
          clientAddress: newShopper().clientAddress,
          now: MONDAY_MORNING,
        },
      );
      expect(result.ok).toBe(true);
      if (result.ok) placed.push(result.token);
    }
    const third = await submitCheckout(
      checkoutRequest(orderFields(items, { phone: phones[2] as string }), await testIdPhoto()),
      {
        clientAddress: newShopper().clientAddress,
        now: MONDAY_MORNING,
      },
    );
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

    const [first] = await db
      .select({ id: orders.id })
      .from(orders)
      .where(eq(orders.publicToken, placed[0] as string));
    await setOrderStatus(first?.id as string, "delivered");
    const again = await submitCheckout(
      checkoutRequest(orderFields(items, { phone: phones[2] as string }), await testIdPhoto()),
      {
        clientAddress: newShopper().clientAddress,
        now: MONDAY_MORNING,
      },
    );
    expect(again.ok).toBe(true);
  });

  it("refuses a 3rd open order for one e-mail address, whatever its case or the phone", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000 });
    const items = [{ productId: product.productId, sizeId: product.sizeId, quantity: 1 }];
    for (const email of ["Hoarder@Example.com", "hoarder@example.com"]) {
      expect((await placeOrder(placeOrderInput(items, { email }), { now: MONDAY_MORNING })).ok).toBe(true);
    }
    const third = await placeOrder(placeOrderInput(items, { email: "HOARDER@example.com" }), {
      now: MONDAY_MORNING,
    });
    expect(third).toEqual({ ok: false, reason: "open-orders", contact: "email", limit: 2 });
    const refused = await submitCheckout(
      checkoutRequest(orderFields(items, { email: "hoarder@example.com" }), await testIdPhoto()),
      { clientAddress: newShopper().clientAddress, now: MONDAY_MORNING },
    );
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
    const items = [{ productId: product.productId, sizeId: product.sizeId, quantity: 1 }];
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
    const items = [{ productId: product.productId, sizeId: product.sizeId, quantity: 1 }];
    const clientAddress = "198.51.100.23";
    const submit = (overrides: Record<string, string> = {}) =>
      submitCheckout(checkoutRequest(orderFields(items, overrides), null), {
        clientAddress,
        now: MONDAY_MORNING,
      });

    // Refused posts (a typo, a missing photo) do not spend the budget.
    for (let i = 0; i < 6; i++) expect((await submit({ zipCode: "abc" })).ok).toBe(false);
    const photoToken = async () => {
      const upload = await uploadIdPhoto(checkoutRequest({}, await testIdPhoto()));
      if (!upload.ok) throw new Error(upload.message);
      return upload.token;
    };
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
    const elsewhere = await submitCheckout(
      checkoutRequest(orderFields(items, { idPhotoToken: await photoToken() }), null),
      { clientAddress: "198.51.100.24", now: MONDAY_MORNING },
    );
    expect(elsewhere.ok).toBe(true);
    // Counted in the shared table, so every instance on this database sees the same budget; the
    // refused sixth spent nothing.
    const rows = await db
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, `cg-checkout:${clientAddress}`));
    expect(rows[0]?.points).toBe(5);
  });

  it("places exactly 5 of 12 parallel orders from one address, and refused ones give their point back", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000 });
    const scarce = await insertTestProduct(db, { priceCents: 9000, inventoryCount: 0 });
    const clientAddress = "198.51.100.77";
    const photoToken = async () => {
      const upload = await uploadIdPhoto(checkoutRequest({}, await testIdPhoto()));
      if (!upload.ok) throw new Error(upload.message);
      return upload.token;
    };
    // An order refused inside place_order (sold out) rolls its budget point back with it.
    const soldOut = await submitCheckout(
      checkoutRequest(
        orderFields([{ productId: scarce.productId, sizeId: scarce.sizeId, quantity: 1 }], {
          idPhotoToken: await photoToken(),
        }),
        null,
      ),
      { clientAddress, now: MONDAY_MORNING },
    );
    expect(soldOut).toMatchObject({ ok: false, status: 409 });
    const items = [{ productId: product.productId, sizeId: product.sizeId, quantity: 1 }];
    const tokens = await Promise.all(Array.from({ length: 12 }, photoToken));
    const results = await Promise.all(
      tokens.map(async (idPhotoToken) =>
        submitCheckout(checkoutRequest(orderFields(items, { idPhotoToken }), null), {
          clientAddress,
          now: MONDAY_MORNING,
        }),
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
    const items = [{ productId: product.productId, sizeId: product.sizeId, quantity: 1 }];
    const upload = await uploadIdPhoto(checkoutRequest({}, await testIdPhoto()));
    if (!upload.ok) throw new Error(upload.message);
    const first = await submitCheckout(
      checkoutRequest(orderFields(items, { idPhotoToken: upload.token }), null),
      {
        clientAddress: newShopper().clientAddress,
        now: MONDAY_MORNING,
      },
    );
    expect(first.ok).toBe(true);
    const second = await submitCheckout(
      checkoutRequest(orderFields(items, { idPhotoToken: upload.token }), null),
      {
        clientAddress: newShopper().clientAddress,
        now: MONDAY_MORNING,
      },
    );
    expect(second).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { idFront: "Upload a photo of the front of your ID" },
    });

    // Two orders racing for one photo: the database's unique index decides, the loser is told to
    // upload again (never a 500), and takes no stock.
    const racing = await uploadIdPhoto(checkoutRequest({}, await testIdPhoto()));
    if (!racing.ok) throw new Error(racing.message);
    const a = placeOrderInput(items, { idPhotoId: racing.token });
    const b = placeOrderInput(items, { idPhotoId: racing.token });
    const preparedA = await prepareOrder(a, { now: MONDAY_MORNING, photoToken: racing.token });
    const preparedB = await prepareOrder(b, { now: MONDAY_MORNING, photoToken: racing.token });
    if (!preparedA.ok || preparedA.replay || !preparedB.ok || preparedB.replay)
      throw new Error("not prepared");
    expect(preparedB.sentPhotoId).toBe(racing.token);
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
      photoToken: racing.token,
    });
    expect(afterwards.ok && !afterwards.replay && afterwards.sentPhotoId).toBeNull();
  });
});
