import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * PGlite has no locking between processes: two of them on one folder corrupt it. Every process
 * that opens the embedded database (server, seed, backup, admin:create) takes this lock first.
 *
 * A holder killed with `kill -9` leaves its lock behind and may still be exiting when the next
 * start comes (a zombie its parent has not reaped yet, or a large process still being torn down).
 * Such a dying holder can never write again, so the lock waits up to `DYING_HOLDER_WAIT_MS` for it
 * to be gone and then takes the lock over (record 016). A live holder is refused at once.
 */
export class DataDirLockedError extends Error {}

type Holder = { pid: number; owner: string; startedAt: string; processStart?: string };

const LOCK_FILE = "capital-grown.lock";
export const DYING_HOLDER_WAIT_MS = 10_000;
const SIGKILL_BIT = 1n << 8n;

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces). */
function procStat(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** When the process started (clock ticks since boot): tells a reused pid from the holder. */
function processStartOf(pid: number): string | undefined {
  return procStat(pid)?.[19];
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

type HolderState = "gone" | "dying" | "live";

/** Gone (or a zombie, or another process under a reused pid), dying (SIGKILL pending), or live. */
function holderState(holder: Holder): HolderState {
  if (!isAlive(holder.pid)) return "gone";
  const stat = procStat(holder.pid);
  if (!stat) return "live"; // no /proc (not Linux): trust the pid
  const state = stat[0];
  if (state === "Z" || state === "X") return "gone"; // exited; only its parent has not reaped it
  if (holder.processStart && stat[19] !== holder.processStart) return "gone";
  try {
    const status = readFileSync(`/proc/${holder.pid}/status`, "utf8");
    for (const field of ["SigPnd", "ShdPnd"]) {
      const match = status.match(new RegExp(`^${field}:\\s*([0-9a-f]+)`, "m"));
      if (match?.[1] && (BigInt(`0x${match[1]}`) & SIGKILL_BIT) !== 0n) return "dying";
    }
  } catch {
    return "gone";
  }
  return "live";
}

function readHolder(lockPath: string): Holder | undefined {
  try {
    return JSON.parse(readFileSync(lockPath, "utf8")) as Holder;
  } catch {
    return undefined;
  }
}

function createExclusive(file: string, content: string) {
  const fd = openSync(file, "wx");
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
}

function sameHolder(a: Holder | undefined, b: Holder | undefined) {
  return a?.pid === b?.pid && a?.startedAt === b?.startedAt;
}

export async function acquireDataDirLock(
  dataDir: string,
  owner: string,
  options: { dyingHolderWaitMs?: number } = {},
): Promise<() => void> {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, LOCK_FILE);
  const takeoverPath = `${lockPath}.takeover`;
  const content = JSON.stringify({
    pid: process.pid,
    owner,
    startedAt: new Date().toISOString(),
    processStart: processStartOf(process.pid),
  } satisfies Holder);
  const waitUntil = Date.now() + (options.dyingHolderWaitMs ?? DYING_HOLDER_WAIT_MS);

  for (let attempt = 0; ; attempt++) {
    try {
      createExclusive(lockPath, content);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (readHolder(lockPath)?.pid === process.pid) rmSync(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = readHolder(lockPath);
    const state = holder ? holderState(holder) : "gone";
    if (holder && state === "live") {
      throw new DataDirLockedError(
        `The data folder ${dataDir} is in use by ${holder.owner} (pid ${holder.pid}); stop it first or use another DATA_DIR.`,
      );
    }
    if (holder && state === "dying") {
      if (Date.now() >= waitUntil) {
        throw new DataDirLockedError(
          `The data folder ${dataDir} is still held by ${holder.owner} (pid ${holder.pid}), which was killed but has not exited; try again when it is gone.`,
        );
      }
      await sleep(50);
      continue;
    }
    if (attempt > 20) break;
    // The holder is gone without cleaning up (kill -9, crash). Only one process may clear it.
    try {
      createExclusive(takeoverPath, content);
    } catch {
      // Another starter is taking over (or died while doing so: its file goes stale too).
      const other = readHolder(takeoverPath);
      if (!other || holderState(other) === "gone") rmSync(takeoverPath, { force: true });
      await sleep(50);
      continue;
    }
    try {
      const stale = readHolder(lockPath);
      if (!stale || (sameHolder(stale, holder) && holderState(stale) === "gone")) {
        rmSync(lockPath, { force: true });
      }
    } finally {
      rmSync(takeoverPath, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not take the lock on the data folder ${dataDir}.`);
}
