import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SERVER_MALLOC_ENV } from "#tests/support/app-server.ts";
import { tempFolders } from "#tests/support/temp-folders.ts";
import { seedDemoCatalogue } from "../demo/seed.server.ts";
import { type DatabaseHandle, migrationsFolder, openDatabase } from "./client.server.ts";
import { shippedClusterMismatch } from "./pglite-cluster.server.ts";
import { rowsOf } from "./rows.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const NODE = path.join(ROOT, "node_modules/.bin/node");
const PEAK = path.join(ROOT, "tests/support/pglite-peak.ts");
const newDataDir = tempFolders("cg-pglite-cluster-");

async function withDatabase<T>(dataDir: string, run: (handle: DatabaseHandle) => Promise<T>) {
  const handle = await openDatabase({ kind: "pglite", dataDir, lockOwner: "the cluster test" });
  try {
    return await run(handle);
  } finally {
    await handle.close();
  }
}

async function systemIdentifier(handle: DatabaseHandle) {
  const result = await handle.db.execute(sql`SELECT system_identifier::text AS id FROM pg_control_system()`);
  return rowsOf<{ id: string }>(result)[0]?.id;
}

describe("the shipped empty cluster", () => {
  it("was made by the installed PGlite with the server's settings (else: npm run db:pglite-cluster)", () => {
    expect(shippedClusterMismatch()).toBeNull();
  });

  it("is what a new data folder opens from: migrated, seeded, private, and the shop's settings on", async () => {
    const first = newDataDir();
    const second = newDataDir();
    const journal = JSON.parse(readFileSync(path.join(migrationsFolder(), "meta/_journal.json"), "utf8")) as {
      entries: unknown[];
    };
    const firstId = await withDatabase(first, async (handle) => {
      const applied = rowsOf<{ count: number }>(
        await handle.db.execute(sql`SELECT count(*)::int AS count FROM drizzle.__drizzle_migrations`),
      );
      expect(applied[0]?.count).toBe(journal.entries.length);
      const buffers = rowsOf<{ shared_buffers: string }>(await handle.db.execute(sql`SHOW shared_buffers`));
      expect(buffers[0]?.shared_buffers).toBe("16MB");
      const seeded = await seedDemoCatalogue(handle.db, { count: 6 });
      expect(seeded.seeded).toBe(6);
      return systemIdentifier(handle);
    });
    // PGlite's initdb gives every cluster a new identifier; the shipped one is the same everywhere.
    const secondId = await withDatabase(second, systemIdentifier);
    expect(firstId).toBe(secondId);
    expect(existsSync(path.join(first, "pglite.unpacking"))).toBe(false);
    expect(statSync(path.join(first, "pglite")).mode & 0o077).toBe(0);
    expect(statSync(path.join(first, "pglite/PG_VERSION")).mode & 0o077).toBe(0);
    // Reopened: the rows are there.
    await withDatabase(first, async (handle) => {
      const products = rowsOf<{ count: number }>(
        await handle.db.execute(sql`SELECT count(*)::int AS count FROM products`),
      );
      expect(products[0]?.count).toBe(6);
    });
  }, 120_000);

  it("replaces what an interrupted first start left: an empty folder and half-unpacked files", async () => {
    const dataDir = newDataDir();
    mkdirSync(path.join(dataDir, "pglite"));
    mkdirSync(path.join(dataDir, "pglite.unpacking/base"), { recursive: true });
    writeFileSync(path.join(dataDir, "pglite.unpacking/base/half"), "cut short");
    await withDatabase(dataDir, async (handle) => {
      expect(await handle.ping()).toBe(true);
    });
    expect(existsSync(path.join(dataDir, "pglite.unpacking"))).toBe(false);
    expect(existsSync(path.join(dataDir, "pglite/base/half"))).toBe(false);
  }, 120_000);

  it("opens a new data folder, migrates it and runs the shop's statements within 512 MB of peak RSS", () => {
    const run = spawnSync(NODE, [PEAK, newDataDir()], {
      encoding: "utf8",
      env: { ...process.env, ...SERVER_MALLOC_ENV },
      timeout: 180_000,
    });
    if (run.status !== 0) throw new Error(`the child failed (${run.status}): ${run.stderr}`);
    const { peakMb } = JSON.parse(run.stdout.trim().split("\n").at(-1) as string) as { peakMb: number };
    // PGlite's own initdb: about 790 MB.
    expect(peakMb).toBeLessThanOrEqual(512);
  }, 200_000);
});
