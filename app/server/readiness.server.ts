/**
 * Readiness for /readyz (issue 12 item 7, decision 018) and the database's probes for /metrics.
 * Ready: this instance finished booting (which migrates the database before the server listens),
 * the database answers `select 1` within a second, and the LISTEN connection that keeps the page
 * cache fresh is up (on the embedded database there is none: the database answering is enough).
 * The server itself answers 503 as soon as it begins to shut down (server.ts).
 */
import { inArray, sql } from "drizzle-orm";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { emailOutbox } from "#app/db/schema.ts";
import { metrics } from "#app/utils/metrics.server.ts";
import { checkSchemaVersion, writesRefused } from "./schema-gate.server.ts";

const PING_TIMEOUT_MS = 1_000;

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

export type Readiness = {
  ready: boolean;
  database: boolean;
  listen: boolean;
  migrations: boolean;
  /** Set when a newer version migrated the database: why this instance takes no writes. */
  schemaNewer?: string;
};

export async function readiness(): Promise<Readiness> {
  const handle = database;
  if (!handle) return { ready: false, database: false, listen: false, migrations: false };
  const answers = await withTimeout(handle.ping(), PING_TIMEOUT_MS);
  const listen = handle.kind === "pglite" || handle.listening();
  // A failed read leaves the last answer: the ping already says when the database is away.
  const schemaCurrent = answers
    ? await checkSchemaVersion().catch(() => writesRefused() === undefined)
    : true;
  return {
    ready: answers && listen && schemaCurrent,
    database: answers,
    listen,
    migrations: true,
    schemaNewer: writesRefused(),
  };
}
