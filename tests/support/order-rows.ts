/**
 * An order written straight into the orders table (no checkout, no cut-off): what the role tests
 * and the staff stories need for an order of any day, e.g. today's at night, when no slot of today
 * can be ordered any more. The ID photo is stored by the caller, as the app stores it (encrypted):
 * in-process with `storeIdPhoto`, or over HTTP through the app's own upload (/api/id-photo).
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { Database } from "#app/db/client.server.ts";
import { orders } from "#app/db/schema.ts";

let orderCount = 0;
let lastPlacedAt = 0;

/**
 * Each row is placed at least a millisecond after the one before it: the run and the board put
 * the first placed first, comparing times to the millisecond as the pages carry them, and rows
 * written one after another can share one.
 */
function nextPlacedAt() {
  lastPlacedAt = Math.max(Date.now(), lastPlacedAt + 1);
  return new Date(lastPlacedAt);
}

export type OrderRow = {
  customerName: string;
  /** yyyy-MM-dd, store time. */
  deliveryDate: string;
  deliveryTime?: string;
  driverId?: string | null;
  status?: string;
  idPhotoId: string | null;
};

export async function insertOrderRow(db: Database, fields: OrderRow) {
  orderCount += 1;
  const publicToken = randomBytes(24).toString("base64url");
  const [row] = await db
    .insert(orders)
    .values({
      publicToken,
      idempotencyKey: randomUUID(),
      status: (fields.status ?? "confirmed") as never,
      userEmail: `customer${orderCount}-${randomUUID().slice(0, 6)}@example.com`,
      customerName: fields.customerName,
      phone: "(202) 555-0100",
      street: "1 Main St",
      city: "Washington",
      state: "DC",
      zipCode: "20001",
      deliveryAddress: "1 Main St, Washington, DC 20001",
      deliveryDate: fields.deliveryDate,
      deliveryTime: fields.deliveryTime ?? "12:00 PM-2:00 PM",
      totalAmountCents: 4200,
      quantity: 1,
      idPhotoId: fields.idPhotoId,
      driverId: fields.driverId ?? null,
      createdAt: nextPlacedAt(),
    })
    .returning({ id: orders.id });
  return { id: (row as { id: string }).id, publicToken };
}
