import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";

/**
 * The invitation link of the newest mail to `to` the outbox worker wrote into `dataDir`'s outbox
 * folder (no SMTP configured: DATA_DIR/outbox); the shared e2e server's by default.
 */
export async function invitationPath(to: string, dataDir = process.env.E2E_DATA_DIR as string) {
  const folder = path.join(dataDir, "outbox");
  let found: string | undefined;
  await expect(async () => {
    const mails = readdirSync(folder)
      .filter((name) => name.endsWith(".eml"))
      .map((name) => readFileSync(path.join(folder, name), "utf8"))
      .filter((mail) => mail.includes(to))
      // Each part is UTF-8 in base64 (app/features/email/mime.server.ts).
      .map((mail) =>
        [...mail.matchAll(/Content-Transfer-Encoding: base64\r?\n\r?\n([A-Za-z0-9+/=\r\n]+)/g)]
          .map((part) => Buffer.from((part[1] as string).replace(/\s/g, ""), "base64").toString("utf8"))
          .join("\n"),
      );
    found = mails
      .map((mail) => /\/admin\/invitation\/([\w-]{43})/.exec(mail)?.[0])
      .find((link): link is string => Boolean(link));
    expect(found).toBeTruthy();
  }).toPass({ timeout: 20_000 });
  return found as string;
}
