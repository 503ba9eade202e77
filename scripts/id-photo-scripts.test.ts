/**
 * The operator's commands on a real embedded data folder, each in a process of its own:
 * `npm run id-photos:rotate-key`, `db:backup`, and `db:restore` with and without the key.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, expect, it } from "vitest";
import { openDatabase } from "#app/db/client.server.ts";
import { idPhotos } from "#app/db/schema.ts";
import { loadIdPhotoKeyring, setIdPhotoKeyring } from "#app/features/keyring/id-photo-crypto.server.ts";
import { checkIdPhotoKeys, openIdPhoto } from "#app/features/media/id-photo-keys.server.ts";
import { processIdPhoto, storeIdPhoto } from "#app/features/media/id-photos.server.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const NODE = path.join(ROOT, "node_modules/.bin/node");
const workDir = mkdtempSync(path.join(tmpdir(), "cg-photo-scripts-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function run(script: string, args: string[], env: Record<string, string | undefined>) {
  const result = spawnSync(NODE, [path.join(ROOT, "scripts", script), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: undefined, ID_PHOTO_KEY: undefined, ...env } as NodeJS.ProcessEnv,
    encoding: "utf8",
    timeout: 120_000,
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

async function photoRows(dataDir: string, keyEnv?: string) {
  const handle = await openDatabase({ kind: "pglite", dataDir, lockOwner: "the test" });
  try {
    const { keyring } = loadIdPhotoKeyring({
      dataDir,
      currentKey: keyEnv ? Buffer.from(keyEnv, "base64") : undefined,
      create: false,
    });
    const rows = await handle.db.select().from(idPhotos);
    return rows.map((row) => ({
      id: row.id,
      keyId: row.keyId,
      bytes: Buffer.from(openIdPhoto(keyring, row)),
    }));
  } finally {
    await handle.close();
  }
}

it("rotates the key of a stopped shop's photos, backs them up, and restores them only with the key", async () => {
  const dataDir = path.join(workDir, "shop");
  const handle = await openDatabase({ kind: "pglite", dataDir, lockOwner: "the test" });
  const photos = new Map<string, Buffer>();
  let oldKeyId: string;
  try {
    const { keyring } = loadIdPhotoKeyring({ dataDir, create: true });
    oldKeyId = keyring.current.id;
    await checkIdPhotoKeys(handle.db, keyring);
    setIdPhotoKeyring(keyring);
    for (let index = 0; index < 3; index++) {
      const png = await sharp(randomBytes(40 * 30 * 3), { raw: { width: 40, height: 30, channels: 3 } })
        .png()
        .toBuffer();
      const photo = await processIdPhoto(new Uint8Array(png));
      photos.set(await storeIdPhoto(photo, handle.db), Buffer.from(photo.bytes));
    }
  } finally {
    setIdPhotoKeyring(undefined);
    await handle.close();
  }

  const rotation = run("id-photos-rotate-key.ts", [], { DATA_DIR: dataDir });
  expect(rotation.code, rotation.out).toBe(0);
  const newKeyId =
    /ID photos now use key ([0-9a-f]{16}) instead of ([0-9a-f]{16}); re-encrypted 3 photos/.exec(
      rotation.out,
    );
  expect(newKeyId?.[2], rotation.out).toBe(oldKeyId);
  const keysFolder = path.join(dataDir, "keys");
  expect(readdirSync(keysFolder).sort()).toEqual([`id-photo.${oldKeyId}.key`, "id-photo.key"]);
  for (const name of readdirSync(keysFolder))
    expect(lstatSync(path.join(keysFolder, name)).mode & 0o777).toBe(0o600);
  const afterRotation = await photoRows(dataDir);
  expect(afterRotation.map((row) => row.keyId)).toEqual([newKeyId?.[1], newKeyId?.[1], newKeyId?.[1]]);
  for (const row of afterRotation) expect(row.bytes.equals(photos.get(row.id) as Buffer)).toBe(true);

  const backupFile = path.join(workDir, "shop.ndjson.gz");
  const backup = run("db-backup.ts", [backupFile], { DATA_DIR: dataDir });
  expect(backup.code, backup.out).toBe(0);
  expect(lstatSync(backupFile).mode & 0o777).toBe(0o600);

  // A new machine: its own data folder, first without the key, then with another, then with it.
  const elsewhere = path.join(workDir, "elsewhere");
  const withoutKey = run("db-restore.ts", [backupFile], { DATA_DIR: elsewhere });
  expect(withoutKey.code).toBe(1);
  expect(withoutKey.out.trim()).toBe(
    `Restore failed: This backup's ID photos are encrypted with key ${newKeyId?.[1]}; this instance has no ID photo key: set ID_PHOTO_KEY (or ID_PHOTO_PREVIOUS_KEYS) to key ${newKeyId?.[1]} and restore again. Nothing was restored.`,
  );
  const withAnotherKey = run("db-restore.ts", [backupFile], {
    DATA_DIR: elsewhere,
    ID_PHOTO_KEY: randomBytes(32).toString("base64"),
  });
  expect(withAnotherKey.code).toBe(1);
  expect(withAnotherKey.out).toContain(
    `This backup's ID photos are encrypted with key ${newKeyId?.[1]}; this instance has key `,
  );

  const key = readFileSync(path.join(keysFolder, "id-photo.key"), "utf8").trim();
  const withKey = run("db-restore.ts", [backupFile], { DATA_DIR: elsewhere, ID_PHOTO_KEY: key });
  expect(withKey.code, withKey.out).toBe(0);
  const restored = await photoRows(elsewhere, key);
  expect(restored).toHaveLength(3);
  for (const row of restored) expect(row.bytes.equals(photos.get(row.id) as Buffer)).toBe(true);
  const entries = readdirSync(elsewhere, { recursive: true, encoding: "utf8" }).map((name) =>
    path.join(elsewhere, name),
  );
  expect(entries.filter((entry) => (lstatSync(entry).mode & 0o077) !== 0)).toEqual([]);
}, 240_000);
