/**
 * The driver app without signal (record 050) on a 390 px phone context: a driver signs in and
 * opens the run; the service worker keeps the page, so a reload with the network off still shows
 * the run. Offline, the driver moves a stop, starts the run, delivers two stops with the ID checked,
 * the cash and a signature, and fails two; the changes wait on
 * the phone ('Offline — N changes waiting'), survive a reload, and are sent when the network is
 * back. The server holds them with the phone's times; the stop the store cancelled meanwhile shows
 * as cancelled, the driver's change to it refused and explained. The same action sent twice is
 * applied once.
 *
 * Like the run's own story, it starts a server of its own on a throwaway PostgreSQL database and
 * writes today's orders straight into it (the checkout's cut-off would refuse today's at night).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { eq, inArray } from "drizzle-orm";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import {
  adminUsers,
  deliveryFailures,
  deliveryProofs,
  driverActionLog,
  driverPhoneSyncs,
  orders,
} from "#app/db/schema.ts";
import { hashPassword } from "#app/features/staff/passwords.server.ts";
import { storeDay } from "#app/utils/store-time.ts";
import { LOAD_TEST_BUDGETS, type RunningApp, startApp } from "../support/app-server.ts";
import { insertOrderRow } from "../support/order-rows.ts";
import { createThrowawayDatabase } from "../support/throwaway-database.ts";
import { signInAs } from "./support/admin-sign-in.ts";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const SCREENSHOTS = process.env.DRIVER_SCREENSHOTS;
const DRIVER = { email: "offline-driver@capitalgrown.test", password: "Driver-Harbour-Lantern-71" };
const OWNER = { email: "offline-owner@capitalgrown.test", password: "Offline-Owner-Maple-Field-38" };
const LONG_NAME = "Alicia Fernández-Castillo de la Vega";
const TEN = "10:00 AM-12:00 PM";
const TWO = "2:00 PM-4:00 PM";

async function screenshot(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

const stopList = (page: Page) => page.getByRole("region", { name: /^Stops/ }).getByRole("listitem");
const stopNames = (page: Page) => stopList(page).locator("h3").allTextContents();

test.describe("the driver app without signal", () => {
  test.skip(!TEST_DATABASE_URL, "needs TEST_DATABASE_URL (PostgreSQL)");

  test("keeps the run on the phone, queues what the driver does offline and applies it once when the signal is back", async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const database = await createThrowawayDatabase(TEST_DATABASE_URL as string, "cg_driver_offline");
    let app: RunningApp | undefined;
    let helper: DatabaseHandle | undefined;
    try {
      app = await startApp({
        buildDir: process.env.E2E_BUILD_DIR as string,
        env: {
          DATABASE_URL: database.url,
          SEED_DEMO_COUNT: "2",
          ADMIN_EMAIL: OWNER.email,
          ADMIN_PASSWORD: OWNER.password,
          ...LOAD_TEST_BUDGETS,
        },
      });
      helper = await openDatabase({ kind: "postgres", url: database.url, applicationName: "cg-test-helper" });
      const db = helper.db;
      const [driver] = await db
        .insert(adminUsers)
        .values({
          email: DRIVER.email,
          passwordHash: await hashPassword(DRIVER.password),
          role: "driver",
          firstName: "Dana",
        })
        .returning({ id: adminUsers.id });
      const driverId = (driver as { id: string }).id;
      const today = storeDay(new Date());
      const stop = async (customerName: string, deliveryTime: string) =>
        (
          await insertOrderRow(db, {
            customerName,
            deliveryDate: today,
            deliveryTime,
            driverId,
            idPhotoId: null,
          })
        ).id;
      const alicia = await stop(LONG_NAME, TEN);
      const bo = await stop("Bo Secondplace", TEN);
      const cy = await stop("Cy Notathome", TWO);
      const di = await stop("Di Cancelledmeanwhile", TWO);

      const context = await browser.newContext({ baseURL: app.url, viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await signInAs(page, DRIVER);
      await page.goto("/driver");
      await expect(page.getByRole("heading", { name: "Today's run" })).toBeVisible();
      expect(await stopNames(page)).toEqual([
        LONG_NAME,
        "Bo Secondplace",
        "Cy Notathome",
        "Di Cancelledmeanwhile",
      ]);
      // The service worker takes the page over and keeps it, with the build files it loaded.
      await expect
        .poll(() =>
          page.evaluate(async () => {
            if (!navigator.serviceWorker.controller || !(await caches.match("/driver"))) return false;
            const files = performance
              .getEntriesByType("resource")
              .map((entry) => new URL(entry.name).pathname)
              .filter((pathname) => pathname.startsWith("/assets/"));
            const kept = await Promise.all(files.map((pathname) => caches.match(pathname)));
            return kept.every(Boolean);
          }),
        )
        .toBe(true);
      await expect(page.getByTestId("phone-sync")).toHaveAttribute("data-ready", "true");
      // The manifest installs the app within /driver only.
      const manifest = await page.evaluate(async () => {
        const link = document.querySelector<HTMLLinkElement>("link[rel=manifest]");
        return link
          ? ((await (await fetch(link.href)).json()) as { scope: string; start_url: string })
          : null;
      });
      expect(manifest).toMatchObject({ scope: "/driver", start_url: "/driver" });

      // No signal: the reload comes from the phone.
      await context.setOffline(true);
      await page.reload();
      await expect(page.getByRole("heading", { name: "Today's run" })).toBeVisible();
      await expect(page.getByTestId("phone-sync")).toHaveAttribute("data-ready", "true");
      expect(await stopNames(page)).toEqual([
        LONG_NAME,
        "Bo Secondplace",
        "Cy Notathome",
        "Di Cancelledmeanwhile",
      ]);
      await expect(page.getByRole("status")).toHaveText("Offline — your run is saved on this phone");
      await screenshot(page, "driver-offline-reloaded");

      // Offline: move a stop, start the run, fail two stops.
      const before = new Date();
      await page.getByRole("button", { name: "Move Bo Secondplace up" }).click();
      await expect(page.getByRole("status")).toHaveText("Offline — 1 change waiting");
      expect(await stopNames(page)).toEqual([
        "Bo Secondplace",
        LONG_NAME,
        "Cy Notathome",
        "Di Cancelledmeanwhile",
      ]);
      await page.getByRole("button", { name: "Start run" }).click();
      await expect(page.getByRole("status")).toHaveText("Offline — 2 changes waiting");
      await expect(stopList(page).first()).toContainText("Out for delivery");
      // At the door, offline: two stops delivered with the ID checked, the cash and a signature;
      // two could not be delivered.
      const deliver = async (name: string) => {
        const item = stopList(page).filter({ hasText: name });
        await item.getByText("Delivered", { exact: true }).first().click();
        const form = item.getByRole("form", { name: /^Delivered: / });
        await form.getByLabel(/The name on the ID is/).check();
        await form.getByLabel("Date of birth on the ID").fill("1990-04-12");
        await form.getByTestId("signature-pad").scrollIntoViewIfNeeded();
        const pad = await form.getByTestId("signature-pad").boundingBox();
        if (!pad) throw new Error("no signature pad");
        await page.mouse.move(pad.x + 30, pad.y + 60);
        await page.mouse.down();
        await page.mouse.move(pad.x + 160, pad.y + 120, { steps: 8 });
        await page.mouse.up();
        await expect(form.getByText("Signed", { exact: true })).toBeVisible();
        await form.getByRole("button", { name: "Delivered" }).click();
      };
      const fail = async (name: string, reason: string) => {
        const item = stopList(page).filter({ hasText: name });
        await item.getByText("Could not deliver", { exact: true }).first().click();
        const form = item.getByRole("form", { name: /^Could not deliver/ });
        await form.getByLabel(reason, { exact: true }).check();
        await form.getByRole("button", { name: "Could not deliver" }).click();
      };
      await deliver(LONG_NAME);
      await expect(page.getByRole("status")).toHaveText("Offline — 3 changes waiting");
      await deliver("Bo Secondplace");
      await expect(page.getByRole("status")).toHaveText("Offline — 4 changes waiting");
      await fail("Cy Notathome", "Customer not home");
      await expect(page.getByRole("status")).toHaveText("Offline — 5 changes waiting");
      await fail("Di Cancelledmeanwhile", "Address not reachable");
      await expect(page.getByRole("status")).toHaveText("Offline — 6 changes waiting");
      expect(await stopNames(page)).toEqual([]);
      await expect(page.getByTestId("collected")).toHaveText("$84.00");
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(page, "driver-offline-waiting");

      // The waiting changes are on the phone: a reload without signal still holds them.
      await page.reload();
      await expect(page.getByRole("status")).toHaveText("Offline — 6 changes waiting");
      expect(await stopNames(page)).toEqual([]);
      const wentOnline = new Date();

      // Meanwhile the store cancels Di's order.
      await db
        .update(orders)
        .set({ status: "cancelled", cancelReason: "Customer request" })
        .where(eq(orders.id, di));

      await context.setOffline(false);
      await expect(page.getByRole("status")).toHaveText(/^Changes sent at \d{1,2}:\d{2} [AP]M$/);
      const refused = page.getByRole("region", { name: "Not applied" });
      await expect(refused).toContainText(
        "Di Cancelledmeanwhile: The store cancelled this order (Customer request) while you were offline. Your change was not applied.",
      );
      expect(await stopNames(page)).toEqual([]);
      await page.getByText(/^Done and failed \(4\)/).click();
      await expect(page.getByText("Cancelled · $42.00 · Customer request")).toBeVisible();
      await expect(page.getByText(/Customer not home/)).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(page, "driver-offline-synced");

      const rows = await db
        .select({ id: orders.id, status: orders.status, reason: orders.cancelReason })
        .from(orders)
        .where(inArray(orders.id, [alicia, bo, cy, di]));
      const byId = new Map(rows.map((row) => [row.id, row]));
      expect(byId.get(alicia)?.status).toBe("delivered");
      expect(byId.get(bo)?.status).toBe("delivered");
      expect(byId.get(cy)?.status).toBe("returning");
      expect(byId.get(di)).toMatchObject({ status: "cancelled", reason: "Customer request" });
      // The proof at the door and the failure keep the phone's time, taken offline.
      const proofs = await db
        .select({ orderId: deliveryProofs.orderId, phoneTime: deliveryProofs.phoneTime })
        .from(deliveryProofs)
        .where(inArray(deliveryProofs.orderId, [alicia, bo]));
      const [failure] = await db
        .select({ reason: deliveryFailures.reason, phoneTime: deliveryFailures.phoneTime })
        .from(deliveryFailures)
        .where(eq(deliveryFailures.orderId, cy));
      expect(proofs).toHaveLength(2);
      expect(failure?.reason).toBe("customer-not-home");
      for (const at of [...proofs.map((proof) => proof.phoneTime), failure?.phoneTime]) {
        expect(at?.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
        expect(at?.getTime()).toBeLessThanOrEqual(wentOnline.getTime());
      }
      const log = await db
        .select()
        .from(driverActionLog)
        .where(eq(driverActionLog.driverId, driverId))
        .orderBy(driverActionLog.phoneTime);
      expect(log.map((row) => [row.kind, row.outcome, row.conflict])).toEqual([
        ["move", "applied", null],
        ["start-run", "applied", null],
        ["deliver", "applied", null],
        ["deliver", "applied", null],
        ["fail", "applied", null],
        ["fail", "refused", "cancelled"],
      ]);
      for (const row of log) {
        // The phone's own times, taken offline, and the server's, after the signal came back.
        expect(row.phoneTime.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
        expect(row.phoneTime.getTime()).toBeLessThanOrEqual(wentOnline.getTime());
        expect(row.settledAt?.getTime()).toBeGreaterThanOrEqual(wentOnline.getTime());
      }
      const [synced] = await db
        .select()
        .from(driverPhoneSyncs)
        .where(eq(driverPhoneSyncs.driverId, driverId));
      expect(synced?.syncedAt.getTime()).toBeGreaterThanOrEqual(wentOnline.getTime());

      // Read: the refusal goes away.
      await refused.getByRole("button", { name: /^OK/ }).click();
      await expect(refused).toHaveCount(0);

      // The same action sent twice (an answer lost on the way) is applied once: two new stops of
      // the same slot, the second moved up.
      await stop("Ed Firstin", TEN);
      const flo = await stop("Flo Secondin", TEN);
      const twice = await page.evaluate(async (orderId) => {
        const csrf = document.querySelector<HTMLInputElement>("input[name=csrf]")?.value ?? "";
        const batch = JSON.stringify({
          actions: [
            {
              key: crypto.randomUUID(),
              phoneTime: new Date().toISOString(),
              action: { kind: "move", orderId, direction: "up" },
            },
          ],
        });
        const send = async () => {
          const response = await fetch("/driver/sync", {
            method: "POST",
            headers: { Accept: "application/json" },
            body: new URLSearchParams({ csrf, batch }),
          });
          const answer = (await response.json()) as {
            outcomes: unknown[];
            run: { open: { customerName: string }[] };
          };
          return { outcomes: answer.outcomes, open: answer.run.open.map((stop) => stop.customerName) };
        };
        return [await send(), await send()];
      }, flo);
      expect(twice[1]?.outcomes).toEqual(twice[0]?.outcomes);
      expect(twice[0]?.outcomes).toMatchObject([{ outcome: "applied" }]);
      // Applied twice, the second would be refused (Flo is first of her slot by then).
      expect(twice[1]?.open).toEqual(["Flo Secondin", "Ed Firstin"]);
      const moves = await db.select().from(driverActionLog).where(eq(driverActionLog.kind, "move"));
      expect(moves).toHaveLength(2);
      await context.close();
    } finally {
      await helper?.close();
      await app?.stop();
      await database.drop();
    }
  });

  test("the storefront registers no service worker", async ({ page }) => {
    test.skip(!process.env.E2E_BASE_URL, "needs the shared e2e server");
    await page.goto("/");
    expect(await page.evaluate(() => document.querySelector("link[rel=manifest]"))).toBeNull();
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(
      0,
    );
  });
});
