/** `npm run db:restore -- <file>`: replaces the configured database's data with a backup's. */
import { existsSync } from "node:fs";
import path from "node:path";
import { checkBackupKeys, restoreDatabase } from "../app/db/backup.server.ts";
import { openConfiguredDatabase } from "../app/db/client.server.ts";
import {
  loadIdPhotoKeyring,
  MissingIdPhotoKeyError,
} from "../app/features/keyring/id-photo-crypto.server.ts";
import { ConfigError, config } from "../app/utils/env.server.ts";
import { rootCauseMessage } from "../app/utils/logger.server.ts";
import { makeDataDirPrivate } from "../app/utils/private-data-dir.server.ts";

const given = process.argv[2];
if (!given || !existsSync(given)) {
  console.error("Usage: npm run db:restore -- <backup file> (the file must exist)");
  process.exit(1);
}

/** The keys this instance holds (ID_PHOTO_KEY, ID_PHOTO_PREVIOUS_KEYS, DATA_DIR/keys/); none is made here. */
function availableKeys() {
  const { dataDir, ID_PHOTO_KEY, ID_PHOTO_PREVIOUS_KEYS } = config();
  try {
    const { keyring } = loadIdPhotoKeyring({
      dataDir,
      currentKey: ID_PHOTO_KEY,
      previousKeys: ID_PHOTO_PREVIOUS_KEYS,
      create: false,
    });
    return keyring.fingerprints();
  } catch (error) {
    if (error instanceof MissingIdPhotoKeyError) return [];
    throw error;
  }
}

try {
  makeDataDirPrivate(config().dataDir);
  const keys = availableKeys();
  await checkBackupKeys(path.resolve(given), keys);
  const handle = await openConfiguredDatabase("npm run db:restore");
  try {
    const restored = await restoreDatabase(handle.db, path.resolve(given), { availableKeys: keys });
    const rows = Object.values(restored).reduce((sum, count) => sum + count, 0);
    console.log(`Restored ${rows} rows into ${handle.description} from ${given}`);
  } finally {
    await handle.close();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `Restore failed: ${rootCauseMessage(error)}`);
  process.exit(1);
}
