/**
 * Customer ID photos (P-6): the checkout upload is read from the request stream with a
 * hard byte limit, checked by content (magic bytes and a real decode), re-encoded to JPEG without
 * any metadata (EXIF/GPS gone) and stored privately in `id_photos`, encrypted (record 014). Only an
 * admin route serves them.
 */

import { randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import { idPhotos } from "#app/db/schema.ts";
import { idPhotoKeyring } from "#app/features/keyring/id-photo-crypto.server.ts";
import { ID_IMAGE_MESSAGES, MAX_UPLOAD_BYTES } from "./id-image.ts";
import { insertEncryptedIdPhoto, openIdPhoto } from "./id-photo-keys.server.ts";
import sharp, { lowerImageThreadPriority } from "./sharp.server.ts";
import { UploadRefused } from "./upload-refused.ts";
import { createWorkQueue, QueueBusy } from "./work-queue.server.ts";

/** Refuse pixel bombs: a phone's camera takes 12 to 24 megapixels (record 015). */
export const MAX_INPUT_PIXELS = 25_000_000;
/** Stored photos are at most this wide or high: enough to read an ID, about 200–400 KB. */
export const STORED_MAX_SIDE = 1600;

/**
 * Decoding a 12-megapixel photo takes about 40 MB and a core for a fraction of a second: at most
 * two at once per process; the others wait up to 10 s, then get 503 with Retry-After. A line
 * longer than `maxWaiting` is refused at once: each waiting request holds its upload (up to
 * 10 MB) in memory, and at two at a time it would not get its turn within the 10 s anyway.
 */
export const ID_PHOTO_QUEUE = { concurrency: 2, maxWaitMs: 10_000, maxWaiting: 32 } as const;
export const ID_PHOTO_DECODES = createWorkQueue(ID_PHOTO_QUEUE);
export const ID_PHOTO_BUSY_MESSAGE =
  "We are checking many ID photos right now. Please try again in a few seconds.";

/** The checkout post's field naming a photo sent ahead by `uploadIdPhoto`. */
export const ID_PHOTO_TOKEN_FIELD = "idPhotoToken";

export type SniffedImage = "jpeg" | "png" | "gif" | "webp";

/** The image type by its first bytes, whatever the file is called or claims to be. */
export function sniffImageType(bytes: Uint8Array): SniffedImage | null {
  const starts = (...signature: number[]) => signature.every((byte, index) => bytes[index] === byte);
  if (starts(0xff, 0xd8, 0xff)) return "jpeg";
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "png";
  if (starts(0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61)
    return "gif";
  if (
    starts(0x52, 0x49, 0x46, 0x46) &&
    bytes[8] === 0x57 &&
    bytes[9] === 0x45 &&
    bytes[10] === 0x42 &&
    bytes[11] === 0x50
  ) {
    return "webp";
  }
  return null;
}

export type ProcessedIdPhoto = {
  contentType: "image/jpeg";
  bytes: Uint8Array;
  width: number;
  height: number;
};

/** What can be told without decoding: the size and the first bytes. Throws UploadRefused otherwise. */
export function checkIdPhotoBytes(input: Uint8Array) {
  if (input.byteLength > MAX_UPLOAD_BYTES) throw new UploadRefused("too-large", ID_IMAGE_MESSAGES.tooLarge);
  if (!sniffImageType(input)) throw new UploadRefused("invalid", ID_IMAGE_MESSAGES.type);
}

/**
 * Checks the bytes are a real image and re-encodes them: oriented upright, scaled down to a
 * readable size, JPEG, with no EXIF/GPS/ICC metadata. Throws UploadRefused otherwise.
 */
export async function processIdPhoto(input: Uint8Array): Promise<ProcessedIdPhoto> {
  checkIdPhotoBytes(input);
  try {
    return await ID_PHOTO_DECODES.run(() => reencode(input));
  } catch (error) {
    if (error instanceof QueueBusy) {
      throw new UploadRefused("busy", ID_PHOTO_BUSY_MESSAGE, error.retryAfterSeconds);
    }
    throw new UploadRefused("invalid", ID_IMAGE_MESSAGES.unreadable);
  }
}

async function reencode(input: Uint8Array): Promise<ProcessedIdPhoto> {
  const { data, info } = await sharp(input, {
    limitInputPixels: MAX_INPUT_PIXELS,
    failOn: "error",
    animated: false,
  })
    .rotate()
    .resize({ width: STORED_MAX_SIDE, height: STORED_MAX_SIDE, fit: "inside", withoutEnlargement: true })
    .flatten({ background: "#ffffff" })
    // Plain libjpeg-turbo, not mozjpeg: slightly larger files for several times less CPU, and this
    // runs on the checkout request (record 008 has the figures).
    .jpeg({ quality: 85 })
    .toBuffer({ resolveWithObject: true });
  lowerImageThreadPriority();
  return { contentType: "image/jpeg", bytes: new Uint8Array(data), width: info.width, height: info.height };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The token of a photo sent ahead, as the checkout post names it; null when absent or malformed. */
export function idPhotoTokenOf(form: FormData): string | null {
  const value = form.get(ID_PHOTO_TOKEN_FIELD);
  return typeof value === "string" && UUID.test(value) ? value.toLowerCase() : null;
}

/** Stores the photo encrypted under the database's current key (record 014); returns its id. */
export async function storeIdPhoto(photo: ProcessedIdPhoto, executor?: Executor): Promise<string> {
  const id = randomUUID();
  await insertEncryptedIdPhoto(executor ?? (await db()), idPhotoKeyring(), {
    id,
    contentType: photo.contentType,
    bytes: photo.bytes,
  });
  return id;
}

/** The stored photo, decrypted, for the admin ID-photo route (which must check the admin session first). */
export async function getIdPhoto(
  id: string,
  executor?: Executor,
): Promise<{ contentType: string; bytes: Uint8Array } | null> {
  if (!UUID.test(id)) return null;
  const database = executor ?? (await db());
  const [row] = await database
    .select({
      id: idPhotos.id,
      contentType: idPhotos.contentType,
      bytes: idPhotos.bytes,
      keyId: idPhotos.keyId,
      nonce: idPhotos.nonce,
    })
    .from(idPhotos)
    .where(eq(idPhotos.id, id))
    .limit(1);
  if (!row) return null;
  return { contentType: row.contentType, bytes: openIdPhoto(idPhotoKeyring(), row) };
}

export async function deleteIdPhotos(ids: string[], executor?: Executor) {
  if (ids.length === 0) return 0;
  const database = executor ?? (await db());
  const deleted = await database
    .delete(idPhotos)
    .where(inArray(idPhotos.id, ids))
    .returning({ id: idPhotos.id });
  return deleted.length;
}
