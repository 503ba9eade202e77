import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, expect, it } from "vitest";
import {
  generateIdPhotoKey,
  IdPhotoKeyring,
  setIdPhotoKeyring,
} from "#app/features/media/id-photo-crypto.server.ts";
import { getIdPhoto, processIdPhoto, storeIdPhoto } from "#app/features/media/id-photos.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { BackupKeyError, backupDatabase, restoreDatabase } from "./backup.server.ts";
import {
  adminUsers,
  catalogState,
  encryptionKeys,
  idPhotos,
  mediaFiles,
  productSizes,
  products,
} from "./schema.ts";

async function noisyPhoto() {
  const png = await sharp(randomBytes(48 * 32 * 3), { raw: { width: 48, height: 32, channels: 3 } })
    .png()
    .toBuffer();
  return processIdPhoto(new Uint8Array(png));
}

const folder = mkdtempSync(path.join(tmpdir(), "cg-backup-test-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describeEachDatabase("backup and restore", (database) => {
  it("round-trips every table, binary data and timestamps included", async () => {
    const { db } = database();
    const bytes = new Uint8Array([0, 1, 2, 253, 254, 255]);
    const [product] = await db
      .insert(products)
      .values({ name: "Round Trip Kush", category: "Flower", thcPercentage: 22.5, isFeatured: true })
      .returning();
    await db.insert(productSizes).values([
      {
        productId: product?.id as string,
        size: "3.5g",
        priceCents: 4500,
        salePriceCents: 3900,
        inventoryCount: 7,
      },
      { productId: product?.id as string, size: "7g", priceCents: 8000, inventoryCount: 0 },
    ]);
    await db.insert(mediaFiles).values({
      path: "abc-160.webp",
      imageKey: "abc",
      width: 160,
      height: 160,
      contentType: "image/webp",
      bytes,
    });
    await db.insert(adminUsers).values({ email: "owner@capitalgrown.test", passwordHash: "$argon2id$x" });

    const file = path.join(folder, `${crypto.randomUUID()}.ndjson.gz`);
    const { counts } = await backupDatabase(db, file);
    expect(counts.products).toBe(1);
    expect(counts.product_sizes).toBe(2);

    // Lose the data, then bring it back.
    await db.execute(sql`TRUNCATE products, media_files, admin_users CASCADE`);
    expect(await db.select().from(products)).toHaveLength(0);
    const versionBefore = (await db.select().from(catalogState))[0]?.version ?? 0;

    const restored = await restoreDatabase(db, file, { availableKeys: [] });
    expect(restored.products).toBe(1);
    const [back] = await db
      .select()
      .from(products)
      .where(eq(products.id, product?.id as string));
    expect(back).toEqual(product);
    const sizes = await db.select().from(productSizes).orderBy(productSizes.priceCents);
    expect(
      sizes.map((size) => [size.size, size.priceCents, size.salePriceCents, size.inventoryCount]),
    ).toEqual([
      ["3.5g", 4500, 3900, 7],
      ["7g", 8000, null, 0],
    ]);
    const [media] = await db.select().from(mediaFiles);
    expect(Array.from(media?.bytes ?? [])).toEqual(Array.from(bytes));
    expect((await db.select().from(adminUsers))[0]?.email).toBe("owner@capitalgrown.test");
    // Restoring invalidates every cached catalogue page.
    expect((await db.select().from(catalogState))[0]?.version ?? 0).toBeGreaterThan(versionBefore);
  });

  it("refuses a file that is not a backup and leaves the data alone", async () => {
    const { db } = database();
    const { gzipSync } = await import("node:zlib");
    const { writeFileSync } = await import("node:fs");
    const file = path.join(folder, "not-a-backup.gz");
    writeFileSync(file, gzipSync('{"hello":"world"}\n'));
    const before = await db.select().from(products);
    await expect(restoreDatabase(db, file, { availableKeys: [] })).rejects.toThrow(
      /not a Capital Grown backup/,
    );
    expect(await db.select().from(products)).toEqual(before);
  });

  it("carries ID photos as ciphertext only, with the key ids and check values, never a key", async () => {
    const { db } = database();
    await db.execute(sql`TRUNCATE id_photos, encryption_keys CASCADE`);
    const key = generateIdPhotoKey();
    setIdPhotoKeyring(new IdPhotoKeyring(key));
    const photo = await noisyPhoto();
    const id = await storeIdPhoto(photo);
    const file = path.join(folder, `${crypto.randomUUID()}.ndjson.gz`);
    const { counts, plaintextIdPhotos } = await backupDatabase(db, file);
    expect(counts.id_photos).toBe(1);
    expect(counts.encryption_keys).toBe(1);
    expect(plaintextIdPhotos).toBe(0);
    const text = gunzipSync(readFileSync(file)).toString("utf8");
    // bytea travels as hex in the JSON rows: the photo's hex must not be there, the ciphertext's must.
    const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
    for (const offset of [100, 500, 1000]) {
      expect(text).not.toContain(hexOf(photo.bytes.subarray(offset, offset + 32)));
    }
    const [row] = await db.select().from(idPhotos).where(eq(idPhotos.id, id));
    expect(text).toContain(hexOf((row?.bytes ?? new Uint8Array(0)).subarray(100, 132)));
    expect(text).toContain(key.id);
    expect(text).toContain(key.checkValue);
    expect(text).not.toContain(key.secret.toString("hex"));
    expect(text).not.toContain(key.secret.toString("base64"));
    expect(JSON.parse(text.split("\n")[0] as string).idPhotoKeys).toEqual([
      { id: key.id, checkValue: key.checkValue },
    ]);
  });

  it("restores ID photos with the key, and refuses clearly without it or with another key", async () => {
    const { db } = database();
    await db.execute(sql`TRUNCATE id_photos, encryption_keys CASCADE`);
    const key = generateIdPhotoKey();
    const keyring = new IdPhotoKeyring(key);
    setIdPhotoKeyring(keyring);
    const photo = await noisyPhoto();
    const id = await storeIdPhoto(photo);
    const file = path.join(folder, `${crypto.randomUUID()}.ndjson.gz`);
    await backupDatabase(db, file);

    // Another shop's data is in the database now; a refused restore must leave it alone.
    await db.execute(sql`TRUNCATE id_photos, encryption_keys CASCADE`);
    const other = generateIdPhotoKey();
    setIdPhotoKeyring(new IdPhotoKeyring(other));
    const otherPhoto = await storeIdPhoto(await noisyPhoto());

    const withoutKey = restoreDatabase(db, file, { availableKeys: [] });
    await expect(withoutKey).rejects.toBeInstanceOf(BackupKeyError);
    await expect(withoutKey).rejects.toThrow(
      `This backup's ID photos are encrypted with key ${key.id}; this instance has no ID photo key: set ID_PHOTO_KEY (or ID_PHOTO_PREVIOUS_KEYS) to key ${key.id} and restore again. Nothing was restored.`,
    );
    await expect(
      restoreDatabase(db, file, { availableKeys: new IdPhotoKeyring(other).fingerprints() }),
    ).rejects.toThrow(
      `This backup's ID photos are encrypted with key ${key.id}; this instance has key ${other.id}:`,
    );
    // Same id, another secret: the check value tells them apart.
    await expect(
      restoreDatabase(db, file, { availableKeys: [{ id: key.id, checkValue: other.checkValue }] }),
    ).rejects.toBeInstanceOf(BackupKeyError);
    expect((await db.select({ id: idPhotos.id }).from(idPhotos)).map((row) => row.id)).toEqual([otherPhoto]);
    expect((await db.select().from(encryptionKeys)).map((row) => row.keyId)).toEqual([other.id]);

    // With the key (here as a previous key beside another current one) it restores, and photos read.
    const restoringInstance = new IdPhotoKeyring(other, [key]);
    const restored = await restoreDatabase(db, file, { availableKeys: restoringInstance.fingerprints() });
    expect(restored.id_photos).toBe(1);
    setIdPhotoKeyring(restoringInstance);
    expect(Buffer.from((await getIdPhoto(id))?.bytes ?? []).equals(Buffer.from(photo.bytes))).toBe(true);
    expect(await getIdPhoto(otherPhoto)).toBeNull();
    expect((await db.select().from(encryptionKeys)).map((row) => row.keyId)).toEqual([key.id]);
  });
});
