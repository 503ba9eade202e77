import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, expect, it } from "vitest";
import {
  generateIdPhotoKey,
  IdPhotoKeyring,
  setIdPhotoKeyring,
} from "#app/features/keyring/id-photo-crypto.server.ts";
import { getIdPhoto, processIdPhoto, storeIdPhoto } from "#app/features/media/id-photos.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import {
  BACKUP_TABLES,
  BackupKeyError,
  backupDatabase,
  NOT_BACKED_UP,
  restoreDatabase,
} from "./backup.server.ts";
import { rowsOf } from "./rows.ts";
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

  it("holds every table of the schema but the short-lived ones", async () => {
    const { db } = database();
    const tables = rowsOf(
      await db.execute(sql`SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
          AND table_name <> '__drizzle_migrations' ORDER BY 1`),
    ).map((row) => row.name as string);
    expect([...BACKUP_TABLES, ...NOT_BACKED_UP].sort()).toEqual(tables);
  });

  it("brings back settings, zones, closures, staff and the audit log, whose events a restore never removes", async () => {
    const { db } = database();
    await db.execute(sql`INSERT INTO store_settings (key, value) VALUES ('drivers_require_two_factor', 'true'::jsonb)
      ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
    await db.execute(sql`INSERT INTO delivery_zones (name, state, zip_codes, minimum_order_cents)
      VALUES ('Backup Test Zone', 'VA', '{22201,22202}', 9000)`);
    await db.execute(
      sql`INSERT INTO delivery_closures (date, slot, reason) VALUES ('2027-01-01', NULL, 'New Year')`,
    );
    const [owner] = await db
      .insert(adminUsers)
      .values({ email: "audited-owner@capitalgrown.test", passwordHash: "$argon2id$x" })
      .returning();
    await db.execute(
      sql`INSERT INTO admin_recovery_codes (user_id, code_hash) VALUES (${owner?.id}, 'hash-1')`,
    );
    await db.execute(sql`INSERT INTO staff_invitations (token_hash, email, role, first_name, invited_by, expires_at)
      VALUES ('invite-hash', 'new-driver@capitalgrown.test', 'driver', 'Dee', ${owner?.id}, now() + interval '1 day')`);
    await db.execute(sql`INSERT INTO audit_events (actor_id, action, target_type, target_id)
      VALUES (${owner?.id}, 'backup.test.before', 'order', 'o-1')`);
    const file = path.join(folder, `${crypto.randomUUID()}.ndjson.gz`);
    const { counts } = await backupDatabase(db, file);
    expect(counts.audit_events).toBeGreaterThanOrEqual(1);

    // The shop goes on after the backup, then loses its settings, zones and staff.
    await db.execute(sql`INSERT INTO audit_events (action) VALUES ('backup.test.after')`);
    await db.execute(sql`TRUNCATE delivery_zones, delivery_closures, store_settings, admin_users CASCADE`);

    await restoreDatabase(db, file, { availableKeys: [] });
    const one = async (query: ReturnType<typeof sql>) => rowsOf(await db.execute(query));
    expect(await one(sql`SELECT value FROM store_settings WHERE key = 'drivers_require_two_factor'`)).toEqual(
      [{ value: true }],
    );
    expect(
      await one(
        sql`SELECT state, zip_codes, minimum_order_cents FROM delivery_zones WHERE name = 'Backup Test Zone'`,
      ),
    ).toEqual([{ state: "VA", zip_codes: ["22201", "22202"], minimum_order_cents: 9000 }]);
    expect(await one(sql`SELECT reason FROM delivery_closures`)).toEqual([{ reason: "New Year" }]);
    expect(await one(sql`SELECT code_hash FROM admin_recovery_codes WHERE user_id = ${owner?.id}`)).toEqual([
      { code_hash: "hash-1" },
    ]);
    expect(await one(sql`SELECT email, invited_by FROM staff_invitations`)).toEqual([
      { email: "new-driver@capitalgrown.test", invited_by: owner?.id },
    ]);
    // Both events: the one from the backup, and the one recorded after it, which the restore kept.
    const actions = (
      await one(sql`SELECT action FROM audit_events WHERE action LIKE 'backup.test.%' ORDER BY id`)
    ).map((row) => row.action);
    expect(actions).toEqual(["backup.test.before", "backup.test.after"]);
    // The log goes on after the restore: the next event's id follows every restored one.
    const [later] = await one(
      sql`INSERT INTO audit_events (action) VALUES ('backup.test.later') RETURNING id`,
    );
    const earlier = await one(
      sql`SELECT id FROM audit_events WHERE action LIKE 'backup.test.%' AND action <> 'backup.test.later'`,
    );
    expect(Number(later?.id)).toBeGreaterThan(Math.max(...earlier.map((row) => Number(row.id))));
  });

  it("leaves a table that an older backup does not hold as it is", async () => {
    const { db } = database();
    await db.execute(
      sql`INSERT INTO delivery_zones (name, state, zip_codes) VALUES ('Kept Zone', 'DC', '{20001}')`,
    );
    const file = path.join(folder, `${crypto.randomUUID()}.ndjson.gz`);
    await backupDatabase(db, file);
    // The same backup as one made before zones were backed up: no header count, no rows.
    const lines = gunzipSync(readFileSync(file)).toString("utf8").split("\n").filter(Boolean);
    const header = JSON.parse(lines[0] as string);
    delete header.tables.delivery_zones;
    const older = [
      JSON.stringify(header),
      ...lines.slice(1).filter((line) => JSON.parse(line).table !== "delivery_zones"),
    ];
    const olderFile = path.join(folder, `${crypto.randomUUID()}.ndjson.gz`);
    writeFileSync(olderFile, gzipSync(`${older.join("\n")}\n`));

    await restoreDatabase(db, olderFile, { availableKeys: [] });
    const zones = rowsOf(await db.execute(sql`SELECT name FROM delivery_zones WHERE name = 'Kept Zone'`));
    expect(zones).toEqual([{ name: "Kept Zone" }]);
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

  it("writes phone-sized ID photos a few to a line, so no line holds more than about a megabyte", async () => {
    const { db } = database();
    await db.execute(sql`TRUNCATE id_photos CASCADE`);
    const photos = Array.from({ length: 12 }, () => randomBytes(400_000));
    for (const bytes of photos) await db.insert(idPhotos).values({ contentType: "image/jpeg", bytes });
    const file = path.join(folder, `${crypto.randomUUID()}.ndjson.gz`);
    const { counts } = await backupDatabase(db, file);
    expect(counts.id_photos).toBe(12);
    const lines = gunzipSync(readFileSync(file)).toString("utf8").split("\n").filter(Boolean);
    const photoLines = lines.map((line) => JSON.parse(line)).filter((entry) => entry.table === "id_photos");
    expect(photoLines.reduce((sum, entry) => sum + entry.rows.length, 0)).toBe(12);
    // A line is fetched, written, read and inserted whole: 12 photos on one line were 9.6 MB of hex.
    const longest = Math.max(...lines.map((line) => line.length));
    expect(longest, `longest line ${longest} characters`).toBeLessThanOrEqual(2 * 1024 * 1024);

    await db.execute(sql`TRUNCATE id_photos CASCADE`);
    const { readBackupHeader } = await import("./backup.server.ts");
    const header = await readBackupHeader(file);
    await restoreDatabase(db, file, { availableKeys: header.idPhotoKeys ?? [] });
    const restored = await db.select({ bytes: idPhotos.bytes }).from(idPhotos);
    expect(restored.map((row) => Buffer.from(row.bytes).toString("base64")).sort()).toEqual(
      photos.map((bytes) => bytes.toString("base64")).sort(),
    );
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
