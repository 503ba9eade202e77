/**
 * Encryption of customer ID photos at rest (record 014): AES-256-GCM, a random 12-byte nonce per
 * photo, and the key id and photo id as additional authenticated data, so a ciphertext moved to
 * another row (or relabelled with another key id) fails to decrypt instead of showing the wrong ID.
 *
 * Keys: the current one from `ID_PHOTO_KEY` or, when unset, from `DATA_DIR/keys/id-photo.key`
 * (generated on first start); older ones, still readable during and after a rotation, from
 * `ID_PHOTO_PREVIOUS_KEYS` and `DATA_DIR/keys/id-photo.<key id>.key`.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { ID_PHOTO_KEY_BYTES, parseBase64Key } from "#app/utils/env.server.ts";

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID_LABEL = "capital-grown id-photo key id v1";
const CHECK_VALUE_LABEL = "capital-grown id-photo key check v1";

export type IdPhotoKey = { id: string; checkValue: string; secret: Buffer };

/** The key's public name: 16 hex characters of an HMAC of a fixed label, which reveals nothing of it. */
export function idPhotoKey(secret: Buffer): IdPhotoKey {
  if (secret.byteLength !== ID_PHOTO_KEY_BYTES)
    throw new Error(`An ID photo key must be ${ID_PHOTO_KEY_BYTES} bytes`);
  return {
    id: createHmac("sha256", secret).update(KEY_ID_LABEL).digest("hex").slice(0, 16),
    checkValue: createHmac("sha256", secret).update(CHECK_VALUE_LABEL).digest("base64"),
    secret,
  };
}

export function generateIdPhotoKey(): IdPhotoKey {
  return idPhotoKey(randomBytes(ID_PHOTO_KEY_BYTES));
}

function associatedData(keyId: string, photoId: string) {
  return Buffer.from(`capital-grown:id-photo:v1|${keyId}|${photoId}`, "utf8");
}

export type EncryptedIdPhoto = { keyId: string; nonce: Uint8Array; bytes: Uint8Array };

/** Ciphertext and tag (the tag is the last 16 bytes) of one photo under `key`. */
export function encryptIdPhotoBytes(
  key: IdPhotoKey,
  photoId: string,
  plaintext: Uint8Array,
): EncryptedIdPhoto {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key.secret, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData(key.id, photoId));
  const bytes = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return { keyId: key.id, nonce: new Uint8Array(nonce), bytes: new Uint8Array(bytes) };
}

export class IdPhotoDecryptionError extends Error {}

export function decryptIdPhotoBytes(
  key: IdPhotoKey,
  photoId: string,
  stored: { nonce: Uint8Array; bytes: Uint8Array },
): Uint8Array {
  if (stored.nonce.byteLength !== NONCE_BYTES || stored.bytes.byteLength < TAG_BYTES) {
    throw new IdPhotoDecryptionError(`ID photo ${photoId} is not a valid ciphertext`);
  }
  const bytes = Buffer.from(stored.bytes.buffer, stored.bytes.byteOffset, stored.bytes.byteLength);
  const decipher = createDecipheriv("aes-256-gcm", key.secret, stored.nonce, { authTagLength: TAG_BYTES });
  decipher.setAAD(associatedData(key.id, photoId));
  decipher.setAuthTag(bytes.subarray(bytes.byteLength - TAG_BYTES));
  try {
    return new Uint8Array(
      Buffer.concat([decipher.update(bytes.subarray(0, bytes.byteLength - TAG_BYTES)), decipher.final()]),
    );
  } catch {
    throw new IdPhotoDecryptionError(`ID photo ${photoId} does not decrypt with key ${key.id}`);
  }
}

/** Where a key lives: the current one, and older ones kept so photos not yet re-encrypted stay readable. */
export const KEYS_FOLDER = "keys";
export const CURRENT_KEY_FILE = "id-photo.key";
const RETIRED_KEY_FILE = /^id-photo\.([0-9a-f]{16})\.key$/;

export function keysFolder(dataDir: string) {
  return path.join(dataDir, KEYS_FOLDER);
}

export type KeySource = "ID_PHOTO_KEY" | "generated" | "key file";

/** The keys this instance holds: `current` encrypts (once the database records it), all decrypt. */
export class IdPhotoKeyring {
  readonly current: IdPhotoKey;
  readonly source: KeySource;
  readonly #keys = new Map<string, IdPhotoKey>();
  readonly #reload: (() => IdPhotoKey[]) | undefined;

  constructor(
    current: IdPhotoKey,
    others: IdPhotoKey[] = [],
    options: { source?: KeySource; reload?: () => IdPhotoKey[] } = {},
  ) {
    this.current = current;
    this.source = options.source ?? "ID_PHOTO_KEY";
    this.#reload = options.reload;
    for (const key of [current, ...others]) this.#keys.set(key.id, key);
  }

  /** The key with this id, looking in the keys folder again once (a rotation may have added it). */
  find(id: string): IdPhotoKey | undefined {
    if (!this.#keys.has(id) && this.#reload) {
      for (const key of this.#reload()) if (!this.#keys.has(key.id)) this.#keys.set(key.id, key);
    }
    return this.#keys.get(id);
  }

  ids(): string[] {
    return [...this.#keys.keys()];
  }

  /** Each key's id and check value, the current key first: what a restore compares with a backup's. */
  fingerprints(): { id: string; checkValue: string }[] {
    return [...this.#keys.values()].map((key) => ({ id: key.id, checkValue: key.checkValue }));
  }
}

function readKeyFile(file: string): IdPhotoKey {
  const secret = parseBase64Key(readFileSync(file, "utf8"));
  if (!secret) throw new Error(`${file} does not hold a 32-byte base64 key`);
  return idPhotoKey(secret);
}

/** Every key file in the folder: the current one and the ones earlier rotations kept. */
function keyFiles(folder: string): IdPhotoKey[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name === CURRENT_KEY_FILE || RETIRED_KEY_FILE.test(name))
    .map((name) => readKeyFile(path.join(folder, name)));
}

function writeKeyFile(file: string, key: IdPhotoKey) {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  chmodSync(path.dirname(file), 0o700);
  // "wx": two processes starting at once never both write a key; the loser reads the winner's.
  writeFileSync(file, `${key.secret.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
}

export type KeyringOptions = {
  dataDir: string;
  currentKey?: Buffer;
  previousKeys?: Buffer[];
  /** Generate `DATA_DIR/keys/id-photo.key` when there is no key at all (the server); scripts that only read pass false. */
  create: boolean;
};

export class MissingIdPhotoKeyError extends Error {}

/** Loads the keys; `generated` is true when this call made a new key file (warn the owner to back it up). */
export function loadIdPhotoKeyring(options: KeyringOptions): { keyring: IdPhotoKeyring; generated: boolean } {
  const folder = keysFolder(options.dataDir);
  const fromFiles = () => keyFiles(folder);
  const previous = (options.previousKeys ?? []).map(idPhotoKey);
  if (options.currentKey) {
    const current = idPhotoKey(options.currentKey);
    const currentFile = path.join(folder, CURRENT_KEY_FILE);
    const others = [
      ...previous,
      ...fromFiles(),
      ...(existsSync(currentFile) ? [readKeyFile(currentFile)] : []),
    ];
    return {
      keyring: new IdPhotoKeyring(current, others, { source: "ID_PHOTO_KEY", reload: fromFiles }),
      generated: false,
    };
  }
  const file = path.join(folder, CURRENT_KEY_FILE);
  let generated = false;
  if (!existsSync(file)) {
    if (!options.create) {
      throw new MissingIdPhotoKeyError(`No ID photo key: ID_PHOTO_KEY is unset and there is no ${file}`);
    }
    try {
      writeKeyFile(file, generateIdPhotoKey());
      generated = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  const current = readKeyFile(file);
  return {
    keyring: new IdPhotoKeyring(current, [...previous, ...fromFiles()], {
      source: generated ? "generated" : "key file",
      reload: fromFiles,
    }),
    generated,
  };
}

/**
 * Rotation without `ID_PHOTO_KEY`: the current key file is kept as `id-photo.<id>.key` (still read)
 * and a new `id-photo.key` takes its place. Returns the new key.
 */
export function replaceKeyFile(dataDir: string): IdPhotoKey {
  const folder = keysFolder(dataDir);
  const file = path.join(folder, CURRENT_KEY_FILE);
  const old = readKeyFile(file);
  renameSync(file, path.join(folder, `id-photo.${old.id}.key`));
  const fresh = generateIdPhotoKey();
  writeKeyFile(file, fresh);
  return fresh;
}

let processKeyring: IdPhotoKeyring | undefined;

/** The keyring of this process, installed at boot (or by a script or a test). */
export function idPhotoKeyring(): IdPhotoKeyring {
  if (!processKeyring) throw new Error("The ID photo keys are not loaded (boot loads them)");
  return processKeyring;
}

export function setIdPhotoKeyring(keyring: IdPhotoKeyring | undefined) {
  processKeyring = keyring;
}
