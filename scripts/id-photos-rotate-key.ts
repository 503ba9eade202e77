/**
 * `npm run id-photos:rotate-key`: re-encrypts every ID photo under a new key, in batches, while the
 * shop keeps serving (record 014).
 *
 * - With `ID_PHOTO_KEY` set, the new key is ID_PHOTO_KEY and the old one must be readable
 *   (`ID_PHOTO_PREVIOUS_KEYS`): every instance should already run with that pair.
 * - Without it, a new `DATA_DIR/keys/id-photo.key` is generated and the old file is kept as
 *   `id-photo.<key id>.key`.
 * Run again after an interruption, it finishes the rotation it started.
 * `--generate-key` only prints a fresh key for ID_PHOTO_KEY.
 */
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { isNull } from "drizzle-orm";
import { openConfiguredDatabase } from "../app/db/client.server.ts";
import { encryptionKeys } from "../app/db/schema.ts";
import {
  type IdPhotoKeyring,
  loadIdPhotoKeyring,
  MissingIdPhotoKeyError,
  replaceKeyFile,
} from "../app/features/keyring/id-photo-crypto.server.ts";
import { rotateIdPhotoKey } from "../app/features/media/id-photo-keys.server.ts";
import { ConfigError, config, ID_PHOTO_KEY_BYTES } from "../app/utils/env.server.ts";
import { rootCauseMessage } from "../app/utils/logger.server.ts";
import { makeDataDirPrivate } from "../app/utils/private-data-dir.server.ts";

const { values } = parseArgs({ options: { "generate-key": { type: "boolean" } } });
if (values["generate-key"]) {
  console.log(randomBytes(ID_PHOTO_KEY_BYTES).toString("base64"));
  process.exit(0);
}

function keyring(): IdPhotoKeyring {
  const { dataDir, ID_PHOTO_KEY, ID_PHOTO_PREVIOUS_KEYS } = config();
  return loadIdPhotoKeyring({
    dataDir,
    currentKey: ID_PHOTO_KEY,
    previousKeys: ID_PHOTO_PREVIOUS_KEYS,
    create: false,
  }).keyring;
}

try {
  const { dataDir, ID_PHOTO_KEY } = config();
  makeDataDirPrivate(dataDir);
  let keys = keyring();
  const handle = await openConfiguredDatabase("npm run id-photos:rotate-key");
  try {
    if (!ID_PHOTO_KEY) {
      const [current] = await handle.db
        .select({ keyId: encryptionKeys.keyId })
        .from(encryptionKeys)
        .where(isNull(encryptionKeys.retiredAt));
      // The key file is the database's current key: this is a new rotation. Otherwise a rotation
      // was interrupted after the new key file was written, and this run finishes it.
      if (!current || current.keyId === keys.current.id) {
        const fresh = replaceKeyFile(dataDir);
        console.log(
          `Generated the new key ${fresh.id} in DATA_DIR/keys/id-photo.key: back it up apart from the database`,
        );
        keys = keyring();
      }
    }
    const started = performance.now();
    const rotation = await rotateIdPhotoKey(handle.db, keys);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      rotation.from === rotation.to
        ? `Key ${rotation.to} was already the current key; re-encrypted ${rotation.reencrypted} photos left under older keys (${seconds} s)`
        : `ID photos now use key ${rotation.to} instead of ${rotation.from ?? "none"}; re-encrypted ${rotation.reencrypted} photos (${seconds} s)`,
    );
    if (rotation.from && rotation.from !== rotation.to) {
      console.log(
        `Keep key ${rotation.from} (in ID_PHOTO_PREVIOUS_KEYS or DATA_DIR/keys/id-photo.${rotation.from}.key) for as long as you keep backups made before now: restoring them needs it.`,
      );
    }
    if (rotation.signaturesResealed > 0) {
      console.log(`Sealed ${rotation.signaturesResealed} delivery signatures with key ${rotation.to}`);
    }
    if (rotation.secondFactorsResealed > 0) {
      console.log(`Sealed ${rotation.secondFactorsResealed} staff second factors with key ${rotation.to}`);
    }
    if (rotation.secondFactorsLeftUnreadable > 0) {
      console.warn(
        `${rotation.secondFactorsLeftUnreadable} staff second factors are under keys this instance does not have: add those keys to ID_PHOTO_PREVIOUS_KEYS and run this again`,
      );
    }
    if (rotation.leftUnreadable > 0) {
      console.warn(
        `${rotation.leftUnreadable} ID photos are under keys this instance does not have: add those keys to ID_PHOTO_PREVIOUS_KEYS and run this again`,
      );
      process.exitCode = 1;
    }
  } finally {
    await handle.close();
  }
} catch (error) {
  if (error instanceof ConfigError || error instanceof MissingIdPhotoKeyError) console.error(error.message);
  else console.error(`Rotation failed: ${rootCauseMessage(error)}`);
  process.exit(1);
}
