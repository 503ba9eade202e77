import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { backupDatabase, restoreDatabase } from "#app/db/backup.server.ts";
import type { Database, Executor } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/rows.ts";
import { emailOutbox, type StaffRole } from "#app/db/schema.ts";
import { COMMAND_LINE_ORIGIN } from "#app/features/audit/audit.server.ts";
import {
  claimDueEmails,
  folderTransport,
  processEmailBatch,
  smtpTransport,
} from "#app/features/email/email-outbox.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { invitationTokens, sendQueuedMail } from "#tests/support/invitation-links.ts";
import { startLoopbackSmtp } from "#tests/support/loopback-smtp.ts";
import { tempFolders } from "#tests/support/temp-folders.ts";
import { acceptInvitation, findOpenInvitation, inviteStaff } from "./staff.server.ts";

const actor = { userId: null, email: "cli", role: null };
const password = "correct-horse-battery-staple";
const newFolder = tempFolders("cg-invitations-");
const email = () => `invitee-${crypto.randomUUID()}@capitalgrown.test`;

/** Every stored column of `address`'s outbox rows, as one text. */
async function storedMail(db: Database, address: string) {
  return JSON.stringify(
    rowsOf(await db.execute(sql`SELECT * FROM email_outbox WHERE to_address = ${address}`)),
  );
}

/** The token of the invitation queued for `address`, before its mail is sent: in its row. */
async function queuedToken(db: Database, address: string) {
  const [row] = rowsOf<{ secret?: string | null; text_body: string }>(
    await db.execute(sql`SELECT * FROM email_outbox WHERE to_address = ${address}`),
  );
  return row?.secret ?? /\/admin\/invitation\/([\w-]{43})/.exec(row?.text_body ?? "")?.[1];
}

/** An invitation as the command line sends it. */
const inviteFromCommandLine = (db: Executor, who: { email: string; firstName: string; role: StaffRole }) =>
  inviteStaff(db, { ...who, actor, origin: COMMAND_LINE_ORIGIN });

const backupText = (file: string) => gunzipSync(readFileSync(file)).toString("utf8");

describeEachDatabase("invitation links at rest", (database) => {
  it("leave no token in the outbox row, its .eml copy or a backup once sent, and a restore voids pending ones", async () => {
    const { db } = database();
    const folder = newFolder();
    const byMail = email();
    await inviteFromCommandLine(db, { email: byMail, firstName: "Sam", role: "owner" });
    // A backup taken while the invitation's mail still waits to be sent.
    const whileQueued = path.join(folder, "while-queued.ndjson.gz");
    await backupDatabase(db, whileQueued);

    const [token] = invitationTokens(await sendQueuedMail(), byMail) as [string];
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(await storedMail(db, byMail)).not.toContain(token);
    expect(backupText(whileQueued)).not.toContain(token);

    // Without SMTP the folder's .eml is the stored copy: no link in it either.
    const byFolder = email();
    const invited = await inviteFromCommandLine(db, { email: byFolder, firstName: "Flo", role: "manager" });
    // Without SMTP_URL (unset in these tests) the owner is shown the link once, in the answer only.
    expect(invited).toMatchObject({ ok: true, message: expect.stringContaining("no mail server is set up") });
    const folderToken = (await queuedToken(db, byFolder)) as string;
    expect(folderToken).toMatch(/^[\w-]{43}$/);
    expect(invited.ok && invited.link).toMatch(new RegExp(`/admin/invitation/${folderToken}$`));
    const outbox = path.join(folder, "outbox");
    await processEmailBatch({ transport: folderTransport(outbox), limit: 50 });
    const files = readdirSync(outbox).map((name) => readFileSync(path.join(outbox, name), "utf8"));
    expect(files.some((file) => file.includes(byFolder))).toBe(true);
    for (const file of files) expect(file).not.toContain(folderToken);
    expect(await storedMail(db, byFolder)).not.toContain(folderToken);

    const afterSending = path.join(folder, "after-sending.ndjson.gz");
    await backupDatabase(db, afterSending);
    expect(backupText(afterSending)).not.toContain(token);
    expect(backupText(afterSending)).not.toContain(folderToken);

    // Whoever holds a backup cannot accept the invitations pending in it.
    await restoreDatabase(db, whileQueued, { availableKeys: [] });
    expect((await findOpenInvitation(db, token)).status).not.toBe("open");
    expect(await acceptInvitation(db, { token, password, origin: COMMAND_LINE_ORIGIN })).toEqual({
      ok: false,
      error: "This invitation link has expired or was already used.",
    });
  });

  it("a sender that crashed before sending leaves the invitation to the next one, link included", async () => {
    const { db } = database();
    const address = email();
    await inviteFromCommandLine(db, { email: address, firstName: "Cy", role: "driver" });
    const now = new Date();
    // Claimed by a sender that then died: its lease runs out, the row goes to the next sender.
    const claimed = await claimDueEmails({ now, limit: 50, leaseMs: 1_000 });
    expect(claimed.some((row) => row.toAddress === address)).toBe(true);
    const smtp = await startLoopbackSmtp();
    const transport = smtpTransport(`smtp://127.0.0.1:${smtp.port}`);
    try {
      await processEmailBatch({ transport, now: new Date(now.getTime() + 2_000), limit: 50 });
    } finally {
      transport.close();
      await smtp.close();
    }
    const [token] = invitationTokens(smtp.received, address) as [string];
    expect((await findOpenInvitation(db, token)).status).toBe("open");
    const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, address));
    expect(row).toMatchObject({ status: "sent", secret: null });
  });
});
