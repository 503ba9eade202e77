/**
 * The driver app's figures (record 050), printed, nothing written:
 *   ./node_modules/.bin/node scripts/bench/driver.ts
 * - syncing 50 queued actions (25 deliveries, 25 failed deliveries, each a status change with its
 *   e-mail and audit event) on the embedded database, and the same batch sent again (answered
 *   from the log);
 * - with BENCH_PG_URL (or TEST_DATABASE_URL) set: a production build on loopback with a run of 20
 *   stops, `/driver`'s first-load JS gzipped (a fresh phone-sized visit, signed in as the driver)
 *   and Lighthouse mobile performance on `/driver` (LH_RUNS runs, default 3, the median).
 * DRIVER_BUILD_DIR=folder reuses a build made before (skips the build).
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import { eq } from "drizzle-orm";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";
import { openDatabase, setDatabaseHandle } from "#app/db/client.server.ts";
import { adminUsers, orders } from "#app/db/schema.ts";
import {
  generateIdPhotoKey,
  IdPhotoKeyring,
  setIdPhotoKeyring,
} from "#app/features/keyring/id-photo-crypto.server.ts";
import type { QueuedDriverAction } from "#app/features/orders/driver-actions.schema.ts";
import { applyQueuedActions } from "#app/features/orders/driver-sync.server.ts";
import { hashPassword } from "#app/features/staff/passwords.server.ts";
import { storeDay } from "#app/utils/store-time.ts";
import { buildApp, LOAD_TEST_BUDGETS, startApp } from "../../tests/support/app-server.ts";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../../tests/support/chromium.ts";
import { insertOrderRow } from "../../tests/support/order-rows.ts";
import { createThrowawayDatabase } from "../../tests/support/throwaway-database.ts";
import { median, ROOT, say } from "./lib.ts";

const SLOTS = ["10:00 AM-12:00 PM", "12:00 PM-2:00 PM", "2:00 PM-4:00 PM", "4:00 PM-6:00 PM"];
const SIGNATURE = `data:image/png;base64,${"iVBORw0KGgo".repeat(400)}`;

async function syncFigure() {
  const handle = await openDatabase({ kind: "pglite" });
  setDatabaseHandle(handle);
  setIdPhotoKeyring(new IdPhotoKeyring(generateIdPhotoKey()));
  const [driver] = await handle.db
    .insert(adminUsers)
    .values({ email: "bench-driver@capitalgrown.test", passwordHash: "-", role: "driver", firstName: "Dana" })
    .returning({ id: adminUsers.id, email: adminUsers.email });
  if (!driver) throw new Error("No driver");
  const by = {
    actor: { userId: driver.id, email: driver.email, role: "driver" as const },
    origin: { ipAddress: null, requestId: null },
  };
  const actions: QueuedDriverAction[] = [];
  for (let i = 0; i < 50; i++) {
    const { id } = await insertOrderRow(handle.db, {
      customerName: `Customer ${i}`,
      deliveryDate: storeDay(new Date()),
      deliveryTime: SLOTS[i % SLOTS.length] as string,
      driverId: driver.id,
      status: "out_for_delivery",
      idPhotoId: null,
    });
    const phoneTime = new Date(Date.now() - (50 - i) * 60_000).toISOString();
    actions.push({
      key: randomUUID(),
      phoneTime,
      action:
        i % 2 === 0
          ? {
              kind: "deliver",
              orderId: id,
              proof: {
                dateOfBirth: "1990-02-28",
                nameMatches: true,
                cashReceivedCents: 5000,
                signaturePng: SIGNATURE,
              },
            }
          : { kind: "fail", orderId: id, reason: "customer-not-home" },
    });
  }
  const started = performance.now();
  const outcomes = await applyQueuedActions(driver.id, actions, by);
  const firstMs = performance.now() - started;
  const applied = outcomes.filter((outcome) => outcome.outcome === "applied").length;
  const again = performance.now();
  await applyQueuedActions(driver.id, actions, by);
  const repeatMs = performance.now() - again;
  await handle.close();
  return { firstMs, repeatMs, applied };
}

async function pageFigures(pgUrl: string) {
  const buildDir =
    process.env.DRIVER_BUILD_DIR ?? path.join(ROOT, "node_modules/.cache/capital-grown/driver-bench-build");
  if (!process.env.DRIVER_BUILD_DIR) {
    say("building");
    buildApp(buildDir);
  }
  const database = await createThrowawayDatabase(pgUrl, "cg_driver_bench");
  const app = await startApp({
    buildDir,
    env: {
      DATABASE_URL: database.url,
      SEED_DEMO_COUNT: "2",
      ADMIN_EMAIL: "bench-owner@capitalgrown.test",
      ADMIN_PASSWORD: "Bench-Owner-Harbour-Field-51",
      ...LOAD_TEST_BUDGETS,
    },
  });
  const helper = await openDatabase({ kind: "postgres", url: database.url, applicationName: "cg-bench" });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    const password = "Bench-Driver-Lantern-Orchard-64";
    const [driver] = await helper.db
      .insert(adminUsers)
      .values({
        email: "bench-driver@capitalgrown.test",
        passwordHash: await hashPassword(password),
        role: "driver",
        firstName: "Dana",
      })
      .returning({ id: adminUsers.id });
    for (let i = 0; i < 20; i++) {
      const { id } = await insertOrderRow(helper.db, {
        customerName: i === 0 ? "Alicia Fernández-Castillo de la Vega" : `Customer Number ${i}`,
        deliveryDate: storeDay(new Date()),
        deliveryTime: SLOTS[i % SLOTS.length] as string,
        driverId: driver?.id ?? null,
        idPhotoId: null,
      });
      if (i % 3 === 0)
        await helper.db.update(orders).set({ notes: "Ring twice; gate code 4411" }).where(eq(orders.id, id));
    }
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    const page = await context.newPage();
    await page.goto(`${app.url}/admin/login`);
    await page.getByLabel("Email").fill("bench-driver@capitalgrown.test");
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL((url) => url.pathname !== "/admin/login");
    const cookies = await context.cookies();
    const cookieHeader = cookies
      .filter((cookie) => cookie.path === "/driver")
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join("; ");

    // First load of /driver in a fresh context with the session: every script, gzipped (level 9).
    const fresh = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    await fresh.addCookies(cookies);
    const visit = await fresh.newPage();
    const scripts: { name: string; gzip: number }[] = [];
    const pending: Promise<void>[] = [];
    visit.on("response", (response) => {
      if (response.request().resourceType() !== "script") return;
      pending.push(
        response.body().then((body) => {
          scripts.push({ name: new URL(response.url()).pathname, gzip: gzipSync(body, { level: 9 }).length });
        }),
      );
    });
    await visit.goto(`${app.url}/driver`, { waitUntil: "networkidle" });
    await Promise.all(pending);
    const jsGzip = scripts.reduce((sum, script) => sum + script.gzip, 0);
    await fresh.close();
    await context.close();

    const runs = Math.max(1, Number(process.env.LH_RUNS ?? 3));
    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_FLAGS });
    const scores: number[] = [];
    try {
      for (let run = 0; run < runs; run++) {
        const result = await lighthouse(`${app.url}/driver`, {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: ["performance"],
          extraHeaders: { Cookie: cookieHeader },
        });
        const score = result?.lhr.categories.performance?.score;
        if (typeof score === "number") scores.push(Math.round(score * 100));
      }
    } finally {
      chrome.kill();
    }
    return { jsGzip, scripts: scripts.sort((a, b) => b.gzip - a.gzip), scores };
  } finally {
    await browser.close();
    await helper.close();
    await app.stop();
    await database.drop();
  }
}

const sync = await syncFigure();
say(
  `Syncing 50 queued actions on the embedded database: ${sync.firstMs.toFixed(0)} ms (${sync.applied} applied; target ≤ 2000 ms); sent again: ${sync.repeatMs.toFixed(0)} ms`,
);
const pgUrl = process.env.BENCH_PG_URL ?? process.env.TEST_DATABASE_URL;
if (pgUrl) {
  const figures = await pageFigures(pgUrl);
  say(`/driver first-load JS, gzipped: ${(figures.jsGzip / 1024).toFixed(1)} KB (target ≤ 90 KB)`);
  for (const script of figures.scripts) say(`  ${script.name}: ${(script.gzip / 1024).toFixed(1)} KB`);
  say(
    `Lighthouse mobile performance on /driver, 20 stops: median ${median(figures.scores)} (runs ${figures.scores.join(", ")}; target ≥ 95)`,
  );
} else {
  say("Page figures skipped: set BENCH_PG_URL (or TEST_DATABASE_URL) for a PostgreSQL to run the app on.");
}
