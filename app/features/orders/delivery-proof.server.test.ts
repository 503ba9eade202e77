import { and, eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import {
  auditEvents,
  deliveryFailures,
  deliveryProofs,
  emailOutbox,
  orderItems,
  orders,
  stockMovements,
} from "#app/db/schema.ts";
import {
  generateIdPhotoKey,
  IdPhotoKeyring,
  idPhotoKeyring,
  setIdPhotoKeyring,
} from "#app/features/keyring/id-photo-crypto.server.ts";
import { rotateIdPhotoKey } from "#app/features/media/id-photo-keys.server.ts";
import { storeDay } from "#app/utils/store-time.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { auditByStaff, insertStaff, statusOf } from "#tests/staff/support.ts";
import { insertTestProduct, stockOf, testPng } from "#tests/support/checkout-test-helpers.server.ts";
import { insertOrderRow } from "#tests/support/order-rows.ts";
import { applyOrderAction, listOrders, withDoorRecords } from "./admin-orders.server.ts";
import { deliverySignature, recordDelivery, recordFailedDelivery } from "./delivery-proof.server.ts";
import { doorRecords } from "./door-records.server.ts";
import type { DeliveryProof } from "./driver-actions.schema.ts";

describeEachDatabase("proof at the door", (database) => {
  let png: Uint8Array;
  let signaturePng: string;
  beforeAll(async () => {
    png = await testPng();
    signaturePng = `data:image/png;base64,${Buffer.from(png).toString("base64")}`;
  });

  const proof = (fields: Partial<DeliveryProof> = {}): DeliveryProof => ({
    dateOfBirth: "1990-04-12",
    nameMatches: true,
    cashReceivedCents: 5000,
    signaturePng,
    ...fields,
  });

  async function stop(driverId: string | null, status = "out_for_delivery") {
    const { id } = await insertOrderRow(database().db, {
      customerName: "Alicia Fernández-Castillo de la Vega",
      deliveryDate: storeDay(new Date()),
      driverId,
      status,
      idPhotoId: null,
    });
    return id;
  }

  async function auditOf(orderId: string, action: string) {
    return database()
      .db.select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, orderId), eq(auditEvents.action, action)));
  }

  it("records a delivery once: the age, the cash and change, the signature sealed, the receipt and audit events", async () => {
    const { db } = database();
    const driver = await insertStaff(db, "driver", "Dana");
    const orderId = await stop(driver.id);
    const phoneTime = new Date(Date.now() - 60_000);

    const first = await recordDelivery({
      driverId: driver.id,
      orderId,
      proof: proof(),
      phoneTime,
      by: auditByStaff(driver),
    });
    expect(first).toEqual({ ok: true });
    expect(await statusOf(db, orderId)).toBe("delivered");

    const [row] = await db.select().from(deliveryProofs).where(eq(deliveryProofs.orderId, orderId));
    expect(row).toMatchObject({ driverId: driver.id, cashReceivedCents: 5000, changeCents: 800 });
    expect(row?.ageYears).toBeGreaterThanOrEqual(35);
    expect(row?.phoneTime?.toISOString()).toBe(phoneTime.toISOString());
    // Sealed at rest: neither the PNG nor its signature bytes are in the stored column.
    const stored = Buffer.from(row?.signatureBytes ?? new Uint8Array());
    expect(stored.includes(Buffer.from(png.subarray(0, 8)))).toBe(false);
    expect(stored.includes(Buffer.from(png.subarray(16, 48)))).toBe(false);
    expect(Buffer.from((await deliverySignature(orderId)) ?? []).equals(Buffer.from(png))).toBe(true);

    const events = await auditOf(orderId, "order.delivery_proof");
    expect(events).toHaveLength(1);
    expect(events[0]?.details).toMatchObject({
      age: row?.ageYears,
      cashReceivedCents: 5000,
      changeCents: 800,
    });
    expect(events[0]?.actorId).toBe(driver.id);
    expect(await auditOf(orderId, "order.status_changed")).toHaveLength(1);
    const mails = await db.select().from(emailOutbox).where(eq(emailOutbox.orderId, orderId));
    expect(mails.map((mail) => mail.kind)).toEqual(["order-delivered"]);

    // The same call again (a repeat the queue's key did not catch) is not applied twice.
    const again = await recordDelivery({
      driverId: driver.id,
      orderId,
      proof: proof(),
      phoneTime,
      by: auditByStaff(driver),
    });
    expect(again).toMatchObject({ ok: false, conflict: "already-done" });
    expect(await auditOf(orderId, "order.delivery_proof")).toHaveLength(1);
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.orderId, orderId))).toHaveLength(1);

    const records = await doorRecords(db, [orderId]);
    expect(records.get(orderId)?.proof).toMatchObject({ cashReceivedCents: 5000, changeCents: 800 });
  });

  it("refuses a cancelled or reassigned order with its conflict, and stores nothing", async () => {
    const { db } = database();
    const driver = await insertStaff(db, "driver", "Dana");
    const other = await insertStaff(db, "driver", "Omar");
    const cancelled = await stop(driver.id, "cancelled");
    const reassigned = await stop(other.id);
    const by = auditByStaff(driver);

    expect(
      await recordDelivery({ driverId: driver.id, orderId: cancelled, proof: proof(), by }),
    ).toMatchObject({
      ok: false,
      conflict: "cancelled",
    });
    expect(
      await recordDelivery({ driverId: driver.id, orderId: reassigned, proof: proof(), by }),
    ).toMatchObject({
      ok: false,
      conflict: "reassigned",
    });
    expect(
      await recordFailedDelivery({
        driverId: driver.id,
        orderId: cancelled,
        reason: "customer-not-home",
        by,
      }),
    ).toMatchObject({ ok: false, conflict: "cancelled" });
    expect(
      await recordFailedDelivery({ driverId: driver.id, orderId: reassigned, reason: "refused", by }),
    ).toMatchObject({ ok: false, conflict: "reassigned" });
    expect(await statusOf(db, cancelled)).toBe("cancelled");
    expect(await statusOf(db, reassigned)).toBe("out_for_delivery");
    expect((await doorRecords(db, [cancelled, reassigned])).size).toBe(0);
  });

  it("refuses too little cash, an ID under 21 and a missing signature, leaving the stop open", async () => {
    const { db } = database();
    const driver = await insertStaff(db, "driver", "Dana");
    const orderId = await stop(driver.id);
    const by = auditByStaff(driver);
    const deliver = (fields: Partial<DeliveryProof>) =>
      recordDelivery({ driverId: driver.id, orderId, proof: proof(fields), by });

    expect(await deliver({ cashReceivedCents: 4199 })).toEqual({
      ok: false,
      conflict: "invalid",
      message: "Collect at least $42.00: $0.01 short",
    });
    const under = new Date();
    under.setUTCFullYear(under.getUTCFullYear() - 20);
    expect(await deliver({ dateOfBirth: under.toISOString().slice(0, 10) })).toMatchObject({
      ok: false,
      conflict: "invalid",
    });
    expect(await deliver({ signaturePng: "data:image/png;base64,AAAA" })).toMatchObject({
      ok: false,
      conflict: "invalid",
    });
    expect(await statusOf(db, orderId)).toBe("out_for_delivery");
    // Exact cash: no change.
    expect(await deliver({ cashReceivedCents: 4200 })).toEqual({ ok: true });
    const [row] = await db.select().from(deliveryProofs).where(eq(deliveryProofs.orderId, orderId));
    expect(row?.changeCents).toBe(0);
  });

  it("takes an unassigned order of today before delivering it", async () => {
    const { db } = database();
    const driver = await insertStaff(db, "driver", "Dana");
    const orderId = await stop(null, "confirmed");
    expect(
      await recordDelivery({ driverId: driver.id, orderId, proof: proof(), by: auditByStaff(driver) }),
    ).toEqual({
      ok: true,
    });
    const [row] = await db.select({ driverId: orders.driverId }).from(orders).where(eq(orders.id, orderId));
    expect(row?.driverId).toBe(driver.id);
    expect(await auditOf(orderId, "order.driver_assigned")).toHaveLength(1);
  });

  it("fails a stop with its reason: the order is returning; staff check it back in (stock back) or send it out again", async () => {
    const { db } = database();
    const driver = await insertStaff(db, "driver", "Dana");
    const manager = await insertStaff(db, "manager", "Mia");
    const product = await insertTestProduct(db, { inventoryCount: 10 });
    const orderId = await stop(driver.id);
    await db.insert(orderItems).values({
      orderId,
      productId: product.productId,
      productSizeId: product.sizeId,
      productName: product.name,
      sizeLabel: "3.5g",
      quantity: 2,
      unitPriceCents: 2100,
      totalPriceCents: 4200,
    });
    const phoneTime = new Date(Date.now() - 120_000);
    const by = auditByStaff(driver);
    const notHome = () =>
      recordFailedDelivery({ driverId: driver.id, orderId, reason: "customer-not-home", phoneTime, by });

    expect(
      await recordFailedDelivery({ driverId: driver.id, orderId, reason: "other", note: "  ", by }),
    ).toMatchObject({ ok: false, conflict: "invalid" });
    expect(await notHome()).toEqual({ ok: true });
    expect(await statusOf(db, orderId)).toBe("returning");
    expect(await notHome()).toMatchObject({ ok: false, conflict: "already-done" });
    const failures = await db.select().from(deliveryFailures).where(eq(deliveryFailures.orderId, orderId));
    expect(failures).toHaveLength(1);
    expect(failures[0]?.phoneTime?.toISOString()).toBe(phoneTime.toISOString());
    const events = await auditOf(orderId, "order.delivery_failed");
    expect(events.map((event) => event.details)).toEqual([
      { reason: "customer-not-home", note: null, phoneTime: phoneTime.toISOString() },
    ]);
    const mails = await db.select().from(emailOutbox).where(eq(emailOutbox.orderId, orderId));
    expect(mails.map((mail) => [mail.kind, mail.subject])).toEqual([
      ["order-returning", `We could not deliver your order #${orderId.slice(0, 8)}`],
    ]);
    expect((await doorRecords(db, [orderId])).get(orderId)?.failures.map((failure) => failure.text)).toEqual([
      "Customer not home",
    ]);

    // Send out again: confirmed, on the run again; stock untouched.
    const sent = await applyOrderAction(orderId, "send-out-again", {
      audit: auditByStaff(manager),
      actorId: manager.id,
    });
    expect(sent).toEqual({ ok: true, changed: true });
    expect(await statusOf(db, orderId)).toBe("confirmed");
    expect(await stockOf(db, product.sizeId)).toBe(10);

    // Fails again; checked back in: cancelled, the two back in stock as a 'return' movement.
    await applyOrderAction(orderId, "out-for-delivery", { audit: auditByStaff(driver), actorId: driver.id });
    expect(
      await recordFailedDelivery({ driverId: driver.id, orderId, reason: "address-not-reachable", by }),
    ).toEqual({ ok: true });
    const checked = await applyOrderAction(orderId, "check-in", {
      audit: auditByStaff(manager),
      actorId: manager.id,
    });
    expect(checked).toEqual({ ok: true, changed: true });
    const [order] = await db
      .select({ status: orders.status, cancelReason: orders.cancelReason })
      .from(orders)
      .where(eq(orders.id, orderId));
    expect(order).toEqual({ status: "cancelled", cancelReason: "Could not deliver" });
    expect(await stockOf(db, product.sizeId)).toBe(12);
    const movements = await db.select().from(stockMovements).where(eq(stockMovements.orderId, orderId));
    expect(movements.map((m) => [m.reason, m.delta, m.actorId])).toEqual([["return", 2, manager.id]]);
    // Check back in only from returning: a second press changes nothing.
    expect(await applyOrderAction(orderId, "check-in", { audit: auditByStaff(manager) })).toEqual({
      ok: true,
      changed: false,
    });
  });

  it("reads an order delivered before proof at the door as before: no door record, listed as delivered", async () => {
    const { db } = database();
    const driver = await insertStaff(db, "driver", "Dana");
    const orderId = await stop(driver.id);
    expect(
      await applyOrderAction(orderId, "deliver", { audit: auditByStaff(driver), actorId: driver.id }),
    ).toEqual({
      ok: true,
      changed: true,
    });
    const { orders: listed } = await listOrders("completed", { executor: db, limit: 100 });
    const card = listed.find((order) => order.id === orderId);
    expect(card?.status).toBe("delivered");
    await withDoorRecords(db, listed);
    expect(card?.door).toBeNull();
    expect(await deliverySignature(orderId)).toBeNull();
  });

  it("keeps signatures readable across a key rotation: sealed again under the new key", async () => {
    const { db } = database();
    const driver = await insertStaff(db, "driver", "Dana");
    const orderId = await stop(driver.id);
    expect(
      await recordDelivery({ driverId: driver.id, orderId, proof: proof(), by: auditByStaff(driver) }),
    ).toEqual({
      ok: true,
    });
    const old = idPhotoKeyring().current;
    const next = generateIdPhotoKey();
    const rotation = await rotateIdPhotoKey(db, new IdPhotoKeyring(next, [old]));
    expect(rotation.signaturesResealed).toBeGreaterThanOrEqual(1);
    expect(rotation.signaturesLeftUnreadable).toBe(0);
    // An instance holding only the new key opens it.
    setIdPhotoKeyring(new IdPhotoKeyring(next));
    const [row] = await db.select().from(deliveryProofs).where(eq(deliveryProofs.orderId, orderId));
    expect(row?.signatureKeyId).toBe(next.id);
    expect(Buffer.from((await deliverySignature(orderId)) ?? []).equals(Buffer.from(png))).toBe(true);
  });
});
