import { randomInt, randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { auditEvents, customers, orders } from "#app/db/schema.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { insertStaff } from "#tests/staff/support.ts";
import { expectOrderAnonymised, insertIdPhotoRow } from "#tests/support/customer-accounts.ts";
import { insertOrderRow } from "#tests/support/order-rows.ts";
import {
  eraseCustomerForStaff,
  eraseGuestForStaff,
  exportCustomerForStaff,
  exportGuestForStaff,
  saveStaffNote,
  searchCustomers,
  staffCustomer,
} from "./staff-customers.server.ts";

const ORIGIN = { ipAddress: "10.9.1.1", requestId: null };

describeEachDatabase("customers for staff", (database) => {
  async function manager() {
    const staff = await insertStaff(database().db, "manager", "Manny");
    return { actor: { userId: staff.id, email: staff.email, role: "manager" as const }, origin: ORIGIN };
  }

  /** An account with one order and a guest with one, sharing nothing but a made-up last name. */
  async function accountAndGuest(status = "delivered") {
    const { db } = database();
    const tag = randomUUID().slice(0, 6);
    const phone = `+1202${randomInt(1_000_000, 9_999_999)}`;
    const email = `acct-${tag}@example.com`;
    const [account] = await db
      .insert(customers)
      .values({ email, name: `Ann Zq${tag}`, phone, emailVerifiedAt: new Date() })
      .returning({ id: customers.id });
    const photoId = await insertIdPhotoRow(db);
    const order = await insertOrderRow(db, {
      customerName: `Ann Zq${tag}`,
      deliveryDate: "2026-11-20",
      status,
      idPhotoId: photoId,
    });
    await db.update(orders).set({ userEmail: email, phone }).where(eq(orders.id, order.id));
    const guestOrder = await insertOrderRow(db, {
      customerName: `Gus Zq${tag}`,
      deliveryDate: "2026-11-20",
      idPhotoId: null,
    });
    const guestEmail = `guest-${tag}@example.com`;
    await db.update(orders).set({ userEmail: guestEmail }).where(eq(orders.id, guestOrder.id));
    return {
      id: account?.id as string,
      email,
      phone,
      tag,
      orderId: order.id,
      photoId,
      guestEmail,
      guestOrderId: guestOrder.id,
    };
  }

  it("finds accounts and guests by name, phone and e-mail, and says which is which", async () => {
    const { id, email, phone, tag, guestEmail } = await accountAndGuest();
    const byName = await searchCustomers(`zq${tag}`);
    expect(byName).toEqual([
      expect.objectContaining({ kind: "account", id, email, orders: 1 }),
      expect.objectContaining({ kind: "guest", email: guestEmail, orders: 1 }),
    ]);
    const typed = `(${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`;
    expect(await searchCustomers(typed)).toEqual([expect.objectContaining({ kind: "account", id })]);
    expect(await searchCustomers(guestEmail.toUpperCase())).toEqual([
      expect.objectContaining({ kind: "guest", email: guestEmail, name: `Gus Zq${tag}` }),
    ]);
    expect(await searchCustomers(`nobody-${tag}`)).toEqual([]);
    // An account without orders is found by its own name, the last name too.
    const [fresh] = await database()
      .db.insert(customers)
      .values({ email: `new-${tag}@example.com`, name: `Nia Yx${tag}`, emailVerifiedAt: new Date() })
      .returning({ id: customers.id });
    expect(await searchCustomers(`yx${tag}`)).toEqual([
      {
        kind: "account",
        id: fresh?.id,
        email: `new-${tag}@example.com`,
        name: `Nia Yx${tag}`,
        phone: "",
        orders: 0,
      },
    ]);
  });

  it("shows the customer's orders with their ID status, and saves the staff note, audited", async () => {
    const { db } = database();
    const by = await manager();
    const { id, orderId } = await accountAndGuest();
    const page = await staffCustomer(id);
    expect(page?.orders).toEqual([
      expect.objectContaining({ id: orderId, status: "delivered", hasIdPhoto: true }),
    ]);
    expect(await saveStaffNote(id, "  Prefers the side door.  ", by)).toBe(true);
    expect((await staffCustomer(id))?.staffNote).toBe("Prefers the side door.");
    const events = await db
      .select({ action: auditEvents.action, actorId: auditEvents.actorId })
      .from(auditEvents)
      .where(eq(auditEvents.targetId, id));
    expect(events).toEqual([{ action: "customer.note-saved", actorId: by.actor.userId }]);
    expect(await saveStaffNote(randomUUID(), "x", by)).toBe(false);
  });

  it("exports the customer's own JSON, audited as an export", async () => {
    const { db } = database();
    const by = await manager();
    const { id, email, orderId } = await accountAndGuest();
    const exported = await exportCustomerForStaff(id, by);
    expect(exported?.account.email).toBe(email);
    expect(exported?.orders.map((order) => order.id)).toEqual([orderId]);
    const events = await db
      .select({ action: auditEvents.action, actorId: auditEvents.actorId })
      .from(auditEvents)
      .where(eq(auditEvents.targetId, id));
    expect(events).toEqual([{ action: "customer.exported", actorId: by.actor.userId }]);
  });

  it("refuses to erase while an order is open, then erases as the customer's own deletion, audited", async () => {
    const { db } = database();
    const by = await manager();
    const { id, orderId, photoId } = await accountAndGuest("confirmed");
    const refused = await eraseCustomerForStaff(id, by);
    expect(refused).toEqual({ ok: false, error: expect.stringContaining("still open") });
    expect(await staffCustomer(id)).not.toBeNull();

    await db.update(orders).set({ status: "delivered" }).where(eq(orders.id, orderId));
    expect(await eraseCustomerForStaff(id, by)).toEqual({ ok: true, anonymisedOrders: 1 });
    await expectOrderAnonymised(db, orderId, photoId);
    expect(await staffCustomer(id)).toBeNull();
    const events = await db
      .select({ actorId: auditEvents.actorId, details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, id), eq(auditEvents.action, "customer.erased")));
    expect(events).toEqual([{ actorId: by.actor.userId, details: { orders: 1, idPhotos: 1 } }]);
  });

  it("exports a guest known only by their orders' e-mail, audited without the e-mail", async () => {
    const { db } = database();
    const by = await manager();
    const { email, guestEmail, guestOrderId } = await accountAndGuest();
    const exported = await exportGuestForStaff(guestEmail.toUpperCase(), by);
    expect(exported?.guest.email).toBe(guestEmail);
    expect(exported?.orders.map((order) => order.id)).toEqual([guestOrderId]);
    expect(exported?.orders[0]).toMatchObject({ email: guestEmail, hasIdPhoto: false, items: [] });
    // An e-mail with an account is exported from the account's page, and an unknown one is nothing.
    expect(await exportGuestForStaff(email, by)).toBeNull();
    expect(await exportGuestForStaff("nobody-ever@example.com", by)).toBeNull();
    const events = await db
      .select({
        action: auditEvents.action,
        targetType: auditEvents.targetType,
        details: auditEvents.details,
      })
      .from(auditEvents)
      .where(eq(auditEvents.actorId, by.actor.userId));
    expect(events).toEqual([{ action: "customer.exported", targetType: "guest", details: { orders: 1 } }]);
    expect(JSON.stringify(events)).not.toContain(guestEmail);
  });

  it("refuses to erase a guest while an order is open, then anonymises their orders and deletes the ID photos, audited", async () => {
    const { db } = database();
    const by = await manager();
    const { email, guestEmail, guestOrderId } = await accountAndGuest();
    const photoId = await insertIdPhotoRow(db, [4, 5, 6]);
    await db.update(orders).set({ idPhotoId: photoId }).where(eq(orders.id, guestOrderId));
    expect(await eraseGuestForStaff(guestEmail, by)).toEqual({
      ok: false,
      error: expect.stringContaining("still open"),
    });
    expect(await eraseGuestForStaff(email, by)).toEqual({
      ok: false,
      error: expect.stringContaining("account"),
    });
    const [untouched] = await db.select().from(orders).where(eq(orders.id, guestOrderId));
    expect(untouched?.userEmail).toBe(guestEmail);

    await db.update(orders).set({ status: "delivered" }).where(eq(orders.id, guestOrderId));
    expect(await eraseGuestForStaff(guestEmail, by)).toEqual({ ok: true, anonymisedOrders: 1 });
    await expectOrderAnonymised(db, guestOrderId, photoId);
    expect(await exportGuestForStaff(guestEmail, by)).toBeNull();
    expect(await eraseGuestForStaff(guestEmail, by)).toEqual({ ok: false, error: expect.any(String) });
    const events = await db
      .select({ targetType: auditEvents.targetType, details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.actorId, by.actor.userId), eq(auditEvents.action, "customer.erased")));
    expect(events).toEqual([{ targetType: "guest", details: { orders: 1, idPhotos: 1 } }]);
  });
});
