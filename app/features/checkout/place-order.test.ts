import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import {
  emailOutbox,
  orderDailyStats,
  orderItems,
  orderStatusCounts,
  orders,
  productSizes,
} from "#app/db/schema.ts";
import { getOrderByToken } from "#app/features/orders/orders.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import {
  answered,
  postCheckout,
  sendPhotoAhead,
  submitAsShopper,
} from "#tests/support/checkout-posts.server.ts";
import {
  checkoutRequest,
  insertTestProduct,
  MONDAY_MORNING,
  newShopper,
  oneOf,
  orderFields,
  placedOrderRow,
  placeOrderInput,
  stockLeft as stockOf,
  testIdPhoto,
} from "#tests/support/checkout-test-helpers.server.ts";
import { submitCheckout } from "./checkout.server.ts";
import { uploadIdPhoto } from "./id-photo-upload.server.ts";
import { commitOrder, placeOrder, prepareOrder } from "./place-order.server.ts";

describeEachDatabase("placing orders", (database) => {
  it("writes the order, item snapshots, running totals and both e-mails in one go", async () => {
    const { db } = database();
    const a = await insertTestProduct(db, { name: "Blue Dream", priceCents: 5000, salePriceCents: 4500 });
    const b = await insertTestProduct(db, { name: "Gummies", priceCents: 2000, size: "10 pack" });
    const [before] = await db.select().from(orderStatusCounts).where(eq(orderStatusCounts.status, "pending"));
    const result = await placeOrder(
      placeOrderInput([
        { productId: a.productId, sizeId: a.sizeId, quantity: 1 },
        { productId: b.productId, sizeId: b.sizeId, quantity: 2 },
      ]),
      { now: MONDAY_MORNING },
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.order.totalAmountCents).toBe(4500 + 4000);
    expect(result.order.publicToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const order = await getOrderByToken(result.order.publicToken);
    expect(order).toMatchObject({
      status: "pending",
      totalAmountCents: 8500,
      quantity: 3,
      deliveryAddress: "1600 Example Ave NW, Washington, DC 20001",
      deliveryTime: "10:00 AM-12:00 PM",
      deliveryDate: "2026-11-23",
    });
    expect(
      order?.items.map((item) => [
        item.productName,
        item.sizeLabel,
        item.unitPriceCents,
        item.totalPriceCents,
      ]),
    ).toEqual([
      ["Blue Dream", "3.5g", 4500, 4500],
      ["Gummies", "10 pack", 2000, 4000],
    ]);
    expect(await stockOf(a.sizeId)).toBe(99);
    expect(await stockOf(b.sizeId)).toBe(98);
    const mails = await db.select().from(emailOutbox).where(eq(emailOutbox.orderId, result.order.id));
    expect(mails.map((mail) => mail.kind).sort()).toEqual(["order-confirmation", "order-notification"]);
    expect(mails.every((mail) => mail.status === "queued")).toBe(true);
    const [day] = await db.select().from(orderDailyStats).where(eq(orderDailyStats.day, "2026-11-23"));
    expect(day?.ordersCount).toBeGreaterThanOrEqual(1);
    const [after] = await db.select().from(orderStatusCounts).where(eq(orderStatusCounts.status, "pending"));
    expect((after?.ordersCount ?? 0) - (before?.ordersCount ?? 0)).toBe(1);
  });

  it("ignores prices and totals sent by the browser: the server's figures win", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000 });
    const fields = orderFields(oneOf(product), {
      // Tampering: the items carry a price, and extra fields claim a total.
      items: JSON.stringify([
        { productId: product.productId, sizeId: product.sizeId, quantity: 1, priceCents: 1, unitPrice: 0.01 },
      ]),
      total: "0.01",
      totalCents: "1",
      total_amount: "0.01",
    });
    const result = await submitAsShopper(checkoutRequest(fields, await testIdPhoto()));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const order = await getOrderByToken(result.token);
    expect(order?.totalAmountCents).toBe(9000);
    expect(order?.items[0]?.unitPriceCents).toBe(9000);
    expect(order?.hasIdPhoto).toBe(true);
  });

  it("refuses $79.99 with the first shop's message and the server's figure, and accepts $80.00", async () => {
    const { db } = database();
    const cheap = await insertTestProduct(db, { priceCents: 7999 });
    const refused = await postCheckout([{ productId: cheap.productId, sizeId: cheap.sizeId, quantity: 1 }]);
    expect(refused).toMatchObject({
      ok: false,
      status: 400,
      toast: {
        title: "Minimum Order Required",
        description: "Your order total must be at least $80.00. Current total: $79.99",
      },
    });
    expect(await stockOf(cheap.sizeId)).toBe(100);

    // A sale price counts only when it is lower than the price.
    const exact = await insertTestProduct(db, { priceCents: 9000, salePriceCents: 8000 });
    const accepted = await placeOrder(
      placeOrderInput([{ productId: exact.productId, sizeId: exact.sizeId, quantity: 1 }]),
      { now: MONDAY_MORNING },
    );
    expect(accepted.ok && accepted.order.totalAmountCents).toBe(8000);
    const notLower = await insertTestProduct(db, { priceCents: 7999, salePriceCents: 9000 });
    const stillRefused = await placeOrder(
      placeOrderInput([{ productId: notLower.productId, sizeId: notLower.sizeId, quantity: 1 }]),
      { now: MONDAY_MORNING },
    );
    expect(stillRefused).toEqual({ ok: false, reason: "minimum", totalCents: 7999, minimumCents: 8000 });
  });

  it("charges the price under the stock lock when it changed after the cart was priced", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { name: "Repriced", priceCents: 9000 });
    const input = placeOrderInput(oneOf(product));
    const prepared = await prepareOrder(input, { now: MONDAY_MORNING });
    if (!prepared.ok || prepared.replay) throw new Error("not prepared");
    expect(prepared.quote.totalCents).toBe(9000);
    await db.update(productSizes).set({ priceCents: 9500 }).where(eq(productSizes.id, product.sizeId));
    const placed = await commitOrder(input, prepared.quote, { now: MONDAY_MORNING });
    expect(placed.ok && placed.order.totalAmountCents).toBe(9500);
    if (!placed.ok) return;
    const order = await getOrderByToken(placed.order.publicToken);
    expect(order?.items.map((item) => item.unitPriceCents)).toEqual([9500]);
    const [mail] = await db
      .select({ text: emailOutbox.textBody })
      .from(emailOutbox)
      .where(eq(emailOutbox.orderId, placed.order.id))
      .limit(1);
    expect(mail?.text).toContain("$95.00");

    // A price cut below the minimum after pricing is refused with the new figure, nothing written.
    const second = placeOrderInput(oneOf(product));
    const again = await prepareOrder(second, { now: MONDAY_MORNING });
    if (!again.ok || again.replay) throw new Error("not prepared");
    await db.update(productSizes).set({ priceCents: 7000 }).where(eq(productSizes.id, product.sizeId));
    expect(await commitOrder(second, again.quote, { now: MONDAY_MORNING })).toEqual({
      ok: false,
      reason: "minimum",
      totalCents: 7000,
      minimumCents: 8000,
    });
    expect(await stockOf(product.sizeId)).toBe(99);
  });

  it("sells exactly the stock under 200 concurrent orders, never below 0, and names the sold-out item", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, {
      name: "Limited Kush",
      priceCents: 8000,
      inventoryCount: 20,
    });
    const results = await Promise.all(
      Array.from({ length: 200 }, () =>
        placeOrder(placeOrderInput(oneOf(product)), {
          now: MONDAY_MORNING,
        }),
      ),
    );
    const placed = results.filter((result) => result.ok);
    const soldOut = results.filter((result) => !result.ok);
    expect(placed).toHaveLength(20);
    expect(soldOut).toHaveLength(180);
    expect(soldOut[0]).toEqual({
      ok: false,
      reason: "out-of-stock",
      itemName: "Limited Kush (3.5g)",
      left: 0,
      productId: product.productId,
      sizeId: product.sizeId,
    });
    expect(await stockOf(product.sizeId)).toBe(0);
    const [count] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(orderItems)
      .where(eq(orderItems.productSizeId, product.sizeId));
    expect(count?.count).toBe(20);
  });

  it("makes one order from a double submit with one idempotency key", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 8000, inventoryCount: 10 });
    const key = crypto.randomUUID();
    const fields = orderFields(oneOf(product), {
      idempotencyKey: key,
    });
    const file = await testIdPhoto();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => submitAsShopper(checkoutRequest(fields, file))),
    );
    const tokens = new Set(results.map((result) => (result.ok ? result.token : "refused")));
    expect(tokens.size).toBe(1);
    expect([...tokens][0]).not.toBe("refused");
    // A later reload of the post returns the same order too.
    const again = await submitAsShopper(checkoutRequest(fields, file));
    expect(again).toMatchObject({ ok: true, replayed: true, token: [...tokens][0] });
    const rows = await db.select({ id: orders.id }).from(orders).where(eq(orders.idempotencyKey, key));
    expect(rows).toHaveLength(1);
    expect(await stockOf(product.sizeId)).toBe(9);
  });

  it("validates every field with clear messages and the first shop's toasts", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000 });
    const items = oneOf(product);
    const file = await testIdPhoto();
    const noAge = await submitAsShopper(checkoutRequest(orderFields(items, { ageConfirmed: "" }), file));
    expect(noAge).toMatchObject({
      ok: false,
      status: 400,
      toast: {
        title: "Age Verification Required",
        description: "You must be 21 or older to purchase cannabis products.",
      },
    });
    const empty = await submitAsShopper(checkoutRequest(orderFields([]), file));
    expect(empty).toMatchObject({
      ok: false,
      toast: { title: "Cart Empty", description: "Please add items to your cart before checkout." },
    });
    const bad = await postCheckout(
      items,
      {
        name: " ",
        email: "not-an-email",
        zipCode: "abc",
        state: "MD",
        timeSlot: "3:00 AM",
      },
      { file: null },
    );
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.status).toBe(400);
    expect(bad.fieldErrors).toMatchObject({
      name: "Full name is required",
      email: "Enter a valid email address",
      zipCode: "Enter a 5-digit ZIP code",
      state: "We deliver in DC and VA only",
      timeSlot: "Choose a delivery time slot",
      idFront: "Upload a photo of the front of your ID",
    });
    // A slot that has already ended today is refused by the server too.
    const evening = new Date("2026-11-23T23:30:00Z"); // 6:30 PM in New York
    const ended = await submitAsShopper(
      checkoutRequest(orderFields(items, { deliveryDate: "2026-11-23", timeSlot: "4:00 PM-6:00 PM" }), file),
      { now: evening },
    );
    expect(ended).toMatchObject({ ok: false, status: 400, fieldErrors: { timeSlot: expect.any(String) } });
    const dayAfter = await submitAsShopper(
      checkoutRequest(orderFields(items, { deliveryDate: "2026-11-25" }), file),
    );
    expect(dayAfter).toMatchObject({
      ok: false,
      fieldErrors: { deliveryDate: "You can schedule delivery for today or tomorrow only." },
    });
  });

  it("refuses sizes that are unknown, belong to another product or are archived", async () => {
    const { db } = database();
    const a = await insertTestProduct(db, { priceCents: 9000 });
    const b = await insertTestProduct(db, { priceCents: 9000 });
    const mismatched = await placeOrder(
      placeOrderInput([{ productId: b.productId, sizeId: a.sizeId, quantity: 1 }]),
      {
        now: MONDAY_MORNING,
      },
    );
    expect(mismatched).toMatchObject({ ok: false, reason: "unavailable" });
    const unknown = await placeOrder(
      placeOrderInput([{ productId: a.productId, sizeId: crypto.randomUUID(), quantity: 1 }]),
      { now: MONDAY_MORNING },
    );
    expect(unknown).toMatchObject({ ok: false, reason: "unavailable", itemName: null });
  });

  it("writes nothing when the order insert fails, and says so with the first shop's message", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000, inventoryCount: 5 });
    const [ordersBefore] = await db.select({ count: sql<number>`count(*)::int` }).from(orders);
    const [mailsBefore] = await db.select({ count: sql<number>`count(*)::int` }).from(emailOutbox);
    // An id the orders table cannot take makes the insert fail after stock was decremented.
    const result = answered(
      await submitCheckout(
        checkoutRequest(
          orderFields([{ productId: product.productId, sizeId: product.sizeId, quantity: 2 }]),
          await testIdPhoto(),
        ),
        {
          clientAddress: newShopper().clientAddress,
          now: MONDAY_MORNING,
          storePhoto: async () => "not-a-uuid",
        },
      ),
    );
    expect(result).toMatchObject({
      ok: false,
      status: 500,
      toast: { title: "Error", description: "There was an error placing your order. Please try again." },
    });
    expect(await stockOf(product.sizeId)).toBe(5);
    const [ordersAfter] = await db.select({ count: sql<number>`count(*)::int` }).from(orders);
    const [mailsAfter] = await db.select({ count: sql<number>`count(*)::int` }).from(emailOutbox);
    expect(ordersAfter?.count).toBe(ordersBefore?.count);
    expect(mailsAfter?.count).toBe(mailsBefore?.count);
  });

  it("takes the ID photo sent ahead by its token, and asks again for one it does not have", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000 });
    const items = oneOf(product);
    const upload = { token: await sendPhotoAhead() };
    expect(upload.token).toMatch(/^[0-9a-f-]{36}$/);

    // A refused post keeps the photo for the corrected resubmit.
    const refused = await postCheckout(items, { name: " ", idPhotoToken: upload.token }, { file: null });
    expect(refused).toMatchObject({ ok: false, status: 400, fieldErrors: { name: "Full name is required" } });
    expect(refused.ok || refused.fieldErrors.idFront).toBeFalsy();
    const tooSmall = await postCheckout(
      [{ productId: product.productId, sizeId: product.sizeId, quantity: 0 }],
      {
        idPhotoToken: upload.token,
      },
      { file: null },
    );
    expect(tooSmall.ok).toBe(false);

    const placed = await postCheckout(items, { idPhotoToken: upload.token }, { file: null });
    expect(placed).toMatchObject({ ok: true, replayed: false });
    if (!placed.ok) return;
    expect((await placedOrderRow(placed.token)).idPhotoId).toBe(upload.token);

    for (const token of [crypto.randomUUID(), "not-a-token"]) {
      const unknown = await postCheckout(items, { idPhotoToken: token }, { file: null });
      expect(unknown).toMatchObject({
        ok: false,
        status: 400,
        fieldErrors: { idFront: "Upload a photo of the front of your ID" },
      });
    }

    const notImage = await uploadIdPhoto(
      checkoutRequest({}, { bytes: new TextEncoder().encode("hello"), name: "id.png", type: "image/png" }),
    );
    expect(notImage).toMatchObject({ ok: false, problem: "invalid" });
    expect(await uploadIdPhoto(checkoutRequest({}, null))).toMatchObject({ ok: false, problem: "invalid" });
  });

  it("places no order when its ID photo cannot be stored, and takes the same photo on retry", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000 });
    // One form, posted twice: the retry carries the same fields, idempotency key and photo.
    const fields = orderFields(oneOf(product));
    const ordersBefore = await db.$count(orders);
    const clientAddress = newShopper().clientAddress;
    const failed = answered(
      await submitCheckout(checkoutRequest(fields, await testIdPhoto()), {
        clientAddress,
        now: MONDAY_MORNING,
        // A real database error while the photo is written.
        storePhoto: async () => {
          await db.execute(sql`INSERT INTO id_photos_gone (id) VALUES (gen_random_uuid())`);
          return "unreachable";
        },
      }),
    );
    expect(failed).toMatchObject({
      ok: false,
      status: 503,
      fieldErrors: {},
      toast: {
        description:
          "We couldn't place your order just now. Nothing was charged; please try again in a minute.",
      },
    });
    expect(await db.$count(orders)).toBe(ordersBefore);
    expect(await stockOf(product.sizeId)).toBe(100);

    const retried = await submitCheckout(checkoutRequest(fields, await testIdPhoto()), {
      clientAddress,
      now: MONDAY_MORNING,
    });
    expect(retried).toMatchObject({ ok: true, replayed: false });
    if (!retried.ok) return;
    expect((await getOrderByToken(retried.token))?.hasIdPhoto).toBe(true);
    expect(await db.$count(orders)).toBe(ordersBefore + 1);
  });

  it("finds an order only by its exact token", async () => {
    expect(await getOrderByToken(null)).toBeNull();
    expect(await getOrderByToken("")).toBeNull();
    expect(await getOrderByToken("A".repeat(32))).toBeNull();
    expect(await getOrderByToken("' OR 1=1 --")).toBeNull();
  });
});
