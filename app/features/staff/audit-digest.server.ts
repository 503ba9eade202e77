/**
 * The daily audit digest (record 036): once a store day, at AUDIT_DIGEST_TIME, the whole hash chain
 * is walked and each active owner gets its outcome and the last event's id and hash by e-mail.
 * Claimed in `store_settings` like the low-stock digest, so of several instances one sends it.
 */
import { and, eq, isNull } from "drizzle-orm";
import { db } from "#app/db/client.server.ts";
import { adminUsers, emailOutbox } from "#app/db/schema.ts";
import { recordVerifiedCheckpoint, verifyAuditChain } from "#app/features/audit/audit-chain.server.ts";
import { storeEmailSettings, wakeEmailWorker } from "#app/features/email/email-outbox.server.ts";
import { claimStoreDay, digestDueMinutes } from "#app/features/settings/daily-claim.server.ts";
import { config } from "#app/utils/env.server.ts";
import { log } from "#app/utils/logger.server.ts";
import { startPeriodicJob } from "#app/utils/periodic-job.server.ts";
import { storeClock } from "#app/utils/store-time.ts";
import { auditDigestEmail } from "./audit-digest-email.server.tsx";

export const AUDIT_DIGEST_KEY = "audit-digest";

export type AuditDigestOutcome =
  | { sent: true; day: string; owners: number; lastId: string; lastHash: string; broken: boolean }
  | { sent: false; reason: "off" | "not-yet" | "already-decided" | "no-owner"; day: string };

export async function sendAuditDigestIfDue(
  options: { now?: Date; setting?: string } = {},
): Promise<AuditDigestOutcome> {
  const now = options.now ?? new Date();
  const { date, minutes } = storeClock(now);
  const due = digestDueMinutes(options.setting ?? config().AUDIT_DIGEST_TIME, date);
  if (due === null) return { sent: false, reason: "off", day: date };
  if (minutes < due) return { sent: false, reason: "not-yet", day: date };
  const database = await db();
  const outcome = await database.transaction(async (tx): Promise<AuditDigestOutcome> => {
    if (!(await claimStoreDay(tx, AUDIT_DIGEST_KEY, date, now)))
      return { sent: false, reason: "already-decided", day: date };
    const owners = await tx
      .select({ email: adminUsers.email })
      .from(adminUsers)
      .where(and(eq(adminUsers.role, "owner"), isNull(adminUsers.deactivatedAt)));
    if (owners.length === 0) return { sent: false, reason: "no-owner", day: date };
    const result = await verifyAuditChain(tx);
    const lastId = result.verifiedUpTo ?? "0";
    const lastHash = result.lastHash ?? "";
    if (result.ok && result.verifiedUpTo && result.lastHash) {
      await recordVerifiedCheckpoint(tx, result.verifiedUpTo, result.lastHash);
    }
    const mail = await auditDigestEmail(
      {
        day: date,
        lastId,
        lastHash,
        checked: result.checked,
        broken: result.ok ? null : { at: result.brokenAt, reason: result.reason },
      },
      storeEmailSettings(),
    );
    await tx.insert(emailOutbox).values(
      owners.map((owner) => ({
        kind: "audit-digest",
        toAddress: owner.email,
        subject: mail.subject,
        textBody: mail.text,
        htmlBody: mail.html,
        createdAt: now,
        nextAttemptAt: now,
      })),
    );
    return { sent: true, day: date, owners: owners.length, lastId, lastHash, broken: !result.ok };
  });
  if (outcome.sent) wakeEmailWorker();
  return outcome;
}

/** Checks every minute whether today's digest is due; every instance may run it (one sends). */
export function startAuditDigestJob(options: { intervalMs?: number } = {}) {
  if (config().AUDIT_DIGEST_TIME === "off") return () => {};
  return startPeriodicJob(
    async () => {
      const outcome = await sendAuditDigestIfDue();
      if (!outcome.sent) return;
      const details = { day: outcome.day, lastId: outcome.lastId, lastHash: outcome.lastHash };
      if (outcome.broken)
        log.error("The audit log's hash chain is broken: digest sent to the owners", details);
      else log.info(`Audit digest sent to ${outcome.owners} owner(s)`, details);
    },
    { intervalMs: options.intervalMs ?? 60_000, failure: "The audit digest failed" },
  );
}
