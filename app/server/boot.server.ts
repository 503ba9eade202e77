import path from "node:path";
import { closeDatabase, type Database, getDatabaseHandle } from "#app/db/client.server.ts";
import { seedDemoCatalogue } from "#app/demo/seed.server.ts";
import {
  CURRENT_KEY_FILE,
  type IdPhotoKeyring,
  keysFolder,
  loadIdPhotoKeyring,
  setIdPhotoKeyring,
} from "#app/features/keyring/id-photo-crypto.server.ts";
import { keyBackupReminder, keyBackupWarning } from "#app/features/media/id-photo-key-backup.server.ts";
import { checkIdPhotoKeys, reencryptIdPhotos } from "#app/features/media/id-photo-keys.server.ts";
import { fillMissingFlowerEquivalents } from "#app/features/purchase-limits/purchase-limits.server.ts";
import { ensureAdminAccount } from "#app/features/staff/admin-users.server.ts";
import { cookieSecret } from "#app/utils/cookie-secret.server.ts";
import { config, publicUrlWarning } from "#app/utils/env.server.ts";
import { log, rootCauseMessage } from "#app/utils/logger.server.ts";
import { makeDataDirPrivate } from "#app/utils/private-data-dir.server.ts";
import { type StopJob, startBackgroundJobs } from "./background-jobs.server.ts";
import { registerDatabase } from "./readiness.server.ts";
import { watchSchemaVersion } from "./schema-gate.server.ts";

let stops: StopJob[] = [];

/**
 * Opens and migrates the database, checks the ID photo key against it, seeds a demo catalogue,
 * makes sure an admin exists, starts jobs.
 */
export async function boot() {
  const { SEED_DEMO, SEED_DEMO_COUNT, ADMIN_EMAIL, ADMIN_PASSWORD, dataDir } = config();
  const addressWarning = publicUrlWarning(config());
  if (addressWarning) log.warn(addressWarning);
  const madePrivate = makeDataDirPrivate(dataDir);
  if (madePrivate > 0) log.info(`Took group and other permissions off ${madePrivate} entries in ${dataDir}`);
  const handle = await getDatabaseHandle();
  // After the database answers: a server that cannot start leaves no new key behind.
  const keyring = loadKeyring(dataDir);
  await checkKeys(handle.db, keyring);
  // At every start until an owner confirms it on the dashboard: a generated key lost is every photo lost.
  const reminder = await keyBackupReminder(keyring, dataDir, handle.db);
  if (reminder) log.warn(keyBackupWarning(reminder));
  cookieSecret(); // made on first start, so a bad keys folder stops the start, not a later request
  // Instances starting together on one empty database take turns: the first seeds and creates the
  // owner, the others find both done (and render no demo images for nothing).
  const admin = await handle.exclusively("first-start", async () => {
    if (SEED_DEMO) {
      const { seeded, ms } = await seedDemoCatalogue(handle.db, { count: SEED_DEMO_COUNT });
      if (seeded > 0) log.info(`Seeded the demo catalogue: ${seeded} products`, { ms: Math.round(ms) });
    }
    const weighed = await fillMissingFlowerEquivalents(handle.db);
    if (weighed > 0) log.info(`Gave ${weighed} product sizes their flower-equivalent weight`);
    return ensureAdminAccount(handle.db, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  });
  if (admin.status === "created") {
    if (admin.generatedPassword) {
      log.warn(
        `Created the admin account ${admin.email} with the password ${admin.generatedPassword} (shown once: write it down, or set ADMIN_EMAIL and ADMIN_PASSWORD)`,
      );
    } else {
      log.info(`Created the admin account ${admin.email}`);
    }
  }
  const jobs = [reencryptInBackground(handle.db, keyring), ...(await startBackgroundJobs())];
  let stoppingJobs: Promise<unknown> | undefined;
  const stopJobs = () => {
    stoppingJobs ??= Promise.allSettled(jobs.map((stop) => stop()));
    return stoppingJobs.then(() => {});
  };
  // Once a newer version has migrated the database, this instance's jobs write no more either.
  stops = [watchSchemaVersion(handle, () => void stopJobs()), stopJobs];
  registerDatabase(handle);
  return { database: handle.description };
}

function loadKeyring(dataDir: string) {
  const { ID_PHOTO_KEY, ID_PHOTO_PREVIOUS_KEYS } = config();
  const { keyring, generated } = loadIdPhotoKeyring({
    dataDir,
    currentKey: ID_PHOTO_KEY,
    previousKeys: ID_PHOTO_PREVIOUS_KEYS,
    create: true,
  });
  if (generated) {
    log.warn(
      `Generated the ID photo encryption key ${keyring.current.id} in ${path.join(keysFolder(dataDir), CURRENT_KEY_FILE)}: back it up apart from the database (without it no backup's ID photos can be read), and give any other instance the same key with ID_PHOTO_KEY`,
    );
  }
  return keyring;
}

async function checkKeys(database: Database, keyring: IdPhotoKeyring) {
  const keys = await checkIdPhotoKeys(database, keyring);
  setIdPhotoKeyring(keyring);
  if (keys.recorded) log.info(`ID photos are encrypted with key ${keyring.current.id}`);
  if (keys.currentKeyId !== keyring.current.id) {
    log.warn(
      `This instance's ID photo key ${keyring.current.id} is not the database's current key ${keys.currentKeyId} yet: new photos use ${keys.currentKeyId} until npm run id-photos:rotate-key switches to it`,
    );
  }
  for (const { keyId, photos } of keys.unreadable) {
    log.warn(
      `${photos} ID photos are encrypted with key ${keyId}, which this instance does not have: add it to ID_PHOTO_PREVIOUS_KEYS and run npm run id-photos:rotate-key`,
    );
  }
}

/** Photos stored before encryption, or left under an older key by an interrupted rotation. */
function reencryptInBackground(database: Database, keyring: IdPhotoKeyring): StopJob {
  const controller = new AbortController();
  const running = reencryptIdPhotos(database, keyring, { signal: controller.signal })
    .then((count) => {
      if (count > 0) log.info(`Encrypted ${count} ID photos under the current key`);
    })
    .catch((error) => {
      if (!controller.signal.aborted) {
        log.error("Could not re-encrypt the ID photos", { error: rootCauseMessage(error) });
      }
    });
  return async () => {
    controller.abort();
    await running;
  };
}

export async function shutdown() {
  registerDatabase(undefined);
  await Promise.allSettled(stops.map((stop) => stop()));
  stops = [];
  setIdPhotoKeyring(undefined);
  await closeDatabase();
}
