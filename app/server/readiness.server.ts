/**
 * Readiness for /readyz (record 018) and the database's probes for /metrics.
 * Ready: this instance finished booting (which migrates the database before the server listens),
 * the database answers `select 1` within a second and takes a write, DATA_DIR has room
 * (`READY_MIN_FREE_MB`), and the LISTEN connection that keeps the page cache fresh is up (on the
 * embedded database there is none: the database answering is enough). An instance that answers
 * reads but cannot place an order (a full disk, a database turned read-only by a failover or for
 * maintenance) is not ready: the load balancer sends its shoppers elsewhere. Nothing is latched:
 * every poll looks again, so the instance is ready again as soon as space is freed.
 * The server itself answers 503 as soon as it begins to shut down (server.ts).
 */
import { statfs } from "node:fs/promises";
import { inArray, sql } from "drizzle-orm";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { emailOutbox, storeSettings } from "#app/db/schema.ts";
import { config } from "#app/utils/env.server.ts";
import { metrics } from "#app/utils/metrics.server.ts";
import { checkSchemaVersion, writesRefused } from "./schema-gate.server.ts";

const PING_TIMEOUT_MS = 1_000;
/** A load balancer may poll every second from several places: one write check serves them all. */
const WRITE_CHECK_FOR_MS = 2_000;
const WRITE_CHECK_KEY = "readiness-write-check";

let database: DatabaseHandle | undefined;

/** Called by boot once the database is open and migrated. */
export function registerDatabase(handle: DatabaseHandle | undefined) {
  database = handle;
  metrics().probes.database = handle ? databaseProbe(handle) : undefined;
}

function databaseProbe(handle: DatabaseHandle) {
  return {
    pool() {
      const pool = handle.pgPool;
      return pool
        ? { inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }
        : { inUse: 0, waiting: 0 };
    },
    listening: () => handle.kind === "pglite" || handle.listening(),
    async outbox() {
      const [row] = await handle.db
        .select({
          depth: sql<number>`count(*)::int`,
          oldestAgeSeconds: sql<number>`coalesce(extract(epoch from now() - min(${emailOutbox.createdAt})), 0)::float8`,
        })
        .from(emailOutbox)
        .where(inArray(emailOutbox.status, ["queued", "sending"]));
      return { depth: Number(row?.depth ?? 0), oldestAgeSeconds: Number(row?.oldestAgeSeconds ?? 0) };
    },
  };
}

function withTimeout(promise: Promise<boolean>, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.catch(() => false),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Rolled back on purpose: the write check leaves nothing behind. */
class WriteChecked extends Error {}

/**
 * A one-row insert into a logged table in a transaction that is then rolled back: it needs a
 * transaction id and a writable database (a standby, `default_transaction_read_only` or a
 * database refusing writes fail it), costs no disk space and wakes no trigger.
 */
async function takesWrites(handle: DatabaseHandle) {
  try {
    await handle.db.transaction(async (tx) => {
      await tx.insert(storeSettings).values({ key: WRITE_CHECK_KEY, value: {} }).onConflictDoNothing();
      throw new WriteChecked();
    });
  } catch (error) {
    if (error instanceof WriteChecked) return true;
    throw error;
  }
  return true;
}

let writeCheck: { at: number; result: Promise<boolean>; running: boolean } | undefined;

/**
 * The last check's answer while it is fresh. A check still waiting for a connection after its
 * timeout (a database that does not answer) is not joined by another one: it says not writable.
 */
function writable(handle: DatabaseHandle) {
  const now = Date.now();
  if (writeCheck && (now - writeCheck.at < WRITE_CHECK_FOR_MS || writeCheck.running)) {
    return writeCheck.result;
  }
  const check = { at: now, result: Promise.resolve(false), running: true };
  const attempt = takesWrites(handle).finally(() => {
    check.running = false;
  });
  check.result = withTimeout(attempt, PING_TIMEOUT_MS);
  writeCheck = check;
  return check.result;
}

/** Megabytes free for the shop (not root's reserve) on DATA_DIR's file system; null: unknown. */
async function freeMegabytes(dataDir: string) {
  try {
    const stats = await statfs(dataDir);
    return Math.floor((stats.bavail * stats.bsize) / (1024 * 1024));
  } catch {
    return null;
  }
}

export type Readiness = {
  ready: boolean;
  database: boolean;
  listen: boolean;
  migrations: boolean;
  writes: boolean;
  disk: boolean;
  diskFreeMb: number | null;
  /** Set when a newer version migrated the database: why this instance takes no writes. */
  schemaNewer?: string;
};

export async function readiness(): Promise<Readiness> {
  const handle = database;
  const { dataDir, READY_MIN_FREE_MB } = config();
  const diskFreeMb = await freeMegabytes(dataDir);
  const disk = READY_MIN_FREE_MB === 0 || (diskFreeMb !== null && diskFreeMb >= READY_MIN_FREE_MB);
  if (!handle) {
    return {
      ready: false,
      database: false,
      listen: false,
      migrations: false,
      writes: false,
      disk,
      diskFreeMb,
    };
  }
  const [answers, writes] = await Promise.all([
    withTimeout(handle.ping(), PING_TIMEOUT_MS),
    writable(handle),
  ]);
  const listen = handle.kind === "pglite" || handle.listening();
  // A failed read leaves the last answer: the ping already says when the database is away.
  const schemaCurrent = answers
    ? await checkSchemaVersion().catch(() => writesRefused() === undefined)
    : true;
  return {
    ready: answers && writes && disk && listen && schemaCurrent,
    database: answers,
    listen,
    migrations: true,
    writes,
    disk,
    diskFreeMb,
    schemaNewer: writesRefused(),
  };
}
