import { closeDatabase, getDatabaseHandle } from "#app/db/client.server.ts";
import { ensureAdminAccount } from "#app/features/admin-auth/admin-users.server.ts";
import { seedDemoCatalogue } from "#app/features/catalog/seed.server.ts";
import { cookieSecret } from "#app/utils/cookie-secret.server.ts";
import { config } from "#app/utils/env.server.ts";
import { log } from "#app/utils/logger.server.ts";
import { type StopJob, startBackgroundJobs } from "./background-jobs.server.ts";

let stops: StopJob[] = [];

/** Opens and migrates the database, seeds a demo catalogue, makes sure an admin exists, starts jobs. */
export async function boot() {
  const { SEED_DEMO, SEED_DEMO_COUNT, ADMIN_EMAIL, ADMIN_PASSWORD } = config();
  const handle = await getDatabaseHandle();
  cookieSecret(); // made on first start, so a bad keys folder stops the start, not a later request
  if (SEED_DEMO) {
    const { seeded, ms } = await seedDemoCatalogue(handle.db, { count: SEED_DEMO_COUNT });
    if (seeded > 0) log.info(`Seeded the demo catalogue: ${seeded} products`, { ms: Math.round(ms) });
  }
  const admin = await ensureAdminAccount(handle.db, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  if (admin.status === "created") {
    if (admin.generatedPassword) {
      log.warn(
        `Created the admin account ${admin.email} with the password ${admin.generatedPassword} (shown once: write it down, or set ADMIN_EMAIL and ADMIN_PASSWORD)`,
      );
    } else {
      log.info(`Created the admin account ${admin.email}`);
    }
  }
  stops = await startBackgroundJobs();
  return { database: handle.description };
}

export async function shutdown() {
  await Promise.allSettled(stops.map((stop) => stop()));
  stops = [];
  await closeDatabase();
}
