/**
 * A customer's ID on file (record 058). A signed-in customer who ticks 'Keep my ID on file for next
 * time' gets a copy of that order's photo kept under their account, encrypted like every ID photo.
 * Staff verify it on that order and record the ID's expiry;
 * from then until that date the customer's checkouts need no upload, and each order gets its own
 * copy of the photo, so each order's photo is viewed, audited and deleted by retention as before.
 */
import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import { customerIdFiles, idPhotos } from "#app/db/schema.ts";
import {
  type AuditBy,
  type AuditOrigin,
  COMMAND_LINE_ORIGIN,
  recordAudit,
  recordAuditBy,
} from "#app/features/audit/audit.server.ts";
import { idPhotoKeyring } from "#app/features/keyring/id-photo-crypto.server.ts";
import { addStoreDays, isStoreDate, storeDay } from "#app/utils/store-time.ts";
import { KEEP_ID_FIELD } from "./id-on-file.ts";
import { insertEncryptedIdPhoto } from "./id-photo-keys.server.ts";
import { getIdPhoto } from "./id-photos.server.ts";

export { KEEP_ID_FIELD };

export type IdOnFile = { expiresOn: string };

/**
 * A new `id_photos` row with the same picture, encrypted again under its own id and nonce (the id is
 * part of what the encryption authenticates, so the ciphertext cannot be shared); null when gone.
 */
async function copyPhoto(executor: Executor, photoId: string): Promise<string | null> {
  const photo = await getIdPhoto(photoId, executor);
  if (!photo) return null;
  const id = randomUUID();
  await insertEncryptedIdPhoto(executor, idPhotoKeyring(), {
    id,
    contentType: photo.contentType,
    bytes: photo.bytes,
  });
  return id;
}

async function dropFile(executor: Executor, customerId: string) {
  const [gone] = await executor
    .delete(customerIdFiles)
    .where(eq(customerIdFiles.customerId, customerId))
    .returning({ photoId: customerIdFiles.photoId });
  if (gone) await executor.delete(idPhotos).where(eq(idPhotos.id, gone.photoId));
  return gone !== undefined;
}

/**
 * The customer ticked the box on this order: its photo is kept (a copy), waiting for staff to verify
 * it. A file kept before is replaced: the newest photo is the one staff look at.
 */
export async function keepIdOnFile(input: { customerId: string; orderId: string; photoId: string }) {
  const database = await db();
  return database.transaction(async (tx) => {
    const copy = await copyPhoto(tx, input.photoId);
    if (!copy) return false;
    await dropFile(tx, input.customerId);
    await tx
      .insert(customerIdFiles)
      .values({ customerId: input.customerId, photoId: copy, sourceOrderId: input.orderId });
    return true;
  });
}

/** The customer's file when it may be used at `now`: verified by staff and not expired. */
function usableFileOf(customerId: string, now: Date) {
  return and(
    eq(customerIdFiles.customerId, customerId),
    isNotNull(customerIdFiles.verifiedAt),
    sql`${customerIdFiles.expiresOn} >= ${storeDay(now)}::date`,
  );
}

/** The customer's ID on file when it may be used at `now`. */
export async function idOnFileOf(customerId: string, now = new Date(), executor?: Executor) {
  const database = executor ?? (await db());
  const [file] = await database
    .select({ expiresOn: customerIdFiles.expiresOn })
    .from(customerIdFiles)
    .where(usableFileOf(customerId, now))
    .limit(1);
  return file?.expiresOn ? ({ expiresOn: file.expiresOn } satisfies IdOnFile) : null;
}

/** For an order placed with the ID on file: its own copy of the photo, or null when none may be used. */
export async function photoFromFile(customerId: string, now = new Date()): Promise<string | null> {
  const database = await db();
  return database.transaction(async (tx) => {
    const [file] = await tx
      .select({ photoId: customerIdFiles.photoId })
      .from(customerIdFiles)
      .where(usableFileOf(customerId, now))
      .for("share");
    return file ? copyPhoto(tx, file.photoId) : null;
  });
}

/** What staff see on an order whose photo the customer asked to keep. */
export type OrderIdFile = { customerId: string; expiresOn: string | null };

export async function idFileOfOrder(orderId: string, executor?: Executor): Promise<OrderIdFile | null> {
  const database = executor ?? (await db());
  const [file] = await database
    .select({ customerId: customerIdFiles.customerId, expiresOn: customerIdFiles.expiresOn })
    .from(customerIdFiles)
    .where(eq(customerIdFiles.sourceOrderId, orderId))
    .limit(1);
  return file ?? null;
}

/** The files kept from these orders' photos, by order id: the order cards show them to staff. */
export async function idFilesOfOrders(orderIds: string[], executor?: Executor) {
  const byOrder = new Map<string, OrderIdFile>();
  if (orderIds.length === 0) return byOrder;
  const database = executor ?? (await db());
  const rows = await database
    .select({
      orderId: customerIdFiles.sourceOrderId,
      customerId: customerIdFiles.customerId,
      expiresOn: customerIdFiles.expiresOn,
    })
    .from(customerIdFiles)
    .where(inArray(customerIdFiles.sourceOrderId, orderIds));
  for (const { orderId, ...file } of rows) if (orderId) byOrder.set(orderId, file);
  return byOrder;
}

export type IdFileChange = { ok: true } | { ok: false; reason: "not-found" | "expired" | "invalid-date" };

/** Staff checked the ID on the order's photo: it is kept on file until `expiresOn` (yyyy-MM-dd). */
export async function verifyIdOnFile(
  orderId: string,
  expiresOn: string,
  by: AuditBy,
  now = new Date(),
): Promise<IdFileChange> {
  if (!isStoreDate(expiresOn)) return { ok: false, reason: "invalid-date" };
  if (expiresOn < storeDay(now)) return { ok: false, reason: "expired" };
  const database = await db();
  return database.transaction(async (tx) => {
    const [file] = await tx
      .update(customerIdFiles)
      .set({ expiresOn, verifiedAt: now, verifiedBy: by.actor.userId })
      .where(eq(customerIdFiles.sourceOrderId, orderId))
      .returning({ customerId: customerIdFiles.customerId });
    if (!file) return { ok: false, reason: "not-found" } as const;
    await recordAuditBy(tx, by, {
      action: "id_on_file.verified",
      targetType: "order",
      targetId: orderId,
      details: { expiresOn },
    });
    return { ok: true } as const;
  });
}

/** Staff take the ID off file (wrong person, unreadable, on request by phone): photo deleted. */
export async function revokeIdOnFile(orderId: string, by: AuditBy): Promise<IdFileChange> {
  const database = await db();
  return database.transaction(async (tx) => {
    const file = await idFileOfOrder(orderId, tx);
    if (!file || !(await dropFile(tx, file.customerId))) return { ok: false, reason: "not-found" } as const;
    await recordAuditBy(tx, by, { action: "id_on_file.revoked", targetType: "order", targetId: orderId });
    return { ok: true } as const;
  });
}

/** The customer's own view of their file (the account page): null when none is kept. */
export async function customerIdFile(customerId: string) {
  const database = await db();
  const [file] = await database
    .select({ expiresOn: customerIdFiles.expiresOn })
    .from(customerIdFiles)
    .where(eq(customerIdFiles.customerId, customerId))
    .limit(1);
  return file ?? null;
}

/** The customer removes their ID from file themselves (the account's privacy section): audited. */
export async function forgetIdOnFile(customerId: string, origin: AuditOrigin = COMMAND_LINE_ORIGIN) {
  const database = await db();
  return database.transaction(async (tx) => {
    if (!(await dropFile(tx, customerId))) return false;
    await recordAudit(tx, { userId: null, email: null, role: null }, origin, {
      action: "id_on_file.removed",
      targetType: "customer",
      targetId: customerId,
    });
    return true;
  });
}

/**
 * Files past their time at `now`: a verified one `retentionDays` after its expiry, one never
 * verified `retentionDays` after it was kept (its order's own photo goes on the same clock).
 */
export async function deleteExpiredIdFiles(executor: Executor, now: Date, retentionDays: number) {
  const lastKeptExpiry = addStoreDays(storeDay(now), -retentionDays);
  const gone = await executor
    .delete(customerIdFiles)
    .where(
      or(
        and(isNotNull(customerIdFiles.expiresOn), lt(customerIdFiles.expiresOn, lastKeptExpiry)),
        and(
          isNull(customerIdFiles.verifiedAt),
          lt(customerIdFiles.createdAt, new Date(now.getTime() - retentionDays * 24 * 60 * 60 * 1000)),
        ),
      ),
    )
    .returning({ photoId: customerIdFiles.photoId });
  for (const file of gone) await executor.delete(idPhotos).where(eq(idPhotos.id, file.photoId));
  return gone.length;
}
