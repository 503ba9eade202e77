import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "#app/utils/env.server.ts";
import { tempFolders } from "#tests/support/temp-folders.ts";
import {
  decryptIdPhotoBytes,
  encryptIdPhotoBytes,
  generateIdPhotoKey,
  IdPhotoDecryptionError,
  idPhotoKey,
  loadIdPhotoKeyring,
  MissingIdPhotoKeyError,
  replaceKeyFile,
} from "./id-photo-crypto.server.ts";

const tempDataDir = tempFolders("cg-keys-test-");

describe("ID photo encryption", () => {
  const photo = new Uint8Array(randomBytes(50_000));

  it("round-trips with a fresh 12-byte nonce per photo, and the ciphertext is not the photo", () => {
    const key = generateIdPhotoKey();
    const id = randomUUID();
    const first = encryptIdPhotoBytes(key, id, photo);
    const second = encryptIdPhotoBytes(key, id, photo);
    expect(first.nonce.byteLength).toBe(12);
    expect(Buffer.from(first.nonce).equals(Buffer.from(second.nonce))).toBe(false);
    expect(first.bytes.byteLength).toBe(photo.byteLength + 16);
    expect(Buffer.from(first.bytes).includes(Buffer.from(photo.subarray(20_000, 20_032)))).toBe(false);
    expect(first.keyId).toBe(key.id);
    expect(Buffer.from(decryptIdPhotoBytes(key, id, first)).equals(Buffer.from(photo))).toBe(true);
  });

  it("refuses a ciphertext moved to another photo, altered, or opened with another key", () => {
    const key = generateIdPhotoKey();
    const id = randomUUID();
    const sealed = encryptIdPhotoBytes(key, id, photo);
    expect(() => decryptIdPhotoBytes(key, randomUUID(), sealed)).toThrow(IdPhotoDecryptionError);
    expect(() => decryptIdPhotoBytes(generateIdPhotoKey(), id, sealed)).toThrow(IdPhotoDecryptionError);
    const altered = new Uint8Array(sealed.bytes);
    altered[100] = (altered[100] ?? 0) ^ 1;
    expect(() => decryptIdPhotoBytes(key, id, { nonce: sealed.nonce, bytes: altered })).toThrow(
      IdPhotoDecryptionError,
    );
    // The key id is authenticated too: the same key under another id does not open it.
    expect(() => decryptIdPhotoBytes({ ...key, id: "0000000000000000" }, id, sealed)).toThrow(
      IdPhotoDecryptionError,
    );
  });

  it("names a key by a 16-hex-character id and a check value that reveal nothing of it", () => {
    const secret = randomBytes(32);
    const key = idPhotoKey(secret);
    expect(key.id).toMatch(/^[0-9a-f]{16}$/);
    expect(idPhotoKey(Buffer.from(secret)).id).toBe(key.id);
    expect(generateIdPhotoKey().id).not.toBe(key.id);
    for (const shown of [key.id, key.checkValue]) {
      expect(shown).not.toContain(secret.toString("hex").slice(0, 16));
      expect(shown).not.toContain(secret.toString("base64").slice(0, 16));
    }
  });
});

describe("ID photo keys", () => {
  it("generates DATA_DIR/keys/id-photo.key on first start (folder 0700, file 0600) and reads it after", () => {
    const dataDir = tempDataDir();
    const first = loadIdPhotoKeyring({ dataDir, create: true });
    expect(first.generated).toBe(true);
    expect(first.keyring.source).toBe("generated");
    const file = path.join(dataDir, "keys", "id-photo.key");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    const again = loadIdPhotoKeyring({ dataDir, create: true });
    expect(again.generated).toBe(false);
    expect(again.keyring.current.id).toBe(first.keyring.current.id);
  });

  it("never makes a key where only reading is asked for", () => {
    const dataDir = tempDataDir();
    expect(() => loadIdPhotoKeyring({ dataDir, create: false })).toThrow(MissingIdPhotoKeyError);
    expect(existsSync(path.join(dataDir, "keys"))).toBe(false);
  });

  it("prefers ID_PHOTO_KEY and still reads the previous keys and the key files", () => {
    const dataDir = tempDataDir();
    const fileKey = loadIdPhotoKeyring({ dataDir, create: true }).keyring.current;
    const current = randomBytes(32);
    const previous = randomBytes(32);
    const { keyring } = loadIdPhotoKeyring({
      dataDir,
      currentKey: current,
      previousKeys: [previous],
      create: true,
    });
    expect(keyring.current.id).toBe(idPhotoKey(current).id);
    expect(keyring.find(idPhotoKey(previous).id)).toBeDefined();
    expect(keyring.find(fileKey.id)).toBeDefined();
    expect(keyring.fingerprints()[0]?.id).toBe(keyring.current.id);
  });

  it("rotating the key file keeps the old key readable as id-photo.<id>.key", () => {
    const dataDir = tempDataDir();
    const old = loadIdPhotoKeyring({ dataDir, create: true }).keyring.current;
    const fresh = replaceKeyFile(dataDir);
    const retiredFile = path.join(dataDir, "keys", `id-photo.${old.id}.key`);
    expect(statSync(retiredFile).mode & 0o777).toBe(0o600);
    const { keyring } = loadIdPhotoKeyring({ dataDir, create: false });
    expect(keyring.current.id).toBe(fresh.id);
    expect(keyring.find(old.id)?.checkValue).toBe(old.checkValue);
  });

  it("finds a key a rotation wrote after the keyring was loaded", () => {
    const dataDir = tempDataDir();
    const { keyring } = loadIdPhotoKeyring({ dataDir, create: true });
    const fresh = replaceKeyFile(dataDir);
    expect(keyring.find(fresh.id)?.checkValue).toBe(fresh.checkValue);
  });

  it("checks ID_PHOTO_KEY and ID_PHOTO_PREVIOUS_KEYS at start without ever echoing them", () => {
    const good = randomBytes(32).toString("base64");
    expect(parseConfig({ ID_PHOTO_KEY: good }).ID_PHOTO_KEY?.toString("base64")).toBe(good);
    const short = randomBytes(16).toString("base64");
    expect(() => parseConfig({ ID_PHOTO_KEY: short })).toThrow(
      "Invalid configuration: ID_PHOTO_KEY must be 32 bytes written in base64 (make one with: openssl rand -base64 32)",
    );
    try {
      parseConfig({ ID_PHOTO_KEY: short });
    } catch (error) {
      expect((error as Error).message).not.toContain(short);
    }
    const list = `${randomBytes(32).toString("base64")}, ${randomBytes(32).toString("base64")}`;
    expect(parseConfig({ ID_PHOTO_PREVIOUS_KEYS: list }).ID_PHOTO_PREVIOUS_KEYS).toHaveLength(2);
    expect(() => parseConfig({ ID_PHOTO_PREVIOUS_KEYS: `${good},nope` })).toThrow(
      /ID_PHOTO_PREVIOUS_KEYS must be/,
    );
  });

  it("refuses a key file that does not hold a key", () => {
    const dataDir = tempDataDir();
    loadIdPhotoKeyring({ dataDir, create: true });
    writeFileSync(path.join(dataDir, "keys", "id-photo.key"), "not a key\n");
    expect(() => loadIdPhotoKeyring({ dataDir, create: true })).toThrow(/does not hold a 32-byte base64 key/);
    expect(readFileSync(path.join(dataDir, "keys", "id-photo.key"), "utf8")).toBe("not a key\n");
  });
});
