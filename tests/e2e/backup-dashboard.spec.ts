import { expect, test } from "@playwright/test";
import { startApp } from "../support/app-server.ts";
import { signIn } from "./admin-support.ts";
import { E2E_ADMIN } from "./support/global-setup.ts";

// Record 017: a server whose BACKUP_TIME has passed writes its daily backup at start, checked
// by a restore; the dashboard shows its time and size (the red state is covered by backup-rules.test.ts).
test("the dashboard shows the last daily backup's time and size", async ({ browser }) => {
  test.setTimeout(120_000);
  const app = await startApp({
    buildDir: process.env.E2E_BUILD_DIR as string,
    env: { BACKUP_TIME: "00:00", ADMIN_EMAIL: E2E_ADMIN.email, ADMIN_PASSWORD: E2E_ADMIN.password },
  });
  const context = await browser.newContext({ baseURL: app.url });
  try {
    const page = await context.newPage();
    await signIn(page);
    const panel = page.getByTestId("backup-panel");
    await expect(async () => {
      await page.reload();
      await expect(panel).toContainText(/Last backup .+, [\d.]+ (B|KB|MB)/, { timeout: 1_000 });
    }).toPass({ timeout: 60_000 });
    await expect(panel).not.toContainText("No backup exists yet");
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await panel.screenshot({ path: `/tmp/backup-panel-${width}.png` });
    }
  } finally {
    await context.close();
    await app.stop();
  }
});
