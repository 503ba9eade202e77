/**
 * A staff member opens a customer's ID photo (the card's thumbnail counts as much as the full
 * size): allowed only within their scope (a driver: today's orders assigned to them or unassigned),
 * and recorded in the audit log in the same transaction as the read (P-27). The event names
 * the order, never the photo.
 */
import { eq } from "drizzle-orm";
import { db } from "#app/db/client.server.ts";
import { UUID } from "#app/db/keyset.ts";
import { orders } from "#app/db/schema.ts";
import { getIdPhoto } from "#app/features/media/id-photos.server.ts";
import { type AuditBy, recordAuditBy } from "#app/features/staff/audit.server.ts";
import { orderWithinScope, type StaffScope } from "./driver-scope.server.ts";

export type IdPhotoView =
  | { ok: true; contentType: string; bytes: Uint8Array }
  | { ok: false; reason: "not-found" | "forbidden" };

export async function viewIdPhoto(photoId: string, scope: StaffScope, by: AuditBy): Promise<IdPhotoView> {
  if (!UUID.test(photoId)) return { ok: false, reason: "not-found" };
  const database = await db();
  return database.transaction(async (tx) => {
    const [order] = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(eq(orders.idPhotoId, photoId))
      .limit(1);
    if (!order) return { ok: false, reason: "not-found" } as const;
    if (!(await orderWithinScope(scope, { orderId: order.id }, tx))) {
      return { ok: false, reason: "forbidden" } as const;
    }
    const photo = await getIdPhoto(photoId, tx);
    if (!photo) return { ok: false, reason: "not-found" } as const;
    await recordAuditBy(tx, by, { action: "id_photo.viewed", targetType: "order", targetId: order.id });
    return { ok: true, ...photo } as const;
  });
}
