/**
 * A staff member opens a customer's ID photo: allowed only within their scope (a driver: today's
 * orders assigned to them or unassigned), and recorded in the audit log in the same transaction as
 * the read (P-27). The event names the order, never the photo.
 *
 * The order card shows the photo as a thumbnail, loaded with every page load and every revalidation;
 * that load (`kind: "thumbnail"`) is recorded at most once per staff member, order and hour. Opening
 * the photo itself (`kind: "opened"`, the thumbnail's link) is recorded every time. The audit log
 * keeps every row it gets (record 036): fewer are written, and the order's history folds repeats.
 */
import { and, desc, eq, gt, sql } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import { UUID } from "#app/db/keyset.ts";
import { auditEvents, orders } from "#app/db/schema.ts";
import { type AuditBy, recordAuditBy } from "#app/features/audit/audit.server.ts";
import { getIdPhoto } from "#app/features/media/id-photos.server.ts";
import { orderWithinScope, type StaffScope } from "./driver-scope.server.ts";

export type IdPhotoView =
  | { ok: true; contentType: string; bytes: Uint8Array }
  | { ok: false; reason: "not-found" | "forbidden" };

export type IdPhotoViewKind = "thumbnail" | "opened";

/** A thumbnail shown again within this long of the same person's last recorded view is not recorded. */
export const THUMBNAIL_VIEW_WINDOW_MS = 60 * 60 * 1000;

export async function viewIdPhoto(
  photoId: string,
  scope: StaffScope,
  by: AuditBy,
  options: { kind?: IdPhotoViewKind; now?: Date } = {},
): Promise<IdPhotoView> {
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
    const kind = options.kind ?? "opened";
    if (kind === "opened" || !(await viewedRecently(tx, by, order.id, options.now ?? new Date()))) {
      await recordAuditBy(tx, by, {
        action: "id_photo.viewed",
        targetType: "order",
        targetId: order.id,
        ...(kind === "opened" ? { details: { opened: true } } : {}),
      });
    }
    return { ok: true, ...photo } as const;
  });
}

/**
 * Whether this staff member's view of this order is on record within the window. The check and the
 * write are serialised per person and order (a page's reload and its revalidation arrive together).
 */
async function viewedRecently(tx: Executor, by: AuditBy, orderId: string, now: Date) {
  const actorId = by.actor.userId;
  if (!actorId) return false;
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`id-photo-view:${actorId}:${orderId}`}))`);
  const [recent] = await tx
    .select({ id: auditEvents.id })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.targetType, "order"),
        eq(auditEvents.targetId, orderId),
        eq(auditEvents.action, "id_photo.viewed"),
        eq(auditEvents.actorId, actorId),
        gt(auditEvents.createdAt, new Date(now.getTime() - THUMBNAIL_VIEW_WINDOW_MS)),
      ),
    )
    .orderBy(desc(auditEvents.createdAt))
    .limit(1);
  return recent !== undefined;
}
