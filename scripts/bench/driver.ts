/**
 * The driver app's figures (record 050): `npm run bench -- --only=driver` writes them to
 * BENCHMARKS.md; `./node_modules/.bin/node scripts/bench/driver.ts` only prints them.
 * A production build on loopback on the embedded database, prepared before the server starts with
 * two drivers: one with a run of 20 stops, one with 50 stops out for delivery.
 * - `/driver` first-load JS, gzipped: a fresh phone-sized visit signed in as the first driver;
 * - Lighthouse mobile performance on `/driver` with the 20 stops (LH_RUNS runs, default 3, median);
 * - syncing 50 queued actions (25 deliveries with a signature, 25 failed deliveries; each a status
 *   change with its e-mail and audit event) as the phone sends them (`/driver/sync`, batches of at
 *   most ten), and the same queue sent again (answered from the log).
 * DRIVER_BUILD_DIR=folder reuses a build made before (skips the build).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import { eq } from "drizzle-orm";
import lighthouse from "lighthouse";
import { type Browser, chromium } from "playwright-core";
import { openDatabase } from "#app/db/client.server.ts";
import { adminUsers, orders } from "#app/db/schema.ts";
import { hashPassword } from "#app/features/staff/passwords.server.ts";
import { storeDay } from "#app/utils/store-time.ts";
import { buildApp, startApp } from "../../tests/support/app-server.ts";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../../tests/support/chromium.ts";
import { insertOrderRow } from "../../tests/support/order-rows.ts";
import { median, ROOT, say } from "./lib.ts";

const SLOTS = ["10:00 AM-12:00 PM", "12:00 PM-2:00 PM", "2:00 PM-4:00 PM", "4:00 PM-6:00 PM"];
const PASSWORD = "Bench-Driver-Lantern-Orchard-64";
const RUN_DRIVER = "bench-run-driver@capitalgrown.test";
const SYNC_DRIVER = "bench-sync-driver@capitalgrown.test";

/** The two drivers and their orders, written before the server opens the data folder. */
async function prepare(dataDir: string) {
  const handle = await openDatabase({ kind: "pglite", dataDir });
  const driver = async (email: string) => {
    const [row] = await handle.db
      .insert(adminUsers)
      .values({ email, passwordHash: await hashPassword(PASSWORD), role: "driver", firstName: "Dana" })
      .returning({ id: adminUsers.id });
    return (row as { id: string }).id;
  };
  const today = storeDay(new Date());
  const runDriver = await driver(RUN_DRIVER);
  for (let i = 0; i < 20; i++) {
    const { id } = await insertOrderRow(handle.db, {
      customerName: i === 0 ? "Alicia Fernández-Castillo de la Vega" : `Customer Number ${i}`,
      deliveryDate: today,
      deliveryTime: SLOTS[i % SLOTS.length] as string,
      driverId: runDriver,
      idPhotoId: null,
    });
    if (i % 3 === 0)
      await handle.db.update(orders).set({ notes: "Ring twice; gate code 4411" }).where(eq(orders.id, id));
  }
  const syncDriver = await driver(SYNC_DRIVER);
  const syncOrders: string[] = [];
  for (let i = 0; i < 50; i++) {
    const { id } = await insertOrderRow(handle.db, {
      customerName: `Sync Customer ${i}`,
      deliveryDate: today,
      deliveryTime: SLOTS[i % SLOTS.length] as string,
      driverId: syncDriver,
      status: "out_for_delivery",
      idPhotoId: null,
    });
    syncOrders.push(id);
  }
  await handle.close();
  return syncOrders;
}

async function signedInContext(browser: Browser, baseUrl: string, email: string) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  await page.goto(`${baseUrl}/admin/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL((url) => url.pathname !== "/admin/login");
  return { context, page };
}

async function firstLoadJs(browser: Browser, baseUrl: string) {
  const signed = await signedInContext(browser, baseUrl, RUN_DRIVER);
  const cookies = await signed.context.cookies();
  await signed.context.close();
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
  await visit.goto(`${baseUrl}/driver`, { waitUntil: "networkidle" });
  await Promise.all(pending);
  await fresh.close();
  const cookieHeader = cookies
    .filter((cookie) => cookie.path === "/driver")
    .map((cookie) => `${cookie.name}=${cookie.value}`)
    .join("; ");
  return { scripts: scripts.sort((a, b) => b.gzip - a.gzip), cookieHeader };
}

async function lighthouseScores(baseUrl: string, cookieHeader: string) {
  const runs = Math.max(1, Number(process.env.LH_RUNS ?? 3));
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_FLAGS });
  const scores: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const result = await lighthouse(`${baseUrl}/driver`, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance"],
        extraHeaders: { Cookie: cookieHeader },
      });
      const score = result?.lhr.categories.performance?.score;
      if (typeof score === "number") scores.push(Math.round(score * 100));
      const audits = result?.lhr.audits ?? {};
      say(
        `  run ${run + 1}: ${[
          "first-contentful-paint",
          "largest-contentful-paint",
          "total-blocking-time",
          "cumulative-layout-shift",
          "speed-index",
        ]
          .map((id) => `${id} ${audits[id]?.displayValue ?? "?"}`)
          .join(", ")}`,
      );
    }
  } finally {
    chrome.kill();
  }
  return scores;
}

/** The phone's queue of 50 actions sent from the page as the phone sends it; ms for all of it. */
async function syncTimes(browser: Browser, baseUrl: string, orderIds: string[]) {
  const { context, page } = await signedInContext(browser, baseUrl, SYNC_DRIVER);
  await page.goto(`${baseUrl}/driver`);
  const times = await page.evaluate(async (ids) => {
    const csrf = document.querySelector<HTMLInputElement>("input[name=csrf]")?.value ?? "";
    // A drawn signature is some 10 to 30 KB as a PNG data URL.
    const signaturePng = `data:image/png;base64,${"iVBORw0KGgo".repeat(2000)}`;
    const actions = ids.map((orderId, index) => ({
      key: crypto.randomUUID(),
      phoneTime: new Date(Date.now() - (ids.length - index) * 60_000).toISOString(),
      action:
        index % 2 === 0
          ? {
              kind: "deliver",
              orderId,
              proof: { dateOfBirth: "1990-02-28", nameMatches: true, cashReceivedCents: 5000, signaturePng },
            }
          : { kind: "fail", orderId, reason: "customer-not-home" },
    }));
    const sendAll = async () => {
      const started = performance.now();
      let applied = 0;
      for (let from = 0; from < actions.length; from += 10) {
        const batch = actions.slice(from, from + 10);
        const response = await fetch("/driver/sync", {
          method: "POST",
          headers: { Accept: "application/json" },
          body: new URLSearchParams({
            csrf,
            batch: JSON.stringify({ actions: batch, waiting: actions.length - from - batch.length }),
          }),
        });
        const answer = (await response.json()) as { outcomes: { outcome: string }[] };
        applied += answer.outcomes.filter((outcome) => outcome.outcome === "applied").length;
      }
      return { ms: performance.now() - started, applied };
    };
    return { first: await sendAll(), again: await sendAll() };
  }, orderIds);
  await context.close();
  return times;
}

type Row = { figure: string; target: string; value: string; pass: boolean | null; context: string };

/** The driver app's three figures, as rows of BENCHMARKS.md (`npm run bench -- --only=driver`). */
export async function benchDriver(buildDir: string): Promise<Row[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "cg-driver-bench-"));
  const syncOrders = await prepare(dataDir);
  const app = await startApp({
    buildDir,
    dataDir,
    startTimeoutMs: 240_000,
    env: {
      SEED_DEMO_COUNT: "2",
      ADMIN_EMAIL: "bench-owner@capitalgrown.test",
      ADMIN_PASSWORD: "Bench-Owner-Harbour-Field-51",
    },
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    const load = await firstLoadJs(browser, app.url);
    const jsGzip = load.scripts.reduce((sum, script) => sum + script.gzip, 0);
    say(`/driver first-load JS, gzipped: ${(jsGzip / 1024).toFixed(1)} KB (target ≤ 90 KB)`);
    for (const script of load.scripts) say(`  ${script.name}: ${(script.gzip / 1024).toFixed(1)} KB`);
    const scores = await lighthouseScores(app.url, load.cookieHeader);
    say(
      `Lighthouse mobile performance on /driver, 20 stops: median ${median(scores)} (runs ${scores.join(", ")})`,
    );
    const sync = await syncTimes(browser, app.url, syncOrders);
    say(`Syncing 50 queued actions: ${sync.first.ms.toFixed(0)} ms (${sync.first.applied} applied)`);
    const biggest = [...load.scripts].sort((a, b) => b.gzip - a.gzip)[0];
    return [
      {
        figure: "First-load JS on /driver (the driver app), gzipped",
        target: "≤ 90 KB",
        value: `${(jsGzip / 1024).toFixed(1)} KB`,
        pass: jsGzip <= 90 * 1024,
        context: `${load.scripts.length} scripts; the largest, ${biggest?.name ?? "?"}, ${((biggest?.gzip ?? 0) / 1024).toFixed(1)} KB`,
      },
      {
        figure: "Lighthouse mobile performance on /driver, a run of 20 stops",
        target: "≥ 95",
        value: String(median(scores)),
        pass: median(scores) >= 95,
        context: `median of ${scores.length} runs (${scores.join(", ")})`,
      },
      {
        figure: "Syncing 50 queued driver actions, embedded database",
        target: "≤ 2 s",
        value: `${(sync.first.ms / 1000).toFixed(2)} s`,
        pass: sync.first.ms <= 2000 && sync.first.applied === 50,
        context: `25 deliveries with proof and signature, 25 could-not-deliver, batches of 10 through /driver/sync, ${sync.first.applied} applied; the same queue again ${(sync.again.ms / 1000).toFixed(2)} s, answered from the log`,
      },
    ];
  } finally {
    await browser.close();
    await app.stop();
  }
}

if (import.meta.main) {
  const buildDir =
    process.env.DRIVER_BUILD_DIR ?? path.join(ROOT, "node_modules/.cache/capital-grown/driver-bench-build");
  if (!process.env.DRIVER_BUILD_DIR) {
    say("building");
    buildApp(buildDir);
  }
  await benchDriver(buildDir);
}
