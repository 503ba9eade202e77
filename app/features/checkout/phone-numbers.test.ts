/**
 * One phone, one number: a phone is checked with libphonenumber (US unless it has a country code)
 * and stored as E.164, so the open-orders limit, the admin search and the stored order see one
 * number however it was typed; orders stored before are rewritten by drizzle/0020.
 */
import { readFileSync } from "node:fs";
import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orders } from "#app/db/schema.ts";
import { listOrders, setOrderStatus } from "#app/features/orders/admin-orders.server.ts";
import { normalizePhone } from "#app/utils/phone.server.ts";
import { formatPhone, PHONE_INVALID_MESSAGE } from "#app/utils/phone.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { postCheckout } from "#tests/support/checkout-posts.server.ts";
import { insertTestProduct, MONDAY_MORNING, oneOf } from "#tests/support/checkout-test-helpers.server.ts";
import { insertOrderRow } from "#tests/support/order-rows.ts";
import { checkoutSchema, checkoutValues, fieldErrorsOf } from "./checkout.schema.ts";

describe("phone numbers", () => {
  it("writes a US number typed any way as E.164 and refuses what is not a number", () => {
    for (const typed of [
      "2025554321",
      "(202) 555-4321",
      "+1 202 555 4321",
      "1-202-555-4321",
      "202.555.4321",
    ]) {
      expect(normalizePhone(typed), typed).toBe("+12025554321");
    }
    expect(normalizePhone("+44 20 7946 0958")).toBe("+442079460958");
    for (const bad of [
      "20255543210",
      "(202) 555-43210",
      "120255543210",
      "(202) 155-4321",
      "0025554321",
      "202-555-4321 ext 5",
    ]) {
      expect(normalizePhone(bad), bad).toBeNull();
    }
    expect(formatPhone("+12025554321")).toBe("(202) 555-4321");
    expect(formatPhone("+442079460958")).toBe("+442079460958");
  });

  it("refuses a digit too many in the browser's schema with the same words as the server", () => {
    const form = {
      name: "Ada",
      email: "ada@example.com",
      phone: "20255543210",
      address: "1 Main St",
      city: "Washington",
      state: "DC",
      zipCode: "20001",
      deliveryDate: "2026-11-23",
      timeSlot: "10:00 AM-12:00 PM",
      ageConfirmed: "on",
      idempotencyKey: "0123456789abcdef0123",
      items: "[]",
    };
    const parsed = checkoutSchema.safeParse(checkoutValues(form));
    expect(parsed.error && fieldErrorsOf(parsed.error).phone).toBe(PHONE_INVALID_MESSAGE);
  });
});

describeEachDatabase("phone numbers at checkout", (database) => {
  it("counts 2025554321, (202) 555-4321 and +1 202 555 4321 as one number for the open-orders limit", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000 });
    const placed: string[] = [];
    for (const phone of ["2025554321", "(202) 555-4321"]) {
      const result = await postCheckout(oneOf(product), { phone });
      expect(result.ok, phone).toBe(true);
      if (result.ok) placed.push(result.token);
    }
    const stored = await db
      .select({ phone: orders.phone })
      .from(orders)
      .where(inArray(orders.publicToken, placed));
    expect(stored.map((row) => row.phone)).toEqual(["+12025554321", "+12025554321"]);

    const third = await postCheckout(oneOf(product), { phone: "+1 202 555 4321" });
    expect(third).toMatchObject({
      ok: false,
      status: 409,
      fieldErrors: {
        phone: expect.stringMatching(/^You already have 2 open orders with this phone number\./),
      },
    });
  });

  it("refuses a number with a digit too many with a message, and takes nothing", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000 });
    const before = await db.$count(orders);
    for (const phone of ["20255543210", "+1 202 555 43210"]) {
      const refused = await postCheckout(oneOf(product), { phone });
      expect(refused, phone).toMatchObject({
        ok: false,
        status: 400,
        fieldErrors: { phone: PHONE_INVALID_MESSAGE },
      });
    }
    expect(await db.$count(orders)).toBe(before);
  });

  it("finds an order in the admin search by its phone typed any way", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000 });
    const placed = await postCheckout(oneOf(product), { phone: "(571) 555-2468" });
    if (!placed.ok) throw new Error("not placed");
    const [order] = await db
      .select({ id: orders.id })
      .from(orders)
      .where(eq(orders.publicToken, placed.token));
    const found = async (q: string) =>
      (await listOrders("incoming", { filters: { q }, limit: 100 })).orders.map((row) => row.id);
    for (const q of [
      "5715552468",
      "(571) 555-2468",
      "+1 571 555 2468",
      "+15715552468",
      "1-571-555-2468",
      "571.555.2468",
      "571",
      "571 555",
      "2468",
    ]) {
      expect(await found(q), q).toEqual([order?.id]);
    }
  });

  it("rewrites the phones of orders stored before as E.164, so they count with the same number typed now", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000 });
    const date = MONDAY_MORNING.toISOString().slice(0, 10);
    const old = [];
    for (const phone of [
      "(703) 555-7788",
      "1 703 555 7788",
      "+44 20 7946 0958",
      "703-555-7788 ext 4",
      "555-1234",
    ]) {
      const row = await insertOrderRow(db, {
        customerName: "Old Order",
        deliveryDate: date,
        idPhotoId: null,
        status: "cancelled",
      });
      await db.update(orders).set({ phone }).where(eq(orders.id, row.id));
      old.push(row.id);
    }
    const migration = readFileSync("drizzle/0020_phones_e164_and_order_precheck.sql", "utf8");
    const update = migration
      .split("--> statement-breakpoint")
      .find((part) => part.includes('UPDATE "orders"'));
    await db.execute(sql.raw(update as string));
    const rows = await db
      .select({ id: orders.id, phone: orders.phone })
      .from(orders)
      .where(inArray(orders.id, old));
    expect(old.map((id) => rows.find((row) => row.id === id)?.phone)).toEqual([
      "+17035557788",
      "+17035557788",
      "+442079460958",
      "703-555-7788 ext 4",
      "555-1234",
    ]);
    // Two of them open again: a new order for the same number typed another way is the third.
    await setOrderStatus(old[0] as string, "pending");
    await setOrderStatus(old[1] as string, "confirmed");
    const third = await postCheckout(oneOf(product), { phone: "703.555.7788" });
    expect(third).toMatchObject({ ok: false, status: 409, fieldErrors: { phone: expect.any(String) } });
  });
});
