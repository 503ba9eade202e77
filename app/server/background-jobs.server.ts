/**
 * Work that runs beside the web server (e-mail sending, ID photo retention, cache invalidation).
 * Each job starts here and returns a function that stops it; shutdown awaits them all.
 */
import { startEmailWorker } from "#app/features/email/email-outbox.server.ts";
import { startIdRetentionJob } from "#app/features/orders/id-retention.server.ts";

export type StopJob = () => Promise<void> | void;

export async function startBackgroundJobs(): Promise<StopJob[]> {
  const stops: StopJob[] = [];
  stops.push(startEmailWorker());
  stops.push(startIdRetentionJob());
  return stops;
}
