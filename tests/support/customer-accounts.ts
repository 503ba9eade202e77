/** Shared checks of the customer-account tests (record 053) and of customers for staff (record 057). */
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import type { Database } from "#app/db/client.server.ts";
import { idPhotos, orders } from "#app/db/schema.ts";
import { DELETED_CUSTOMER_NAME } from "#app/features/customers/account.server.ts";

/** A six-digit code other than `code`. */
export function wrongCodeFor(code: string) {
  return code === "000000" ? "000001" : "000000";
}

/** An `id_photos` row whose bytes stand in for a photo: enough for what deletes it. */
export async function insertIdPhotoRow(db: Database, bytes = [1, 2, 3]) {
  const [photo] = await db
    .insert(idPhotos)
    .values({ contentType: "image/jpeg", bytes: new Uint8Array(bytes) })
    .returning({ id: idPhotos.id });
  if (!photo) throw new Error("no photo row");
  return photo.id;
}

/**
 * An erased customer's order: kept for the books, its name, e-mail, phone and address removed,
 * joined to no account, and its ID photo (`photoId`) deleted. Returns the row for further checks.
 */
export async function expectOrderAnonymised(db: Database, orderId: string, photoId: string) {
  const [kept] = await db.select().from(orders).where(eq(orders.id, orderId));
  expect(kept).toMatchObject({
    customerName: DELETED_CUSTOMER_NAME,
    userEmail: "",
    phone: "",
    street: "",
    deliveryAddress: "",
    idPhotoId: null,
    customerId: null,
  });
  expect(await db.select().from(idPhotos).where(eq(idPhotos.id, photoId))).toEqual([]);
  return kept;
}
