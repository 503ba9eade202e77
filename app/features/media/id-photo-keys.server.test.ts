import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { beforeEach, expect, it } from "vitest";
import { adminUsers, encryptionKeys, idPhotos } from "#app/db/schema.ts";
import {
  generateIdPhotoKey,
  type IdPhotoKey,
  IdPhotoKeyring,
  setIdPhotoKeyring,
} from "#app/features/keyring/id-photo-crypto.server.ts";
import { sealTotpSecret, unsealTotpSecret } from "#app/features/staff/totp.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import {
  checkIdPhotoKeys,
  IdPhotoKeyError,
  reencryptIdPhotos,
  rotateIdPhotoKey,
} from "./id-photo-keys.server.ts";
import { getIdPhoto, processIdPhoto, storeIdPhoto } from "./id-photos.server.ts";

/** A photo of noise: its JPEG is as unique and incompressible as a real one. */
async function noisyPhoto(width = 64, height = 48) {
  const raw = randomBytes(width * height * 3);
  const png = await sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
  return processIdPhoto(new Uint8Array(png));
}

function instance(current: IdPhotoKey, ...others: IdPhotoKey[]) {
  const keyring = new IdPhotoKeyring(current, others);
  setIdPhotoKeyring(keyring);
  return keyring;
}

describeEachDatabase("ID photos encrypted at rest", (database) => {
  beforeEach(async () => {
    await database().db.execute(sql`TRUNCATE id_photos, encryption_keys CASCADE`);
  });

  it("stores ciphertext under the current key and gives staff the photo back", async () => {
    const { db } = database();
    const key = generateIdPhotoKey();
    instance(key);
    const photo = await noisyPhoto();
    const id = await storeIdPhoto(photo);
    const [row] = await db.select().from(idPhotos).where(eq(idPhotos.id, id));
    expect(row?.keyId).toBe(key.id);
    expect(row?.nonce?.byteLength).toBe(12);
    expect(row?.bytes.byteLength).toBe(photo.bytes.byteLength + 16);
    const slice = Buffer.from(photo.bytes.subarray(200, 232));
    expect(Buffer.from(row?.bytes ?? []).includes(slice)).toBe(false);
    // The first photo on an empty database records the key and its check value.
    expect(
      await db.select({ keyId: encryptionKeys.keyId, check: encryptionKeys.checkValue }).from(encryptionKeys),
    ).toEqual([{ keyId: key.id, check: key.checkValue }]);
    const back = await getIdPhoto(id);
    expect(back?.contentType).toBe("image/jpeg");
    expect(Buffer.from(back?.bytes ?? []).equals(Buffer.from(photo.bytes))).toBe(true);
  });

  it("cannot show one customer's ciphertext as another's photo", async () => {
    const { db } = database();
    instance(generateIdPhotoKey());
    const first = await storeIdPhoto(await noisyPhoto());
    const second = await storeIdPhoto(await noisyPhoto());
    const [row] = await db.select().from(idPhotos).where(eq(idPhotos.id, first));
    await db.update(idPhotos).set({ bytes: row?.bytes, nonce: row?.nonce }).where(eq(idPhotos.id, second));
    await expect(getIdPhoto(second)).rejects.toThrow(/does not decrypt/);
  });

  it("records the first key at boot, and refuses to start with another key, naming the one it needs", async () => {
    const { db } = database();
    const first = generateIdPhotoKey();
    expect(await checkIdPhotoKeys(db, new IdPhotoKeyring(first))).toMatchObject({
      currentKeyId: first.id,
      recorded: true,
    });
    expect(await checkIdPhotoKeys(db, new IdPhotoKeyring(first))).toMatchObject({ recorded: false });
    const other = generateIdPhotoKey();
    const refusal = checkIdPhotoKeys(db, new IdPhotoKeyring(other));
    await expect(refusal).rejects.toBeInstanceOf(IdPhotoKeyError);
    await expect(refusal).rejects.toThrow(
      `ID photos in this database are encrypted with key ${first.id}; this instance has key ${other.id}: set ID_PHOTO_KEY to the key used by the other instances`,
    );
    // Nothing was recorded for the refused key.
    expect((await db.select().from(encryptionKeys)).map((row) => row.keyId)).toEqual([first.id]);
    // A key with the right id but another secret fails the check value.
    const forged = { ...other, id: first.id };
    await expect(checkIdPhotoKeys(db, new IdPhotoKeyring(forged))).rejects.toThrow(/check value/);
  });

  it("encrypts photos stored before encryption, in batches, and they read the same", async () => {
    const { db } = database();
    const keyring = instance(generateIdPhotoKey());
    const legacy = await noisyPhoto();
    const ids: string[] = [];
    for (let index = 0; index < 30; index++) {
      const [row] = await db
        .insert(idPhotos)
        .values({ contentType: "image/jpeg", bytes: legacy.bytes })
        .returning({ id: idPhotos.id });
      ids.push(row?.id as string);
    }
    expect(
      Buffer.from((await getIdPhoto(ids[0] as string))?.bytes ?? []).equals(Buffer.from(legacy.bytes)),
    ).toBe(true);
    expect(await reencryptIdPhotos(db, keyring, { batchSize: 7 })).toBe(30);
    const rows = await db.select({ keyId: idPhotos.keyId, bytes: idPhotos.bytes }).from(idPhotos);
    expect(rows.every((row) => row.keyId === keyring.current.id)).toBe(true);
    expect(rows.some((row) => Buffer.from(row.bytes).equals(Buffer.from(legacy.bytes)))).toBe(false);
    for (const id of ids) {
      expect(Buffer.from((await getIdPhoto(id))?.bytes ?? []).equals(Buffer.from(legacy.bytes))).toBe(true);
    }
    expect(await reencryptIdPhotos(db, keyring)).toBe(0);
  });

  it("rotates every photo to a new key while photos keep being stored; the old key is then no longer needed", async () => {
    const { db } = database();
    const oldKey = generateIdPhotoKey();
    instance(oldKey);
    const photos = new Map<string, Uint8Array>();
    for (let index = 0; index < 40; index++) {
      const photo = await noisyPhoto(16, 16);
      photos.set(await storeIdPhoto(photo), photo.bytes);
    }
    const newKey = generateIdPhotoKey();
    // Every instance now holds both keys; the database still says the old one is current.
    const both = instance(newKey, oldKey);
    expect(await checkIdPhotoKeys(db, both)).toMatchObject({ currentKeyId: oldKey.id });
    const duringRotation = (async () => {
      for (let index = 0; index < 10; index++) {
        const photo = await noisyPhoto(16, 16);
        photos.set(await storeIdPhoto(photo), photo.bytes);
      }
    })();
    const rotation = await rotateIdPhotoKey(db, both);
    await duringRotation;
    expect(rotation).toMatchObject({ from: oldKey.id, to: newKey.id, leftUnreadable: 0 });
    expect(rotation.reencrypted).toBeGreaterThanOrEqual(40);
    const keyIds = await db
      .select({ keyId: idPhotos.keyId, n: sql<number>`count(*)::int` })
      .from(idPhotos)
      .groupBy(idPhotos.keyId);
    expect(keyIds).toEqual([{ keyId: newKey.id, n: 50 }]);

    // An instance with only the new key reads every photo; one with only the old key may not start.
    instance(newKey);
    for (const [id, bytes] of photos) {
      expect(Buffer.from((await getIdPhoto(id))?.bytes ?? []).equals(Buffer.from(bytes))).toBe(true);
    }
    await expect(checkIdPhotoKeys(db, new IdPhotoKeyring(oldKey))).rejects.toThrow(
      `ID photos in this database are encrypted with key ${newKey.id}; this instance has key ${oldKey.id}`,
    );
    const recorded = await db.select().from(encryptionKeys).orderBy(encryptionKeys.createdAt);
    expect(recorded.find((row) => row.keyId === oldKey.id)?.retiredAt).toBeInstanceOf(Date);
    expect(recorded.find((row) => row.keyId === newKey.id)?.retiredAt).toBeNull();
    // Going back to a retired key is refused.
    await expect(rotateIdPhotoKey(db, new IdPhotoKeyring(oldKey, [newKey]))).rejects.toThrow(/was retired/);
  });

  it("moves staff second factors to the new key, so retiring the old one locks nobody out", async () => {
    const { db } = database();
    const oldKey = generateIdPhotoKey();
    const old = instance(oldKey);
    await checkIdPhotoKeys(db, old);
    const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
    const [user] = await db
      .insert(adminUsers)
      .values({
        email: `rotation-${randomBytes(4).toString("hex")}@capitalgrown.test`,
        passwordHash: "$argon2id$x",
      })
      .returning();
    const userId = user?.id as string;
    const sealed = sealTotpSecret(old, userId, secret);
    await db
      .update(adminUsers)
      .set({ totpSecretSealed: sealed.bytes, totpKeyId: sealed.keyId })
      .where(eq(adminUsers.id, userId));

    const newKey = generateIdPhotoKey();
    const rotation = await rotateIdPhotoKey(db, instance(newKey, oldKey));
    expect(rotation).toMatchObject({ secondFactorsResealed: 1, secondFactorsLeftUnreadable: 0 });
    const [row] = await db.select().from(adminUsers).where(eq(adminUsers.id, userId));
    expect(row?.totpKeyId).toBe(newKey.id);
    // An instance with only the new key opens it.
    const stored = { keyId: row?.totpKeyId as string, bytes: row?.totpSecretSealed as Uint8Array };
    expect(unsealTotpSecret(new IdPhotoKeyring(newKey), userId, stored)).toBe(secret);
  });

  it("will not rotate without the key the photos are encrypted with", async () => {
    const { db } = database();
    instance(generateIdPhotoKey());
    await storeIdPhoto(await noisyPhoto(16, 16));
    await expect(rotateIdPhotoKey(db, new IdPhotoKeyring(generateIdPhotoKey()))).rejects.toThrow(
      /which this instance does not have/,
    );
  });
});
