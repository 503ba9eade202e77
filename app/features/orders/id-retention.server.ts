/**
 * ID photos are deleted ID_RETENTION_DAYS after their order is delivered or cancelled
 * (P-6). `orders.status_changed_at` says when that happened; the admin's status change
 * must set it. A photo no order refers to (sent ahead of a checkout that never came, P-8,
 * or a checkout that failed half-way) goes after UNCLAIMED_PHOTO_HOURS. An ID kept on file goes
 * ID_RETENTION_DAYS after its expiry (record 058).
 */
import { and, inArray, isNotNull, lt, sql } from "drizzle-orm";
import { db } from "#app/db/client.server.ts";
import { customerIdFiles, idPhotos, orders } from "#app/db/schema.ts";
import { UNCLAIMED_PHOTO_HOURS } from "#app/features/media/id-image.ts";
import { deleteExpiredIdFiles } from "#app/features/media/id-on-file.server.ts";
import { config } from "#app/utils/env.server.ts";
import { startRetentionJob } from "#app/utils/periodic-job.server.ts";

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export { UNCLAIMED_PHOTO_HOURS };

/** Deletes the photos whose retention is over at `now`; returns how many went. */
export async function deleteExpiredIdPhotos(options: { now?: Date; retentionDays?: number } = {}) {
  const now = options.now ?? new Date();
  const retentionDays = options.retentionDays ?? config().ID_RETENTION_DAYS;
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  const database = await db();
  return database.transaction(async (tx) => {
    const expired = await tx
      .select({ id: orders.id, photoId: orders.idPhotoId })
      .from(orders)
      .where(
        and(
          isNotNull(orders.idPhotoId),
          inArray(orders.status, ["delivered", "cancelled"]),
          lt(orders.statusChangedAt, cutoff),
        ),
      )
      .for("update");
    let deleted = 0;
    if (expired.length > 0) {
      await tx
        .update(orders)
        .set({ idPhotoId: null })
        .where(
          inArray(
            orders.id,
            expired.map((row) => row.id),
          ),
        );
      const gone = await tx
        .delete(idPhotos)
        .where(
          inArray(
            idPhotos.id,
            expired.map((row) => row.photoId as string),
          ),
        )
        .returning({ id: idPhotos.id });
      deleted += gone.length;
    }
    deleted += await deleteExpiredIdFiles(tx, now, retentionDays);
    const orphans = await tx
      .delete(idPhotos)
      .where(
        and(
          lt(idPhotos.createdAt, new Date(now.getTime() - UNCLAIMED_PHOTO_HOURS * HOUR_MS)),
          sql`NOT EXISTS (SELECT 1 FROM ${orders} WHERE ${orders.idPhotoId} = ${idPhotos.id})`,
          sql`NOT EXISTS (SELECT 1 FROM ${customerIdFiles} WHERE ${customerIdFiles.photoId} = ${idPhotos.id})`,
        ),
      )
      .returning({ id: idPhotos.id });
    return deleted + orphans.length;
  });
}

/** Runs the clean-up at start and then every `intervalMs` (default hourly). */
export function startIdRetentionJob(options: { intervalMs?: number } = {}) {
  return startRetentionJob(() => deleteExpiredIdPhotos(), {
    ...options,
    what: "ID photo(s)",
    failure: "The ID photo retention job failed",
  });
}
