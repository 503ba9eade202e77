/**
 * Gives V8's heap back to the system once the server rests after a busy spell (record 040).
 *
 * Under load V8 grows its heap and, after a full collection, keeps the freed pages for reuse. It
 * returns them only once its own heuristic finds the process idle, which after a load can take
 * minutes. So when no request has started or been in flight for `idleMs` and the process's RSS
 * has grown by `growthBytes` since the last time (or it never ran), the server asks for the
 * collection V8 runs before it would give up for want of memory (`gc({ flavor: "last-resort" })`):
 * it compacts the heap and frees the pages it holds. It runs only while nothing is being served,
 * and once per quiet spell: after a release, a request must have been served before the next one,
 * so work without visitors (the nightly backup, the mail worker) never sets off a string of full
 * collections while its own memory grows.
 * server.ts uses it on PostgreSQL only: the same collection drops the compiled code of PGlite's
 * WebAssembly, which the embedded database then compiles again.
 */
import type { ServerResponse } from "node:http";
import v8 from "node:v8";
import vm from "node:vm";

type LastResortGc = (options: {
  type: "major";
  execution: "async";
  flavor: "last-resort";
}) => Promise<void> | undefined;

export type IdleMemoryOptions = {
  /** How long nothing must have been served before the heap is given back. */
  idleMs?: number;
  /** How much the process's RSS must have grown since the last time for it to be worth it. */
  growthBytes?: number;
  /** V8's collection; by default V8's own `gc` (see `v8Gc`). */
  gc?: LastResortGc;
  /** The process's RSS in bytes. */
  rssBytes?: () => number;
  now?: () => number;
};

export type IdleMemory = {
  /** Counts a request from its start until its response is done or its connection closes. */
  onRequest(res: ServerResponse): void;
  /** Checks once (the timer does this every `idleMs / 2`); resolves true when the heap was given back. */
  check(): Promise<boolean>;
  stop(): void;
};

/**
 * V8's `gc` function without `--expose-gc` on the command line (which, measured, changed the
 * embedded database's figures: record 040): the flag is set only while one new context is made,
 * which gets the function, and no other context has it. Undefined if V8 no longer allows it.
 */
export function v8Gc(): LastResortGc | undefined {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === "function") return exposed as LastResortGc;
  try {
    v8.setFlagsFromString("--expose-gc");
    const gc: unknown = vm.runInNewContext("typeof gc === 'function' ? gc : undefined");
    return typeof gc === "function" ? (gc as LastResortGc) : undefined;
  } catch {
    return undefined;
  } finally {
    v8.setFlagsFromString("--no-expose-gc");
  }
}

/** Undefined when V8 gives no `gc` function (nothing to call). */
export function releaseMemoryWhenIdle(options: IdleMemoryOptions = {}): IdleMemory | undefined {
  const gc = options.gc ?? v8Gc();
  if (typeof gc !== "function") return undefined;
  const idleMs = options.idleMs ?? 1_000;
  const growthBytes = options.growthBytes ?? 16 * 1024 * 1024;
  const rssBytes = options.rssBytes ?? process.memoryUsage.rss;
  const now = options.now ?? Date.now;
  let inFlight = 0;
  let lastActivity = now();
  // The first quiet spell after the start releases what the start itself left.
  let baseline = 0;
  let releasing = false;
  let servedSinceRelease = true;

  async function check() {
    if (releasing || !servedSinceRelease || inFlight > 0 || now() - lastActivity < idleMs) return false;
    if (rssBytes() - baseline < growthBytes) return false;
    releasing = true;
    servedSinceRelease = false;
    try {
      await gc?.({ type: "major", execution: "async", flavor: "last-resort" });
    } finally {
      releasing = false;
      baseline = rssBytes();
    }
    return true;
  }

  const timer = setInterval(() => void check(), Math.max(1, Math.floor(idleMs / 2)));
  timer.unref();
  return {
    onRequest(res) {
      inFlight++;
      servedSinceRelease = true;
      lastActivity = now();
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        inFlight--;
        lastActivity = now();
      };
      res.once("finish", finish);
      res.once("close", finish);
    },
    check,
    stop() {
      clearInterval(timer);
    },
  };
}
