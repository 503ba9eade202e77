/** Mails a restore held for review (record 017): staff send them or discard them. */
import { eq } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import { emailOutbox } from "#app/db/schema.ts";
import { wakeEmailWorker } from "#app/features/email/email-outbox.server.ts";

/** Every held mail goes back to the queue, due now; returns how many. */
export async function releaseHeldEmails(db: Database) {
  const rows = await db
    .update(emailOutbox)
    .set({ status: "queued", nextAttemptAt: new Date(), lockedUntil: null })
    .where(eq(emailOutbox.status, "held"))
    .returning({ id: emailOutbox.id });
  if (rows.length > 0) wakeEmailWorker();
  return rows.length;
}

/** Every held mail is deleted unsent; returns how many. */
export async function discardHeldEmails(db: Database) {
  const rows = await db
    .delete(emailOutbox)
    .where(eq(emailOutbox.status, "held"))
    .returning({ id: emailOutbox.id });
  return rows.length;
}
