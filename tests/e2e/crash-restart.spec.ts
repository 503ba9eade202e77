import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { inArray } from "drizzle-orm";
import { openDatabase } from "#app/db/client.server.ts";
import { orders } from "#app/db/schema.ts";
import { seedDemoCatalogue } from "#app/demo/seed.server.ts";
import { type RunningApp, startApp } from "../support/app-server.ts";
import { orderableSizes, postOrder } from "../support/shop-orders.ts";

// Record 016: the data-folder lock of a killed server must not stop the next start.
test("five kill -9 and immediate restarts on the embedded database: each start succeeds, no order lost", async () => {
  test.setTimeout(240_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), "cg-crash-restart-"));
  try {
    const seeding = await openDatabase({ kind: "pglite", dataDir, lockOwner: "the test" });
    await seedDemoCatalogue(seeding.db, { count: 8 });
    const sizes = await orderableSizes(seeding.db, 4);
    await seeding.close();
    expect(sizes.length).toBeGreaterThan(0);

    const acknowledged: string[] = [];
    const start = () =>
      startApp({
        buildDir: process.env.E2E_BUILD_DIR as string,
        dataDir,
        // Orders keep coming for one slot: its capacity (P-22) is raised as an operator would.
        env: { SEED_DEMO: "false", DELIVERY_SLOT_CAPACITY: "100000000" },
      });
    let app: RunningApp = await start();
    let shopper = 0;
    for (let cycle = 0; cycle < 5; cycle++) {
      // Orders keep coming while the server is killed: some are acknowledged just before it dies.
      let killed = false;
      const traffic = (async () => {
        while (!killed) {
          const size = sizes[shopper % sizes.length];
          if (!size) break;
          const placed = await postOrder(app.url, size, shopper++).catch(() => null);
          if (placed && "token" in placed) acknowledged.push(placed.token);
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const pid = app.process.pid as number;
      process.kill(-pid, "SIGKILL");
      killed = true;
      // No waiting for the old process to be reaped: the next start comes at once.
      app = await start();
      await traffic;
    }
    await app.stop();

    expect(acknowledged.length).toBeGreaterThan(5);
    const check = await openDatabase({ kind: "pglite", dataDir, lockOwner: "the test" });
    try {
      const found = await check.db
        .select({ token: orders.publicToken })
        .from(orders)
        .where(inArray(orders.publicToken, acknowledged));
      const present = new Set(found.map((row) => row.token));
      expect(acknowledged.filter((token) => !present.has(token))).toEqual([]);
    } finally {
      await check.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
