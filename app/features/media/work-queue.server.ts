/**
 * At most `concurrency` jobs at once; the rest wait their turn in order. A job that has waited
 * `maxWaitMs`, or finds `maxWaiting` jobs already waiting, is refused with QueueBusy instead, so a
 * burst costs the waiting requests a short delay or a 503, never the whole process its memory.
 */
export class QueueBusy extends Error {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super("Too much work queued");
    this.name = "QueueBusy";
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export type WorkQueue = {
  run<T>(job: () => Promise<T>): Promise<T>;
  readonly stats: { running: number; waiting: number };
};

export function createWorkQueue(options: {
  concurrency: number;
  maxWaitMs: number;
  maxWaiting: number;
}): WorkQueue {
  let running = 0;
  const waiting: Array<() => void> = [];
  const retryAfterSeconds = Math.max(1, Math.ceil(options.maxWaitMs / 1000));

  function release() {
    const next = waiting.shift();
    // The slot goes straight to the next job: `running` stays the same.
    if (next) next();
    else running--;
  }

  function waitForSlot() {
    if (waiting.length >= options.maxWaiting) return Promise.reject(new QueueBusy(retryAfterSeconds));
    return new Promise<void>((resolve, reject) => {
      const start = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const index = waiting.indexOf(start);
        if (index >= 0) waiting.splice(index, 1);
        reject(new QueueBusy(retryAfterSeconds));
      }, options.maxWaitMs);
      waiting.push(start);
    });
  }

  return {
    async run(job) {
      if (running < options.concurrency) running++;
      else await waitForSlot();
      try {
        return await job();
      } finally {
        release();
      }
    },
    get stats() {
      return { running, waiting: waiting.length };
    },
  };
}
