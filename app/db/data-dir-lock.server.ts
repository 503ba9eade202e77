import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";

/**
 * PGlite has no locking between processes: two of them on one folder corrupt it. Every process
 * that opens the embedded database (server, seed, backup, admin:create) takes this lock first.
 */
export class DataDirLockedError extends Error {}

type Holder = { pid: number; owner: string; startedAt: string };

const LOCK_FILE = "capital-grown.lock";

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
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

export function acquireDataDirLock(dataDir: string, owner: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, LOCK_FILE);
  const takeoverPath = `${lockPath}.takeover`;
  const content = JSON.stringify({ pid: process.pid, owner, startedAt: new Date().toISOString() });

  for (let attempt = 0; attempt < 3; attempt++) {
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
    if (holder && isAlive(holder.pid)) {
      throw new DataDirLockedError(
        `The data folder ${dataDir} is in use by ${holder.owner} (pid ${holder.pid}); stop it first or use another DATA_DIR.`,
      );
    }
    // The holder died without cleaning up (kill -9, crash). Only one process may clear it.
    try {
      createExclusive(takeoverPath, content);
    } catch {
      continue;
    }
    try {
      const stale = readHolder(lockPath);
      if (!stale || (stale.pid === holder?.pid && !isAlive(stale.pid))) rmSync(lockPath, { force: true });
    } finally {
      rmSync(takeoverPath, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not take the lock on the data folder ${dataDir}.`);
}
