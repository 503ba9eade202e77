/**
 * Work that runs beside the web server (e-mail sending, ID photo retention, cache invalidation).
 * Each job starts here and returns a function that stops it; shutdown awaits them all.
 */
export type StopJob = () => Promise<void> | void;

export async function startBackgroundJobs(): Promise<StopJob[]> {
  const stops: StopJob[] = [];
  return stops;
}
