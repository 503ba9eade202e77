/**
 * The ID on file (record 058): kept only when a signed-in customer ticks the box, used only once staff
 * verified it and while it has not expired, each order with its own copy of the photo; revoked by
 * staff, deleted at expiry plus the retention period, on request and with the account.
 */
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { auditEvents, customerIdFiles, customers, idPhotos, orders } from "#app/db/schema.ts";
import { submitCheckout } from "#app/features/checkout/checkout.server.ts";
import { deleteCustomerAccount } from "#app/features/customers/account.server.ts";
import { createCustomerSession } from "#app/features/customers/customer-sessions.server.ts";
import { deleteExpiredIdPhotos } from "#app/features/orders/id-retention.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { insertStaff } from "#tests/staff/support.ts";
import { answered } from "#tests/support/checkout-posts.server.ts";
import {
  checkoutRequest,
  insertTestProduct,
  MONDAY_MORNING,
  newShopper,
  orderFields,
  testIdPhoto,
} from "#tests/support/checkout-test-helpers.server.ts";
import {
  forgetIdOnFile,
  idFileOfOrder,
  idOnFileOf,
  revokeIdOnFile,
  verifyIdOnFile,
} from "./id-on-file.server.ts";
import { idOnFileText } from "./id-on-file.ts";
import { getIdPhoto } from "./id-photos.server.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

describeEachDatabase("ID on file", (database) => {
  async function newCustomer() {
    const [row] = await database()
      .db.insert(customers)
      .values({ email: `file-${randomUUID().slice(0, 8)}@example.com`, emailVerifiedAt: new Date() })
      .returning({ id: customers.id, email: customers.email });
    if (!row) throw new Error("no customer");
    return row;
  }

  async function staffBy() {
    const staff = await insertStaff(database().db, "manager");
    return {
      actor: { userId: staff.id, email: staff.email, role: staff.role },
      origin: { ipAddress: null, requestId: null },
    };
  }

  /** A checkout post by `customerId` (null: a guest), with the photo or without one. */
  async function checkout(
    customerId: string | null,
    options: { keep?: boolean; photo?: boolean; now?: Date } = {},
  ) {
    const product = await insertTestProduct(database().db);
    const fields = orderFields(
      [{ productId: product.productId, sizeId: product.sizeId, quantity: 2 }],
      options.keep ? { keepIdOnFile: "on" } : {},
    );
    const now = options.now ?? MONDAY_MORNING;
    // Signed in as the route sees it: the customer cookie's token of a real session.
    const customerToken = customerId ? await createCustomerSession(database().db, customerId, { now }) : null;
    const result = await submitCheckout(
      checkoutRequest(fields, options.photo === false ? null : await testIdPhoto()),
      { clientAddress: newShopper().clientAddress, now, customerToken },
    );
    if (!result.ok) return { placed: null, result: answered(result) };
    const [order] = await database()
      .db.select({ id: orders.id, idPhotoId: orders.idPhotoId })
      .from(orders)
      .where(eq(orders.publicToken, result.token));
    return { placed: order ?? null, result: null };
  }

  async function fileOf(customerId: string) {
    const [file] = await database()
      .db.select()
      .from(customerIdFiles)
      .where(eq(customerIdFiles.customerId, customerId));
    return file;
  }

  it("keeps a copy of the photo only when a signed-in customer ticks the box", async () => {
    const customer = await newCustomer();
    const unticked = await checkout(customer.id);
    expect(unticked.placed?.idPhotoId).toBeTruthy();
    expect(await fileOf(customer.id)).toBeUndefined();

    // A guest's tick keeps nothing: there is no account to keep it for.
    const before = await database().db.select({ id: customerIdFiles.customerId }).from(customerIdFiles);
    const guest = await checkout(null, { keep: true });
    expect(guest.placed).not.toBeNull();
    const after = await database().db.select({ id: customerIdFiles.customerId }).from(customerIdFiles);
    expect(after.length).toBe(before.length);

    const ticked = await checkout(customer.id, { keep: true });
    const file = await fileOf(customer.id);
    expect(file).toMatchObject({ sourceOrderId: ticked.placed?.id, verifiedAt: null, expiresOn: null });
    // Its own row, the same picture: the order's photo goes with the order's retention, not this one.
    expect(file?.photoId).not.toBe(ticked.placed?.idPhotoId);
    const kept = await getIdPhoto(file?.photoId as string);
    const original = await getIdPhoto(ticked.placed?.idPhotoId as string);
    expect(Buffer.from(kept?.bytes as Uint8Array).equals(Buffer.from(original?.bytes as Uint8Array))).toBe(
      true,
    );
  });

  it("stands in for the upload only once verified and until it expires, each order with its own copy", async () => {
    const customer = await newCustomer();
    const first = await checkout(customer.id, { keep: true });
    const orderId = first.placed?.id as string;

    // Not verified yet: the upload is asked for.
    const unverified = await checkout(customer.id, { photo: false });
    expect(unverified.placed).toBeNull();
    expect(unverified.result && !unverified.result.ok && unverified.result.fieldErrors.idFront).toBeTruthy();
    expect(await idOnFileOf(customer.id, MONDAY_MORNING)).toBeNull();

    const by = await staffBy();
    expect(await verifyIdOnFile(orderId, "2026-11-22", by, MONDAY_MORNING)).toEqual({
      ok: false,
      reason: "expired",
    });
    expect(await verifyIdOnFile(orderId, "2029-03-31", by, MONDAY_MORNING)).toEqual({ ok: true });
    const [event] = await database()
      .db.select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, orderId), eq(auditEvents.action, "id_on_file.verified")));
    expect(event?.actorId).toBe(by.actor.userId);
    expect(await idOnFileOf(customer.id, MONDAY_MORNING)).toEqual({ expiresOn: "2029-03-31" });
    expect(idOnFileText("2029-03-31")).toBe("ID on file (expires 03/2029)");

    const second = await checkout(customer.id, { photo: false });
    const third = await checkout(customer.id, { photo: false });
    const file = await fileOf(customer.id);
    const photos = [second.placed?.idPhotoId, third.placed?.idPhotoId, file?.photoId];
    expect(photos.every(Boolean)).toBe(true);
    expect(new Set(photos).size).toBe(3);
    const seen = await getIdPhoto(second.placed?.idPhotoId as string);
    expect(seen?.contentType).toBe("image/jpeg");

    // The day after the ID's expiry the upload is asked for again.
    const afterExpiry = new Date("2029-04-01T16:00:00Z");
    expect(await idOnFileOf(customer.id, afterExpiry)).toBeNull();
  });

  it("is not used by a guest, nor by another customer", async () => {
    const customer = await newCustomer();
    const first = await checkout(customer.id, { keep: true });
    await verifyIdOnFile(first.placed?.id as string, "2029-03-31", await staffBy(), MONDAY_MORNING);
    const other = await newCustomer();
    expect((await checkout(other.id, { photo: false })).placed).toBeNull();
    expect((await checkout(null, { photo: false })).placed).toBeNull();
  });

  it("staff revoke it: the photo on file is deleted, the orders keep theirs, the next checkout asks again", async () => {
    const customer = await newCustomer();
    const first = await checkout(customer.id, { keep: true });
    const orderId = first.placed?.id as string;
    const by = await staffBy();
    await verifyIdOnFile(orderId, "2029-03-31", by, MONDAY_MORNING);
    const filePhoto = (await fileOf(customer.id))?.photoId as string;
    expect(await idFileOfOrder(orderId)).toEqual({ customerId: customer.id, expiresOn: "2029-03-31" });

    expect(await revokeIdOnFile(orderId, by)).toEqual({ ok: true });
    expect(await fileOf(customer.id)).toBeUndefined();
    expect(await getIdPhoto(filePhoto)).toBeNull();
    expect(await getIdPhoto(first.placed?.idPhotoId as string)).not.toBeNull();
    const events = await database()
      .db.select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, orderId), eq(auditEvents.action, "id_on_file.revoked")));
    expect(events).toHaveLength(1);
    expect((await checkout(customer.id, { photo: false })).placed).toBeNull();
    expect(await revokeIdOnFile(orderId, by)).toEqual({ ok: false, reason: "not-found" });
  });

  it("is deleted at expiry plus the retention period, an unverified one after the retention period", async () => {
    const { db } = database();
    const verified = await newCustomer();
    const first = await checkout(verified.id, { keep: true });
    await verifyIdOnFile(first.placed?.id as string, "2029-03-31", await staffBy(), MONDAY_MORNING);
    const verifiedPhoto = (await fileOf(verified.id))?.photoId as string;
    const unverified = await newCustomer();
    await checkout(unverified.id, { keep: true });
    const unverifiedPhoto = (await fileOf(unverified.id))?.photoId as string;
    // Kept a while ago, as the retention job would find it.
    await db
      .update(customerIdFiles)
      .set({ createdAt: new Date(MONDAY_MORNING.getTime() - 5 * DAY_MS) })
      .where(eq(customerIdFiles.customerId, unverified.id));

    await deleteExpiredIdPhotos({ now: MONDAY_MORNING, retentionDays: 7 });
    expect(await fileOf(unverified.id)).toBeDefined();
    await deleteExpiredIdPhotos({ now: new Date(MONDAY_MORNING.getTime() + 3 * DAY_MS), retentionDays: 7 });
    expect(await fileOf(unverified.id)).toBeUndefined();
    expect(await getIdPhoto(unverifiedPhoto)).toBeNull();

    // Seven days after 31 March 2029 it is still kept; the eighth it goes.
    await deleteExpiredIdPhotos({ now: new Date("2029-04-07T16:00:00Z"), retentionDays: 7 });
    expect(await getIdPhoto(verifiedPhoto)).not.toBeNull();
    await deleteExpiredIdPhotos({ now: new Date("2029-04-08T16:00:00Z"), retentionDays: 7 });
    expect(await fileOf(verified.id)).toBeUndefined();
    expect(await getIdPhoto(verifiedPhoto)).toBeNull();
  });

  it("is not taken for an unclaimed photo by the retention job", async () => {
    const customer = await newCustomer();
    await checkout(customer.id, { keep: true });
    const photo = (await fileOf(customer.id))?.photoId as string;
    await deleteExpiredIdPhotos({ now: new Date(MONDAY_MORNING.getTime() + 2 * DAY_MS), retentionDays: 30 });
    expect(await getIdPhoto(photo)).not.toBeNull();
  });

  it("is deleted on the customer's request and with the account", async () => {
    const { db } = database();
    const asked = await newCustomer();
    await checkout(asked.id, { keep: true });
    const askedPhoto = (await fileOf(asked.id))?.photoId as string;
    expect(await forgetIdOnFile(asked.id)).toBe(true);
    expect(await fileOf(asked.id)).toBeUndefined();
    expect(await getIdPhoto(askedPhoto)).toBeNull();

    const leaving = await newCustomer();
    const order = await checkout(leaving.id, { keep: true });
    const leavingPhoto = (await fileOf(leaving.id))?.photoId as string;
    await db
      .update(orders)
      .set({ status: "delivered", customerId: leaving.id })
      .where(eq(orders.id, order.placed?.id as string));
    const deleted = await deleteCustomerAccount(leaving.id, { ipAddress: null, requestId: null });
    expect(deleted.ok).toBe(true);
    expect(await db.select().from(idPhotos).where(eq(idPhotos.id, leavingPhoto))).toEqual([]);
    expect(await fileOf(leaving.id)).toBeUndefined();
  });
});
