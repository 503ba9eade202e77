import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { type OrderStatus, orders } from "#app/db/schema.ts";
import { placeOrder } from "#app/features/checkout/place-order.server.ts";
import { getIdPhoto, processIdPhoto, storeIdPhoto } from "#app/features/media/id-photos.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import {
  insertTestProduct,
  MONDAY_MORNING,
  oneOf,
  placeOrderInput,
  testPng,
} from "#tests/support/checkout-test-helpers.server.ts";
import { deleteExpiredIdPhotos, UNCLAIMED_PHOTO_HOURS } from "./id-retention.server.ts";

const DAY = 24 * 60 * 60 * 1000;

describeEachDatabase("ID photo retention", (database) => {
  async function orderWithPhoto(status: OrderStatus, changedAt: Date) {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000 });
    const photoId = await storeIdPhoto(await processIdPhoto(await testPng()));
    const result = await placeOrder(
      placeOrderInput(oneOf(product), {
        idPhotoId: photoId,
      }),
      { now: MONDAY_MORNING },
    );
    if (!result.ok) throw new Error("refused");
    await db.update(orders).set({ status, statusChangedAt: changedAt }).where(eq(orders.id, result.order.id));
    return { orderId: result.order.id, photoId };
  }

  it("deletes photos ID_RETENTION_DAYS after delivery or cancellation, and keeps open orders' photos", async () => {
    const { db } = database();
    const delivered = await orderWithPhoto("delivered", MONDAY_MORNING);
    const cancelled = await orderWithPhoto("cancelled", new Date(MONDAY_MORNING.getTime() + 5 * DAY));
    const pending = await orderWithPhoto("pending", MONDAY_MORNING);
    const confirmed = await orderWithPhoto("confirmed", MONDAY_MORNING);

    // Day 29 after delivery: nothing is due yet.
    expect(
      await deleteExpiredIdPhotos({ now: new Date(MONDAY_MORNING.getTime() + 29 * DAY), retentionDays: 30 }),
    ).toBe(0);
    expect(await getIdPhoto(delivered.photoId)).not.toBeNull();

    // Day 31: the delivered order's photo goes; the cancelled one (5 days later) stays.
    expect(
      await deleteExpiredIdPhotos({ now: new Date(MONDAY_MORNING.getTime() + 31 * DAY), retentionDays: 30 }),
    ).toBe(1);
    expect(await getIdPhoto(delivered.photoId)).toBeNull();
    expect(await getIdPhoto(cancelled.photoId)).not.toBeNull();
    const [row] = await db
      .select({ idPhotoId: orders.idPhotoId })
      .from(orders)
      .where(eq(orders.id, delivered.orderId));
    expect(row?.idPhotoId).toBeNull();

    // A year on: the cancelled one is gone too, open orders keep theirs.
    await deleteExpiredIdPhotos({ now: new Date(MONDAY_MORNING.getTime() + 365 * DAY), retentionDays: 30 });
    expect(await getIdPhoto(cancelled.photoId)).toBeNull();
    expect(await getIdPhoto(pending.photoId)).not.toBeNull();
    expect(await getIdPhoto(confirmed.photoId)).not.toBeNull();
  });

  it("removes photos no order refers to after a few hours, and keeps claimed ones", async () => {
    const orphan = await storeIdPhoto(await processIdPhoto(await testPng()));
    const product = await insertTestProduct(database().db, { priceCents: 9000 });
    const claimed = await storeIdPhoto(await processIdPhoto(await testPng()));
    const placed = await placeOrder(
      placeOrderInput(oneOf(product), {
        idPhotoId: claimed,
      }),
      { now: MONDAY_MORNING },
    );
    expect(placed.ok).toBe(true);
    const hour = 60 * 60 * 1000;
    await deleteExpiredIdPhotos({
      now: new Date(Date.now() + (UNCLAIMED_PHOTO_HOURS - 1) * hour),
      retentionDays: 30,
    });
    expect(await getIdPhoto(orphan)).not.toBeNull();
    await deleteExpiredIdPhotos({
      now: new Date(Date.now() + (UNCLAIMED_PHOTO_HOURS + 1) * hour),
      retentionDays: 30,
    });
    expect(await getIdPhoto(orphan)).toBeNull();
    expect(await getIdPhoto(claimed)).not.toBeNull();
  });
});
