import { expect } from "@playwright/test";
import { invitationTokens } from "../../support/invitation-links.ts";
import type { LoopbackSmtp } from "../../support/loopback-smtp.ts";

/**
 * The invitation link of the newest mail to `to` that a server sent to `smtp` (its SMTP_URL): an
 * invitation's link is never stored, so only a mail that went out over SMTP holds it (record 036).
 */
export async function invitationPath(to: string, smtp: LoopbackSmtp) {
  let found: string | undefined;
  await expect(async () => {
    found = invitationTokens(smtp.received, to).at(-1);
    expect(found).toBeTruthy();
  }).toPass({ timeout: 20_000 });
  return `/admin/invitation/${found}`;
}
