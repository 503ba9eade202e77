/**
 * A signed-in customer's checkout (record 053): the order is the account's from its own statement,
 * so the account shows it without a join; a guest's order with the same e-mail waits for the
 * customer's next sign-in.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { customerSessions, customers, orders } from "#app/db/schema.ts";
import { accountOrders } from "#app/features/customers/account.server.ts";
import { createCustomerSession } from "#app/features/customers/customer-sessions.server.ts";
import { joinGuestOrders } from "#app/features/customers/sign-in.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { postCheckout } from "#tests/support/checkout-posts.server.ts";
import { insertTestProduct, MONDAY_MORNING } from "#tests/support/checkout-test-helpers.server.ts";

describeEachDatabase("a signed-in customer's checkout", (database) => {
  /** An order placed by `email`, signed in with `customerToken` (null: as a guest). */
  async function placedWith(email: string, customerToken: string | null) {
    const product = await insertTestProduct(database().db);
    const result = await postCheckout(
      [{ productId: product.productId, sizeId: product.sizeId, quantity: 2 }],
      { email },
      { customerToken },
    );
    if (!result.ok) throw new Error(`checkout refused: ${JSON.stringify(result)}`);
    const [order] = await database()
      .db.select({ id: orders.id, customerId: orders.customerId })
      .from(orders)
      .where(eq(orders.publicToken, result.token));
    if (!order) throw new Error("no order");
    return order;
  }

  /** Signed in with a session of the checkout's own Monday morning. */
  async function placed(email: string, customerId: string | null) {
    const token = customerId
      ? await createCustomerSession(database().db, customerId, { now: MONDAY_MORNING })
      : null;
    return placedWith(email, token);
  }

  async function newCustomer() {
    const email = `signed-in-${randomUUID().slice(0, 8)}@example.com`;
    const [customer] = await database()
      .db.insert(customers)
      .values({ email, emailVerifiedAt: new Date() })
      .returning({ id: customers.id });
    return { email, customerId: (customer as { id: string }).id };
  }

  it("sets the order's customer at once; a guest's order with the same e-mail joins at sign-in", async () => {
    const { email, customerId } = await newCustomer();

    const mine = await placed(email, customerId);
    expect(mine.customerId).toBe(customerId);
    expect((await accountOrders({ customerId })).orders.map((order) => order.id)).toEqual([mine.id]);

    const asGuest = await placed(email.toUpperCase(), null);
    expect(asGuest.customerId).toBeNull();
    expect((await accountOrders({ customerId })).orders.map((order) => order.id)).toEqual([mine.id]);
    expect(await joinGuestOrders(database().db, customerId, email)).toBe(1);
    expect((await accountOrders({ customerId })).orders.map((order) => order.id).sort()).toEqual(
      [mine.id, asGuest.id].sort(),
    );
  });

  it("places a guest's order for a session past its time-out, and ends that session", async () => {
    const { email, customerId } = await newCustomer();
    // Made 31 days before the checkout's Monday morning: idle longer than a session may be.
    const token = await createCustomerSession(database().db, customerId, {
      now: new Date(MONDAY_MORNING.getTime() - 31 * 24 * 60 * 60_000),
    });
    const order = await placedWith(email, token);
    expect(order.customerId).toBeNull();
    const left = await database()
      .db.select({ customerId: customerSessions.customerId })
      .from(customerSessions)
      .where(eq(customerSessions.customerId, customerId));
    expect(left).toEqual([]);
  });

  it("places a guest's order for a made-up token", async () => {
    const { email } = await newCustomer();
    const order = await placedWith(email, "x".repeat(43));
    expect(order.customerId).toBeNull();
  });
});
