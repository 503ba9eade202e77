import { expect, test } from "@playwright/test";
import { signIn } from "./admin-support.ts";

// Issue 12 item 5: the shared e2e server writes its daily backup at start once BACKUP_TIME (03:30
// store time) has passed today: the dashboard shows its time and size; before that, in the small
// hours, none exists yet and the panel says so in red.
test("the dashboard shows the last backup's time and size", async ({ page }) => {
  await signIn(page);
  await page.goto("/admin");
  const panel = page.getByTestId("backup-panel");
  await expect(panel).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(panel).toContainText(/Last backup .+, [\d.]+ (B|KB|MB)|No backup exists yet/, {
      timeout: 1_000,
    });
  }).toPass({ timeout: 30_000 });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await panel.screenshot({ path: `/tmp/backup-panel-${width}.png` });
  }
});
