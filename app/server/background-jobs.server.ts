/**
 * Work that runs beside the web server (e-mail sending, ID photo retention, cancelling orders not
 * confirmed in time, cache invalidation).
 * Each job starts here and returns a function that stops it; shutdown awaits them all.
 */
import { getDatabaseHandle } from "#app/db/client.server.ts";
import { startEmailWorker } from "#app/features/email/email-outbox.server.ts";
import { startAutoCancelJob } from "#app/features/orders/auto-cancel.server.ts";
import { startIdRetentionJob } from "#app/features/orders/id-retention.server.ts";
import { config } from "#app/utils/env.server.ts";
import { catalogVersion } from "./page-cache-version.server.ts";

export type StopJob = () => Promise<void> | void;

export async function startBackgroundJobs(): Promise<StopJob[]> {
  const stops: StopJob[] = [];
  stops.push(startEmailWorker());
  stops.push(startIdRetentionJob());
  stops.push(startAutoCancelJob());
  if (config().PAGE_CACHE) stops.push(await catalogVersion.start(await getDatabaseHandle()));
  return stops;
}
