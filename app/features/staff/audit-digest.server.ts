/**
 * The daily audit digest (record 036): once a store day, at AUDIT_DIGEST_TIME, the whole hash chain
 * is walked and each active owner gets its outcome and the last event's id and hash by e-mail.
 * Claimed in `store_settings` like the low-stock digest, so of several instances one sends it.
 */
import { and, eq, isNull } from "drizzle-orm";
import { adminUsers, emailOutbox } from "#app/db/schema.ts";
import { recordVerifiedCheckpoint, verifyAuditChain } from "#app/features/audit/audit-chain.server.ts";
import { outboxRow, storeEmailSettings, wakeEmailWorker } from "#app/features/email/email-outbox.server.ts";
import { type NotToday, onceAStoreDay } from "#app/features/settings/daily-claim.server.ts";
import { config } from "#app/utils/env.server.ts";
import { log } from "#app/utils/logger.server.ts";
import { startDigestJob } from "#app/utils/periodic-job.server.ts";
import { auditDigestEmail } from "./audit-digest-email.server.tsx";

export const AUDIT_DIGEST_KEY = "audit-digest";

export type AuditDigestOutcome =
  | { sent: true; day: string; owners: number; lastId: string; lastHash: string; broken: boolean }
  | NotToday
  | { sent: false; reason: "no-owner"; day: string };

export async function sendAuditDigestIfDue(
  options: { now?: Date; setting?: string } = {},
): Promise<AuditDigestOutcome> {
  const now = options.now ?? new Date();
  const setting = options.setting ?? config().AUDIT_DIGEST_TIME;
  const outcome = await onceAStoreDay({ key: AUDIT_DIGEST_KEY, setting, now }, async (tx, date) => {
    const owners = await tx
      .select({ email: adminUsers.email })
      .from(adminUsers)
      .where(and(eq(adminUsers.role, "owner"), isNull(adminUsers.deactivatedAt)));
    if (owners.length === 0) return { sent: false, reason: "no-owner", day: date } as const;
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
    await tx
      .insert(emailOutbox)
      .values(owners.map((owner) => outboxRow("audit-digest", owner.email, mail, now)));
    return { sent: true, day: date, owners: owners.length, lastId, lastHash, broken: !result.ok } as const;
  });
  if (outcome.sent) wakeEmailWorker();
  return outcome;
}

/** Checks every minute whether today's digest is due; every instance may run it (one sends). */
export function startAuditDigestJob(options: { intervalMs?: number } = {}) {
  return startDigestJob({
    ...options,
    time: config().AUDIT_DIGEST_TIME,
    send: sendAuditDigestIfDue,
    sent: (outcome) => {
      const details = { day: outcome.day, lastId: outcome.lastId, lastHash: outcome.lastHash };
      if (outcome.broken)
        log.error("The audit log's hash chain is broken: digest sent to the owners", details);
      else log.info(`Audit digest sent to ${outcome.owners} owner(s)`, details);
    },
    failure: "The audit digest failed",
  });
}
