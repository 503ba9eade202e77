import { errorMessage, log } from "./logger.server.ts";

/**
 * Runs `work` now and then every `intervalMs`, one run at a time (a tick that comes while the last
 * run is still busy is skipped); a run that throws is logged as `failure` and the job goes on. The
 * timer keeps no process alive. Returns the stop: no more runs, and it settles once the current
 * run has finished.
 */
export function startPeriodicJob(
  work: () => Promise<void>,
  options: { intervalMs: number; failure: string },
) {
  let current: Promise<void> | null = null;
  const tick = () => {
    if (current) return;
    current = work()
      .catch((error) => log.error(options.failure, { error: errorMessage(error) }))
      .finally(() => {
        current = null;
      });
  };
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  tick();
  return async () => {
    clearInterval(timer);
    await current;
  };
}

/**
 * A daily digest's job: every minute (`intervalMs`) it asks `send` to queue today's digest if it is
 * due, and `sent` logs one that went. Every instance may run it: the digest's claim lets one of them
 * send. Nothing runs when its time setting is "off".
 */
export function startDigestJob<Outcome extends { sent: boolean }>(digest: {
  time: string;
  send: () => Promise<Outcome>;
  sent: (outcome: Extract<Outcome, { sent: true }>) => void;
  failure: string;
  intervalMs?: number;
}) {
  if (digest.time === "off") return () => {};
  return startPeriodicJob(
    async () => {
      const outcome = await digest.send();
      if (outcome.sent) digest.sent(outcome as Extract<Outcome, { sent: true }>);
    },
    { intervalMs: digest.intervalMs ?? 60_000, failure: digest.failure },
  );
}

/**
 * A retention job (ID photos, audit events): `purge` deletes what is past its retention and says
 * how many went; a run that deleted any logs "Deleted N `what` past their retention". At start and
 * then every `intervalMs` (default hourly).
 */
export function startRetentionJob(
  purge: () => Promise<number>,
  options: { what: string; failure: string; intervalMs?: number },
) {
  return startPeriodicJob(
    async () => {
      const deleted = await purge();
      if (deleted > 0) log.info(`Deleted ${deleted} ${options.what} past their retention`);
    },
    { intervalMs: options.intervalMs ?? 60 * 60 * 1000, failure: options.failure },
  );
}
