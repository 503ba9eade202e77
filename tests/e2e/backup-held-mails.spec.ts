import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { openDatabase } from "#app/db/client.server.ts";
import { emailOutbox } from "#app/db/schema.ts";
import { writeBackup } from "#app/features/backups/backup-service.server.ts";
import { type RunningApp, startApp } from "../support/app-server.ts";
import { startLoopbackSmtp } from "../support/loopback-smtp.ts";
import { signInAs } from "./support/admin-sign-in.ts";

const run = promisify(execFile);
const ADMIN = { email: "held-admin@capitalgrown.test", password: "held-password-123" };

// Record 017: mails pending when the backup was taken are held after a restore, shown in the
// admin outbox, and sent only when staff press Send.
test("a restore holds pending mails for review; none is sent until Send is pressed", async ({ page }) => {
  test.setTimeout(180_000);
  const sourceDir = mkdtempSync(path.join(tmpdir(), "cg-held-src-"));
  const freshDir = mkdtempSync(path.join(tmpdir(), "cg-held-new-"));
  const file = path.join(sourceDir, "backup.ndjson.gz");
  const smtp = await startLoopbackSmtp();
  let app: RunningApp | undefined;
  try {
    const source = await openDatabase({ kind: "pglite", dataDir: sourceDir, lockOwner: "the test" });
    await source.db.insert(emailOutbox).values(
      [1, 2, 3].map((n) => ({
        kind: "order_received",
        toAddress: `held-${n}@example.com`,
        subject: `Held ${n}`,
        textBody: "Thank you",
        htmlBody: "<p>Thank you</p>",
      })),
    );
    await writeBackup(source.db, file);
    await source.close();
    await run("npm", ["run", "-s", "db:restore", "--", file], {
      env: { ...process.env, DATABASE_URL: "", DATA_DIR: freshDir },
    });

    app = await startApp({
      buildDir: process.env.E2E_BUILD_DIR as string,
      dataDir: freshDir,
      env: {
        SEED_DEMO: "false",
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
      },
    });
    await signInAs(page, ADMIN, { loginUrl: `${app.url}/admin/login` });
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await page.goto(`${app.url}/admin/outbox`);
    const banner = page.getByRole("alert").filter({ hasText: "Restored from a backup" });
    await expect(banner).toHaveText(/Restored from a backup: 3 e-mails held\. Send them or discard them\./);
    await expect(page.getByText("held-1@example.com")).toBeVisible();
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await banner.screenshot({ path: `/tmp/outbox-held-banner-${width}.png` });
    }
    // The worker runs (every few seconds) and sends nothing held.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(smtp.received).toEqual([]);

    await banner.getByRole("button", { name: "Send" }).click();
    await expect(banner).toHaveCount(0);
    await expect
      .poll(() => smtp.received.map((mail) => mail.subject).sort(), { timeout: 30_000 })
      .toEqual(["Held 1", "Held 2", "Held 3"]);
  } finally {
    await app?.stop();
    await smtp.close();
    for (const dir of [sourceDir, freshDir]) rmSync(dir, { recursive: true, force: true });
  }
});
