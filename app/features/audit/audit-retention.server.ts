/**
 * The audit log's retention (P-27): events older than AUDIT_RETENTION_DAYS (default 400,
 * at least 30) are deleted by the `purge_audit_events` SQL function, the only path past the table's
 * append-only trigger. Runs at start and hourly, like the ID photo retention.
 */

import { sql } from "drizzle-orm";
import { db } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/rows.ts";
import { config } from "#app/utils/env.server.ts";
import { log } from "#app/utils/logger.server.ts";
import { startRetentionJob } from "#app/utils/periodic-job.server.ts";
import { verifyAuditChainSinceCheckpoint } from "./audit-chain.server.ts";

/** Deletes the events past their retention; returns how many went. */
export async function purgeAuditEvents(retentionDays: number = config().AUDIT_RETENTION_DAYS) {
  const database = await db();
  const result = await database.execute(sql`SELECT purge_audit_events(${retentionDays}::integer) AS removed`);
  const [row] = rowsOf<{ removed: string | number }>(result);
  return Number(row?.removed ?? 0);
}

/**
 * Hourly: the purge, then the hash chain's events recorded since the last verification (record
 * 036), so the audit page's 'Chain verified up to …' has little left to walk.
 */
export function startAuditRetentionJob(options: { intervalMs?: number } = {}) {
  return startRetentionJob(
    async () => {
      const removed = await purgeAuditEvents();
      const chain = await verifyAuditChainSinceCheckpoint();
      if (chain.broken) {
        log.error("The audit log's hash chain is broken", {
          at: chain.broken.at,
          reason: chain.broken.reason,
        });
      }
      return removed;
    },
    { ...options, what: "audit event(s)", failure: "The audit retention job failed" },
  );
}
