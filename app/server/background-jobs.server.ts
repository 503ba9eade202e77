/**
 * Work that runs beside the web server (e-mail sending, ID photo and audit log retention, cancelling
 * orders not confirmed in time, cache invalidation).
 * Each job starts here and returns a function that stops it; shutdown awaits them all.
 */
import { getDatabaseHandle } from "#app/db/client.server.ts";
import { startAuditRetentionJob } from "#app/features/audit/audit-retention.server.ts";
import { startBackupSocket, startDailyBackupJob } from "#app/features/backups/backup-service.server.ts";
import { startLowStockDigestJob } from "#app/features/catalog/low-stock.server.ts";
import { startOldCodesJob } from "#app/features/checkout/contact-verification.server.ts";
import { startEmailWorker } from "#app/features/email/email-outbox.server.ts";
import { startAutoCancelJob } from "#app/features/orders/auto-cancel.server.ts";
import { startIdRetentionJob } from "#app/features/orders/id-retention.server.ts";
import { startAuditDigestJob } from "#app/features/staff/audit-digest.server.ts";
import { config } from "#app/utils/env.server.ts";
import { catalogVersion } from "./page-cache-version.server.ts";

export type StopJob = () => Promise<void> | void;

export async function startBackgroundJobs(): Promise<StopJob[]> {
  const stops: StopJob[] = [];
  stops.push(startEmailWorker());
  stops.push(startIdRetentionJob());
  stops.push(startAuditRetentionJob());
  stops.push(startAutoCancelJob());
  stops.push(startLowStockDigestJob());
  stops.push(startAuditDigestJob());
  stops.push(startOldCodesJob());
  stops.push(startDailyBackupJob(await getDatabaseHandle()));
  // The embedded database has one owner, this process: `npm run db:backup` asks it (record 017).
  if (!config().DATABASE_URL) stops.push(await startBackupSocket(await getDatabaseHandle()));
  if (config().PAGE_CACHE) stops.push(await catalogVersion.start(await getDatabaseHandle()));
  return stops;
}
