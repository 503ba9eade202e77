/**
 * A story's own server on a throwaway PostgreSQL database, with a connection of the test's own beside
 * it to set up and check rows; `stop` closes both and drops the database.
 */
import type { Database } from "#app/db/client.server.ts";
import { openDatabase } from "#app/db/client.server.ts";
import { type RunningApp, startApp } from "../support/app-server.ts";
import { createThrowawayDatabase } from "../support/throwaway-database.ts";

export type OwnShop = { app: RunningApp; db: Database; stop(): Promise<void> };

/** Starts the e2e build with `env` (the owner's ADMIN_EMAIL and ADMIN_PASSWORD, TWILIO_*, …). */
export async function startOwnShop(
  testDatabaseUrl: string,
  prefix: string,
  env: Record<string, string>,
): Promise<OwnShop> {
  const database = await createThrowawayDatabase(testDatabaseUrl, prefix);
  let app: RunningApp | undefined;
  try {
    app = await startApp({
      buildDir: process.env.E2E_BUILD_DIR as string,
      env: { DATABASE_URL: database.url, ...env },
    });
    const helper = await openDatabase({
      kind: "postgres",
      url: database.url,
      applicationName: "cg-test-helper",
    });
    const running = app;
    return {
      app: running,
      db: helper.db,
      async stop() {
        await helper.close();
        await running.stop();
        await database.drop();
      },
    };
  } catch (error) {
    await app?.stop();
    await database.drop();
    throw error;
  }
}
