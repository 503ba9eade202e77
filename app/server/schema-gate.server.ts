/**
 * Stops an instance from taking writes once a newer version of the shop has migrated its database
 * (docs/decisions/038-rolling-upgrades.md). The database's schema version is read every 5 s and on
 * every /readyz; from the first time it is newer than this build, the server answers every request
 * that could write (any method but GET, HEAD and OPTIONS) with 503, /readyz answers 503 with the
 * reason, and the background jobs (mail, retention, backups) stop. It does not go back: an instance
 * of an older build is to be replaced, not resumed.
 */
import { type DatabaseHandle, migrationsFolder } from "#app/db/client.server.ts";
import {
  buildSchemaVersion,
  compareSchemaVersions,
  databaseSchemaVersion,
  schemaNewerMessage,
} from "#app/db/schema-version.server.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";

const CHECK_EVERY_MS = 5_000;

let refusal: string | undefined;
let watched: { handle: DatabaseHandle; onNewer: () => void } | undefined;
let timer: NodeJS.Timeout | undefined;

/** Why this instance refuses writes, or undefined while it takes them. */
export function writesRefused(): string | undefined {
  return refusal;
}

/** Reads the database's schema version once; true while this build is not older than it. */
export async function checkSchemaVersion(): Promise<boolean> {
  const current = watched;
  if (!current) return refusal === undefined;
  if (refusal !== undefined) return false;
  const build = buildSchemaVersion(migrationsFolder());
  const database = await databaseSchemaVersion(current.handle.db, current.handle.migrationsSchema);
  if (refusal !== undefined) return false;
  if (compareSchemaVersions(build.when, database) === "database newer") {
    refusal = schemaNewerMessage(build);
    log.warn(`${refusal} (the database's newest migration is from ${new Date(database ?? 0).toISOString()})`);
    current.onNewer();
    return false;
  }
  return true;
}

/** Called by boot once the database is migrated: checks now and then every 5 s. */
export function watchSchemaVersion(handle: DatabaseHandle, onNewer: () => void) {
  refusal = undefined;
  watched = { handle, onNewer };
  clearInterval(timer);
  timer = setInterval(() => {
    checkSchemaVersion().catch((error) => {
      log.debug("Could not read the database's schema version", { error: errorMessage(error) });
    });
  }, CHECK_EVERY_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    timer = undefined;
    watched = undefined;
  };
}
