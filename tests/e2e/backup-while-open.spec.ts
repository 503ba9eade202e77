import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { inArray, sql } from "drizzle-orm";
import { openDatabase } from "#app/db/client.server.ts";
import { orders } from "#app/db/schema.ts";
import { seedDemoCatalogue } from "#app/demo/seed.server.ts";
import { LOAD_TEST_BUDGETS, type RunningApp, startApp } from "../support/app-server.ts";
import { orderableSizes, postOrder } from "../support/shop-orders.ts";
import { createThrowawayDatabase } from "../support/throwaway-database.ts";

const run = promisify(execFile);
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

/** `npm run <script> -- args` with its own environment, as an operator runs it. */
function npm(script: string, args: string[], env: Record<string, string>) {
  return run("npm", ["run", "-s", script, "--", ...args], {
    env: { ...process.env, DATABASE_URL: "", ...env },
    timeout: 120_000,
  });
}

/** Orders placed in a loop until stopped; `before` holds the tokens acknowledged so far. */
function orderLoop(url: string, sizes: Awaited<ReturnType<typeof orderableSizes>>) {
  const acknowledged: string[] = [];
  let stopped = false;
  let shopper = 0;
  const done = (async () => {
    while (!stopped) {
      const size = sizes[shopper % sizes.length];
      if (!size) break;
      const placed = await postOrder(url, size, shopper++).catch(() => null);
      if (placed && "token" in placed) acknowledged.push(placed.token);
    }
  })();
  return {
    acknowledged,
    async stop() {
      stopped = true;
      await done;
    },
  };
}

// Record 017: a backup of the running embedded shop, taken during orders, restores every
// order acknowledged before it began into a fresh folder, with no server running there.
test("npm run db:backup on a running embedded shop under load: the restore holds every order acknowledged before it", async () => {
  test.setTimeout(240_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), "cg-bk-"));
  const freshDir = mkdtempSync(path.join(tmpdir(), "cg-bk-fresh-"));
  const file = path.join(mkdtempSync(path.join(tmpdir(), "cg-bk-out-")), "shop.ndjson.gz");
  let app: RunningApp | undefined;
  try {
    const seeding = await openDatabase({ kind: "pglite", dataDir, lockOwner: "the test" });
    await seedDemoCatalogue(seeding.db, { count: 8 });
    const sizes = await orderableSizes(seeding.db, 4);
    await seeding.close();
    app = await startApp({
      buildDir: process.env.E2E_BUILD_DIR as string,
      dataDir,
      env: { SEED_DEMO: "false", ...LOAD_TEST_BUDGETS },
    });
    const load = orderLoop(app.url, sizes);
    await expect.poll(() => load.acknowledged.length, { timeout: 60_000 }).toBeGreaterThan(2);
    const before = [...load.acknowledged];
    const backup = await npm("db:backup", [file], { DATA_DIR: dataDir });
    expect(backup.stdout).toContain("the running server");
    await new Promise((resolve) => setTimeout(resolve, 500));
    await load.stop();
    expect(before.length).toBeGreaterThan(0);
    await app.stop();
    app = undefined;

    // The ID-photo key lives apart from the backups; the operator brings it to the new folder.
    cpSync(path.join(dataDir, "keys"), path.join(freshDir, "keys"), { recursive: true });
    await npm("db:restore", [file], { DATA_DIR: freshDir });
    const restored = await openDatabase({ kind: "pglite", dataDir: freshDir, lockOwner: "the test" });
    try {
      const found = await restored.db
        .select({ token: orders.publicToken })
        .from(orders)
        .where(inArray(orders.publicToken, before));
      const present = new Set(found.map((row) => row.token));
      expect(before.filter((token) => !present.has(token))).toEqual([]);
      const pending = await restored.db.execute(
        sql`SELECT count(*)::int AS n FROM email_outbox WHERE status IN ('queued', 'sending')`,
      );
      expect((pending as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(0);
    } finally {
      await restored.close();
    }
  } finally {
    await app?.stop();
    for (const dir of [dataDir, freshDir, path.dirname(file)]) rmSync(dir, { recursive: true, force: true });
  }
});

test("npm run db:backup with no server running works on the data folder and leaves no empty folder on failure", async () => {
  test.setTimeout(120_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), "cg-bk-idle-"));
  try {
    const seeding = await openDatabase({ kind: "pglite", dataDir, lockOwner: "the test" });
    await seeding.close();
    const backup = await npm("db:backup", [], { DATA_DIR: dataDir });
    expect(backup.stdout).toContain("Backed up");
    expect(readdirSync(path.join(dataDir, "backups")).length).toBe(1);

    // A held lock and no server to ask: a clear failure and no backups folder left behind.
    rmSync(path.join(dataDir, "backups"), { recursive: true });
    const holder = await openDatabase({ kind: "pglite", dataDir, lockOwner: "another process" });
    try {
      await expect(npm("db:backup", [], { DATA_DIR: dataDir })).rejects.toThrow();
      expect(existsSync(path.join(dataDir, "backups"))).toBe(false);
    } finally {
      await holder.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("npm run db:backup on PostgreSQL under load: the restore into a fresh database holds every order acknowledged before it", async () => {
  test.skip(!TEST_DATABASE_URL, "needs TEST_DATABASE_URL (PostgreSQL)");
  test.setTimeout(240_000);
  const live = await createThrowawayDatabase(TEST_DATABASE_URL as string, "cg_backup_live");
  const fresh = await createThrowawayDatabase(TEST_DATABASE_URL as string, "cg_backup_fresh");
  const dataDir = mkdtempSync(path.join(tmpdir(), "cg-bk-pg-"));
  const freshDir = mkdtempSync(path.join(tmpdir(), "cg-bk-pg-fresh-"));
  const file = path.join(dataDir, "shop.ndjson.gz");
  let app: RunningApp | undefined;
  try {
    app = await startApp({
      buildDir: process.env.E2E_BUILD_DIR as string,
      dataDir,
      env: { DATABASE_URL: live.url, SEED_DEMO_COUNT: "8", ...LOAD_TEST_BUDGETS },
    });
    const helper = await openDatabase({ kind: "postgres", url: live.url });
    const sizes = await orderableSizes(helper.db, 4);
    await helper.close();
    const load = orderLoop(app.url, sizes);
    await expect.poll(() => load.acknowledged.length, { timeout: 60_000 }).toBeGreaterThan(2);
    const before = [...load.acknowledged];
    await npm("db:backup", [file], { DATA_DIR: dataDir, DATABASE_URL: live.url });
    await load.stop();
    expect(before.length).toBeGreaterThan(0);

    cpSync(path.join(dataDir, "keys"), path.join(freshDir, "keys"), { recursive: true });
    await npm("db:restore", [file], { DATA_DIR: freshDir, DATABASE_URL: fresh.url });
    const restored = await openDatabase({ kind: "postgres", url: fresh.url });
    try {
      const found = await restored.db
        .select({ token: orders.publicToken })
        .from(orders)
        .where(inArray(orders.publicToken, before));
      const present = new Set(found.map((row) => row.token));
      expect(before.filter((token) => !present.has(token))).toEqual([]);
    } finally {
      await restored.close();
    }
  } finally {
    await app?.stop();
    await live.drop();
    await fresh.drop();
    for (const dir of [dataDir, freshDir]) rmSync(dir, { recursive: true, force: true });
  }
});
