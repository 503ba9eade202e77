import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { openDatabase } from "#app/db/client.server.ts";
import { LOAD_TEST_BUDGETS, type RunningApp, startApp } from "../support/app-server.ts";
import { type OrderableSize, orderableSizes, postOrder } from "../support/shop-orders.ts";
import { createThrowawayDatabase } from "../support/throwaway-database.ts";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const MB = 1024 * 1024;
/** Set through the configuration, as an operator would on a small disk: ready with 16 MB free. */
const READY_MIN_FREE_MB = 16;

/** A small file system of its own for DATA_DIR (mounting needs root; without it the story is skipped). */
function smallDisk(sizeMb: number) {
  const dir = mkdtempSync(path.join(tmpdir(), "cg-full-disk-"));
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${sizeMb}m,mode=0700`, "tmpfs", dir]);
  if (mounted.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  const filler = path.join(dir, "filler.bin");
  const freeBytes = () => {
    const stats = statfsSync(dir);
    return stats.bavail * stats.bsize;
  };
  return {
    dir,
    freeMb: () => freeBytes() / MB,
    /** Writes a file until `leaveMb` are left (0: until the disk is full). */
    fill(leaveMb: number) {
      const chunk = Buffer.alloc(256 * 1024, 7);
      const fd = openSync(filler, "a");
      try {
        while (freeBytes() > leaveMb * MB) {
          const room = freeBytes() - leaveMb * MB;
          writeSync(fd, chunk, 0, Math.min(chunk.length, Math.max(room, 1)));
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
      } finally {
        closeSync(fd);
      }
    },
    free: () => rmSync(filler, { force: true }),
    unmount() {
      spawnSync("umount", ["-l", dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function readyz(url: string) {
  const response = await fetch(`${url}/readyz`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The story on one database: DATA_DIR runs low, then full, then space is freed. */
async function fullDiskStory(
  app: RunningApp,
  disk: NonNullable<ReturnType<typeof smallDisk>>,
  sizes: OrderableSize[],
  embedded: boolean,
) {
  const url = app.url;
  const size = sizes[0] as OrderableSize;
  let shopper = 0;
  expect((await readyz(url)).status).toBe(200);
  expect("token" in (await postOrder(url, size, shopper++))).toBe(true);

  // Below the threshold: not ready, saying why, so the load balancer sends shoppers elsewhere.
  disk.fill(READY_MIN_FREE_MB / 2);
  const low = await readyz(url);
  expect(low.status).toBe(503);
  expect(low.body).toMatchObject({ status: "unavailable", disk: "low", database: "reachable" });
  expect(low.body.diskFreeMb).toBeLessThan(READY_MIN_FREE_MB);

  if (embedded) {
    // Full: once the embedded database must extend a file (SQLSTATE 53100), an order is a 503
    // with Retry-After that says nothing was placed, never a 500. An order that still fits in
    // pages and WAL the database had already allocated is placed: that is fine, so orders are
    // sent until the first refusal.
    disk.fill(0);
    let refused: Awaited<ReturnType<typeof postOrder>> | undefined;
    for (let attempt = 0; attempt < 40; attempt++) {
      const answer = await postOrder(url, size, shopper++);
      if ("refused" in answer) {
        refused = answer;
        break;
      }
    }
    expect(refused && "refused" in refused && refused.refused, JSON.stringify(refused).slice(0, 300)).toBe(
      503,
    );
    expect(refused && "refused" in refused && refused.retryAfter).toBe("30");
    expect(refused && "refused" in refused && refused.body).toContain("try again in a minute");
  }

  // Space freed: ready again by itself, and orders go through again, within 5 s.
  disk.free();
  const freedAt = Date.now();
  await expect(async () => {
    expect((await readyz(url)).status).toBe(200);
    expect("token" in (await postOrder(url, size, shopper++))).toBe(true);
  }).toPass({ timeout: 5_000, intervals: [100] });
  console.log(
    `${embedded ? "embedded" : "PostgreSQL"}: ready and taking orders ${Date.now() - freedAt} ms after space was freed`,
  );
  expect(app.process.exitCode).toBeNull();
}

test.describe("/readyz tells the truth about writes and disk space", () => {
  test("embedded database: a full DATA_DIR is not ready and refuses orders with 503; freed, both come back", async () => {
    test.setTimeout(180_000);
    const disk = smallDisk(96);
    test.skip(!disk, "needs root to mount a small tmpfs as DATA_DIR");
    if (!disk) return;
    let app: RunningApp | undefined;
    try {
      const env = {
        READY_MIN_FREE_MB: String(READY_MIN_FREE_MB),
        MAX_OPEN_ORDERS: "1000",
        ...LOAD_TEST_BUDGETS,
      };
      // The sizes to order are read from the embedded database between two starts (the running
      // server holds its folder).
      const first = await startApp({
        buildDir: process.env.E2E_BUILD_DIR as string,
        dataDir: disk.dir,
        env: { SEED_DEMO_COUNT: "8", ...env },
      });
      await first.stop();
      const seeded = await openDatabase({ kind: "pglite", dataDir: disk.dir, lockOwner: "the test" });
      const sizes = await orderableSizes(seeded.db, 2);
      await seeded.close();
      app = await startApp({
        buildDir: process.env.E2E_BUILD_DIR as string,
        dataDir: disk.dir,
        env: { SEED_DEMO: "false", ...env },
      });
      await fullDiskStory(app, disk, sizes, true);
    } finally {
      await app?.stop();
      disk.unmount();
    }
  });

  test("PostgreSQL: a full DATA_DIR, and a database that refuses writes, are not ready; both come back", async () => {
    test.skip(!TEST_DATABASE_URL, "needs TEST_DATABASE_URL (PostgreSQL)");
    test.setTimeout(180_000);
    const disk = smallDisk(16 + READY_MIN_FREE_MB);
    test.skip(!disk, "needs root to mount a small tmpfs as DATA_DIR");
    if (!disk) return;
    const database = await createThrowawayDatabase(TEST_DATABASE_URL as string, "cg_ready");
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL, application_name: "cg-test-admin" });
    await admin.connect();
    let app: RunningApp | undefined;
    try {
      app = await startApp({
        buildDir: process.env.E2E_BUILD_DIR as string,
        dataDir: disk.dir,
        env: {
          DATABASE_URL: database.url,
          SEED_DEMO_COUNT: "8",
          READY_MIN_FREE_MB: String(READY_MIN_FREE_MB),
          MAX_OPEN_ORDERS: "1000",
          ...LOAD_TEST_BUDGETS,
        },
      });
      const helper = await openDatabase({
        kind: "postgres",
        url: database.url,
        applicationName: "cg-test-helper",
      });
      const sizes = await orderableSizes(helper.db, 2);
      await helper.close();
      await fullDiskStory(app, disk, sizes, false);

      // The database answers `select 1` but takes no write (maintenance, a failover's standby).
      await admin.query(`ALTER DATABASE "${database.name}" SET default_transaction_read_only = on`);
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name LIKE 'capital-grown/%'",
        [database.name],
      );
      await expect(async () => {
        const state = await readyz(app?.url as string);
        expect(state.status).toBe(503);
        expect(state.body).toMatchObject({ writes: "failing", database: "reachable", disk: "ok" });
      }).toPass({ timeout: 10_000 });
      await admin.query(`ALTER DATABASE "${database.name}" RESET default_transaction_read_only`);
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name LIKE 'capital-grown/%'",
        [database.name],
      );
      await expect(async () => expect((await readyz(app?.url as string)).status).toBe(200)).toPass({
        timeout: 10_000,
      });
    } finally {
      await app?.stop();
      disk.unmount();
      await admin.end();
      await database.drop();
    }
  });
});
