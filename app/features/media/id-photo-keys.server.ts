/**
 * Which key ID photos are encrypted with, as the database records it (record 014). The database
 * keeps each key's id and check value (never the key): the one row not retired is the current key,
 * which every instance encrypts new photos with, so a rotation switches every instance at once.
 */
import { asc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Database, Executor, Transaction } from "#app/db/client.server.ts";
import { encryptionKeys, idPhotos } from "#app/db/schema.ts";
import {
  decryptIdPhotoBytes,
  encryptIdPhotoBytes,
  type IdPhotoKey,
  type IdPhotoKeyring,
} from "#app/features/keyring/id-photo-crypto.server.ts";
import { resealTotpSecrets } from "#app/features/staff/totp.server.ts";
import { resealDeliverySignatures } from "./signature-seal.server.ts";

/** A key problem that must stop the server from starting (the message says what to do). */
export class IdPhotoKeyError extends Error {
  readonly refusesStart = true;
}

type KeyRow = typeof encryptionKeys.$inferSelect;

export function wrongKeyMessage(neededKeyId: string, keyring: IdPhotoKeyring) {
  return `ID photos in this database are encrypted with key ${neededKeyId}; this instance has key ${keyring.current.id}: set ID_PHOTO_KEY to the key used by the other instances`;
}

/** Every key of ours the database knows must be the same key (same check value), not just the same id. */
function assertCheckValues(rows: KeyRow[], keyring: IdPhotoKeyring) {
  for (const row of rows) {
    const ours = keyring.find(row.keyId);
    if (ours && ours.checkValue !== row.checkValue) {
      throw new IdPhotoKeyError(
        `The ID photo key ${row.keyId} of this instance does not match the check value the database recorded for it: set ID_PHOTO_KEY to the key used by the other instances`,
      );
    }
  }
}

/** One writer at a time records or switches the current key, on PostgreSQL across instances too. */
async function lockKeyTable(tx: Transaction) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended('encryption_keys', 0))`);
}

async function recordFirstKey(tx: Transaction, key: IdPhotoKey) {
  await lockKeyTable(tx);
  const existing = await tx.select({ keyId: encryptionKeys.keyId }).from(encryptionKeys).limit(1);
  if (existing.length > 0) return false;
  await tx.insert(encryptionKeys).values({ keyId: key.id, checkValue: key.checkValue });
  return true;
}

export type KeyCheck = {
  /** The key new photos are encrypted with (the database's current key). */
  currentKeyId: string;
  /** True on a first start: this instance's key became the database's. */
  recorded: boolean;
  /** Photos under keys this instance does not hold (a rotation left unfinished): unreadable here. */
  unreadable: { keyId: string; photos: number }[];
};

/**
 * At boot: records this instance's key in an empty database, or refuses to start when the
 * database's current key is not one this instance holds (it would write photos the other
 * instances cannot read, and could not read theirs).
 */
export async function checkIdPhotoKeys(database: Database, keyring: IdPhotoKeyring): Promise<KeyCheck> {
  const recorded = await database.transaction((tx) => recordFirstKey(tx, keyring.current));
  const rows = await database.select().from(encryptionKeys);
  assertCheckValues(rows, keyring);
  const current = rows.find((row) => row.retiredAt === null);
  if (!current) throw new IdPhotoKeyError("The database records no current ID photo key");
  if (!keyring.find(current.keyId)) throw new IdPhotoKeyError(wrongKeyMessage(current.keyId, keyring));
  const perKey = await database
    .select({ keyId: idPhotos.keyId, photos: sql<number>`count(*)::int` })
    .from(idPhotos)
    .groupBy(idPhotos.keyId);
  const unreadable = perKey
    .filter((entry): entry is { keyId: string; photos: number } => entry.keyId !== null)
    .filter((entry) => !keyring.find(entry.keyId));
  return { currentKeyId: current.keyId, recorded, unreadable };
}

/**
 * The key to encrypt a new photo with: the database's current key, read with a share lock held
 * until the caller's transaction ends, so a rotation waits for photos being written under the old
 * key and every photo written after it uses the new one.
 */
export async function currentWriteKey(tx: Transaction, keyring: IdPhotoKeyring): Promise<IdPhotoKey> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const [row] = await tx
      .select({ keyId: encryptionKeys.keyId })
      .from(encryptionKeys)
      .where(isNull(encryptionKeys.retiredAt))
      .for("share");
    if (row) {
      const key = keyring.find(row.keyId);
      if (!key) throw new IdPhotoKeyError(wrongKeyMessage(row.keyId, keyring));
      return key;
    }
    // No current key: an empty table (a database nothing booted on yet), or a rotation that just
    // retired the row this statement waited on (the next statement sees the new one).
    const [any] = await tx.select({ keyId: encryptionKeys.keyId }).from(encryptionKeys).limit(1);
    if (!any) {
      await tx.transaction((inner) => recordFirstKey(inner, keyring.current));
    }
  }
  throw new Error("No current ID photo key could be read");
}

/** Seals one photo under the current key in `executor`'s transaction (or one of its own). */
export async function insertEncryptedIdPhoto(
  executor: Executor,
  keyring: IdPhotoKeyring,
  photo: { id: string; contentType: string; bytes: Uint8Array },
) {
  await executor.transaction(async (tx) => {
    const key = await currentWriteKey(tx, keyring);
    const sealed = encryptIdPhotoBytes(key, photo.id, photo.bytes);
    await tx.insert(idPhotos).values({
      id: photo.id,
      contentType: photo.contentType,
      bytes: sealed.bytes,
      keyId: sealed.keyId,
      nonce: sealed.nonce,
    });
  });
}

/** The photo's plain bytes; legacy rows (stored before encryption, key_id null) are plain already. */
export function openIdPhoto(
  keyring: IdPhotoKeyring,
  row: { id: string; bytes: Uint8Array; keyId: string | null; nonce: Uint8Array | null },
): Uint8Array {
  if (row.keyId === null) return row.bytes;
  const key = keyring.find(row.keyId);
  if (!key)
    throw new IdPhotoKeyError(
      `ID photo ${row.id} is encrypted with key ${row.keyId}, which this instance does not have`,
    );
  return decryptIdPhotoBytes(key, row.id, { nonce: row.nonce ?? new Uint8Array(), bytes: row.bytes });
}

const REENCRYPT_BATCH = 25;

/**
 * Moves every photo this instance can read (plain legacy rows, rows under older keys) to the
 * current key, a batch per transaction. Rows being re-encrypted elsewhere are skipped, not waited
 * for, so several instances and the rotate script can run this at once; the shop keeps serving.
 */
export async function reencryptIdPhotos(
  database: Database,
  keyring: IdPhotoKeyring,
  options: { batchSize?: number; signal?: AbortSignal } = {},
): Promise<number> {
  let total = 0;
  while (!options.signal?.aborted) {
    const done = await database.transaction(async (tx) => {
      const target = await currentWriteKey(tx, keyring);
      const readableOldKeys = keyring.ids().filter((id) => id !== target.id);
      const stale = or(
        isNull(idPhotos.keyId),
        readableOldKeys.length > 0 ? inArray(idPhotos.keyId, readableOldKeys) : undefined,
      );
      const rows = await tx
        .select({ id: idPhotos.id, bytes: idPhotos.bytes, keyId: idPhotos.keyId, nonce: idPhotos.nonce })
        .from(idPhotos)
        .where(stale)
        .orderBy(asc(idPhotos.id))
        .limit(options.batchSize ?? REENCRYPT_BATCH)
        .for("update", { skipLocked: true });
      for (const row of rows) {
        const sealed = encryptIdPhotoBytes(target, row.id, openIdPhoto(keyring, row));
        await tx
          .update(idPhotos)
          .set({ bytes: sealed.bytes, keyId: sealed.keyId, nonce: sealed.nonce })
          .where(eq(idPhotos.id, row.id));
      }
      return rows.length;
    });
    total += done;
    if (done === 0) break;
  }
  return total;
}

export type Rotation = {
  from: string | null;
  to: string;
  reencrypted: number;
  leftUnreadable: number;
  /** Staff second factors (sealed with the same key ring) moved to the new key, and those left. */
  secondFactorsResealed: number;
  secondFactorsLeftUnreadable: number;
  /** Customers' signatures at the door (record 051), sealed with the same key ring. */
  signaturesResealed: number;
  signaturesLeftUnreadable: number;
};

/**
 * `npm run id-photos:rotate-key`: makes the keyring's current key the database's current key (the
 * old one is retired but kept readable), then re-encrypts every photo under it. Run again, it
 * finishes an interrupted rotation.
 */
export async function rotateIdPhotoKey(database: Database, keyring: IdPhotoKeyring): Promise<Rotation> {
  const target = keyring.current;
  const from = await database.transaction(async (tx) => {
    await lockKeyTable(tx);
    const rows = await tx.select().from(encryptionKeys);
    assertCheckValues(rows, keyring);
    const current = rows.find((row) => row.retiredAt === null);
    if (current && !keyring.find(current.keyId)) {
      throw new IdPhotoKeyError(
        `ID photos in this database are encrypted with key ${current.keyId}, which this instance does not have: add it to ID_PHOTO_PREVIOUS_KEYS (or keep its key file) so photos can be re-encrypted`,
      );
    }
    const retired = rows.find((row) => row.keyId === target.id && row.retiredAt !== null);
    if (retired) {
      throw new IdPhotoKeyError(
        `The key ${target.id} was retired on ${retired.retiredAt?.toISOString()}: rotate to a new key, not back to an old one`,
      );
    }
    if (current?.keyId === target.id) return current.keyId;
    await tx.update(encryptionKeys).set({ retiredAt: new Date() }).where(isNull(encryptionKeys.retiredAt));
    await tx.insert(encryptionKeys).values({ keyId: target.id, checkValue: target.checkValue });
    return current?.keyId ?? null;
  });
  const reencrypted = await reencryptIdPhotos(database, keyring);
  const secondFactors = await resealTotpSecrets(database, keyring);
  const signatures = await resealDeliverySignatures(database, keyring);
  const [left] = await database
    .select({ photos: sql<number>`count(*)::int` })
    .from(idPhotos)
    .where(or(isNull(idPhotos.keyId), sql`${idPhotos.keyId} <> ${target.id}`));
  return {
    from,
    to: target.id,
    reencrypted,
    leftUnreadable: left?.photos ?? 0,
    secondFactorsResealed: secondFactors.resealed,
    secondFactorsLeftUnreadable: secondFactors.leftUnreadable,
    signaturesResealed: signatures.resealed,
    signaturesLeftUnreadable: signatures.leftUnreadable,
  };
}
