import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { config } from "../utils/env.server.ts";
import { errorMessage, log } from "../utils/logger.server.ts";
import { makeDataDirPrivate } from "../utils/private-data-dir.server.ts";
import { acquireDataDirLock } from "./data-dir-lock.server.ts";
import { PGLITE_BYTEA_CODEC } from "./pglite-bytea.server.ts";
import { PGLITE_SETTINGS, shippedClusterMismatch, unpackEmptyCluster } from "./pglite-cluster.server.ts";
import { pgliteWasmModule } from "./pglite-wasm.server.ts";
import * as schema from "./schema.ts";
import { applicationNameFor, buildSchemaVersion, guardWritePathMigrations } from "./schema-version.server.ts";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
/** Either the database or an open transaction: data functions accept both. */
export type Executor = Database | Transaction;

export type DatabaseHandle = {
  db: Database;
  kind: "pglite" | "postgres";
  /** PostgreSQL only: the node-postgres pool itself, for libraries that need it (the rate limiter's store). */
  pgPool?: pg.Pool;
  /** For logs: never contains a password. */
  description: string;
  /** Where Drizzle records the applied migrations: the database's schema version (record 038). */
  migrationsSchema: string;
  ping(): Promise<boolean>;
  /**
   * Calls `onNotify` for each NOTIFY on `channel`; resolves to a function that stops listening. On
   * PostgreSQL the listening connection comes back by itself when it is lost, and `onReconnect` is
   * called then: notifications sent while it was away are lost.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    options?: { onReconnect?: () => void },
  ): Promise<() => Promise<void>>;
  /** False while the listening connection is lost (always true on the embedded database). */
  listening(): boolean;
  /**
   * Runs `run` while no other instance on this database runs one of the same `name` (on PostgreSQL
   * a session advisory lock on a connection of its own; the embedded database has one process).
   */
  exclusively<T>(name: string, run: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

export type OpenOptions =
  | {
      kind: "postgres";
      url: string;
      schema?: string;
      poolSize?: number;
      /**
       * Shown in pg_stat_activity: operators (and the outage test) find the app's connections. By
       * default `capital-grown/<schema version>/<newest migration>`, which the migrator reads to
       * find instances of older builds (docs/decisions/038-rolling-upgrades.md).
       */
      applicationName?: string;
      /** Run a migration that changes a write path even while older builds are connected. */
      migrateWithOlderInstances?: boolean;
    }
  | {
      kind: "pglite";
      /** Folder for the data files; omit for an in-memory database (tests). */
      dataDir?: string;
      /** A migrated template (from `dumpDataDir`) to start from: fast test databases. */
      loadDataDir?: Blob;
      /** Who holds the data folder lock (shown to a second process). */
      lockOwner?: string;
    };

export function migrationsFolder() {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, "../../drizzle"), path.resolve(process.cwd(), "drizzle")];
  const found = candidates.find((candidate) => existsSync(path.join(candidate, "meta/_journal.json")));
  if (!found) throw new Error(`No migrations folder found (looked in ${candidates.join(", ")})`);
  return found;
}

function redact(url: string) {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.kind === "postgres") return openPostgres(options);
  return openPglite(options);
}

/** Delay before the `attempt`-th reconnection of the listening client: 100 ms doubling to 5 s. */
export function listenBackoffMs(attempt: number) {
  return Math.min(100 * 2 ** attempt, 5_000);
}

function isBroken(client: pg.PoolClient) {
  const internals = client as unknown as { _queryable?: boolean; _ending?: boolean };
  return internals._queryable === false || internals._ending === true;
}

async function openPostgres(options: Extract<OpenOptions, { kind: "postgres" }>) {
  const connection = {
    connectionString: options.url,
    options: options.schema ? `-c search_path=${options.schema}` : undefined,
    application_name: options.applicationName ?? applicationNameFor(buildSchemaVersion(migrationsFolder())),
    // A server that vanished without closing the socket (a failover, a cut network) is noticed.
    keepAlive: true,
    // Connecting to a server that does not answer fails (and the page says 503) instead of hanging.
    connectionTimeoutMillis: 10_000,
  };
  const pool = new pg.Pool({ ...connection, max: options.poolSize ?? 10 });
  const migrationsSchema = options.schema ?? "drizzle";
  // A connection the server drops (a restart, a failover, pg_terminate_backend) emits 'error' on
  // its client. pg-pool listens only while a client is idle: a checked-out client without a listener
  // would crash the process. The query it was running fails on its own; the pool then drops it.
  pool.on("error", (error) => log.warn(`Database connection lost (idle): ${error.message}`));
  pool.on("connect", (client) => {
    client.on("error", (error) => log.warn(`Database connection lost: ${error.message}`));
  });
  const db = drizzlePg(pool, { schema }) as unknown as Database;
  // drizzle-orm 0.45's pool transaction leaks its client when BEGIN fails (it releases only after a
  // BEGIN that worked) and returns a client broken by a failed COMMIT to the pool. This one checks a
  // client out itself, runs drizzle's transaction on it, and always gives it back (destroyed when
  // broken). Drizzle instances are kept per connection: building one per transaction costs time.
  const perClient = new WeakMap<pg.PoolClient, Database>();
  db.transaction = async (run, transactionConfig) => {
    const client = await pool.connect();
    let failure: Error | undefined;
    try {
      let onClient = perClient.get(client);
      if (!onClient) {
        onClient = drizzlePg(client, { schema }) as unknown as Database;
        perClient.set(client, onClient);
      }
      return await onClient.transaction(run, transactionConfig);
    } catch (error) {
      if (isBroken(client)) failure = error instanceof Error ? error : new Error(errorMessage(error));
      throw error;
    } finally {
      client.release(failure);
    }
  };
  // A session lock on a connection of its own (outside the pool, which may hold one): the work
  // runs on the pool meanwhile. Ended with that connection if the process dies.
  const exclusively = async <T>(name: string, run: () => Promise<T>) => {
    const lockClient = new pg.Client(connection);
    lockClient.on("error", (error) => log.warn(`Database connection lost (${name}): ${error.message}`));
    await lockClient.connect();
    const lockKey = `capital-grown:${name}:${options.schema ?? "public"}`;
    try {
      await lockClient.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [lockKey]);
      return await run();
    } finally {
      await lockClient.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [lockKey]).catch(() => {});
      await lockClient.end().catch(() => {});
    }
  };
  try {
    // Instances starting together on one database take turns: drizzle's migrator takes no lock, and
    // two first starts would both create the same tables.
    await exclusively("migrations", async () => {
      if (options.schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS "${options.schema}"`);
      const { forced } = await guardWritePathMigrations(drizzlePg(pool) as unknown as Database, {
        migrationsFolder: migrationsFolder(),
        migrationsSchema,
        force: options.migrateWithOlderInstances ?? false,
      });
      for (const older of forced) {
        log.warn(
          `Migrating while ${older.connections} connection(s) of an older build are open (${older.applicationName}): MIGRATE_WITH_OLDER_INSTANCES is set`,
        );
      }
      await migratePg(drizzlePg(pool), { migrationsFolder: migrationsFolder(), migrationsSchema });
    });
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  const listeners = new Set<{ connected: boolean }>();
  return {
    db,
    kind: "postgres",
    pgPool: pool,
    description: `PostgreSQL ${redact(options.url)}${options.schema ? ` (schema ${options.schema})` : ""}`,
    migrationsSchema,
    ping: () => answers(() => pool.query("SELECT 1")),
    exclusively,
    listening() {
      return [...listeners].every((listener) => listener.connected);
    },
    async listen(channel, onNotify, listenOptions = {}) {
      // A connection of its own (not from the pool): it stays open as long as the app listens.
      const state = { connected: false, stopped: false, attempt: 0 };
      listeners.add(state);
      let client: pg.Client | undefined;
      let retry: NodeJS.Timeout | undefined;
      const reconnectLater = () => {
        if (state.stopped || retry) return;
        state.connected = false;
        const delay = listenBackoffMs(state.attempt++);
        retry = setTimeout(() => {
          retry = undefined;
          void connect(true);
        }, delay);
        retry.unref();
      };
      const connect = async (reconnecting: boolean) => {
        const next = new pg.Client(connection);
        client = next;
        next.on("error", (error) => {
          if (state.connected)
            log.warn(`LISTEN ${channel}: connection lost (${error.message}); reconnecting`);
          next.end().catch(() => {});
          if (client === next) reconnectLater();
        });
        next.on("end", () => {
          if (client === next) reconnectLater();
        });
        next.on("notification", (message) => {
          if (message.channel === channel) onNotify(message.payload ?? "");
        });
        try {
          await next.connect();
          await next.query(`LISTEN "${channel}"`);
        } catch (error) {
          next.end().catch(() => {});
          if (state.stopped) return;
          if (!reconnecting) {
            log.warn(`LISTEN ${channel} failed (${errorMessage(error)}); retrying in the background`);
          }
          reconnectLater();
          return;
        }
        if (state.stopped) {
          await next.end().catch(() => {});
          return;
        }
        state.connected = true;
        state.attempt = 0;
        if (reconnecting) {
          log.info(`LISTEN ${channel}: connected again`);
          listenOptions.onReconnect?.();
        }
      };
      await connect(false);
      return async () => {
        state.stopped = true;
        listeners.delete(state);
        clearTimeout(retry);
        const last = client;
        client = undefined;
        await last?.query(`UNLISTEN "${channel}"`).catch(() => {});
        await last?.end().catch(() => {});
      };
    },
    async close() {
      await pool.end();
    },
  } satisfies DatabaseHandle;
}

async function openPglite(options: Extract<OpenOptions, { kind: "pglite" }>) {
  let releaseLock = () => {};
  let dataDir: string | undefined;
  if (options.dataDir) {
    releaseLock = await acquireDataDirLock(options.dataDir, options.lockOwner ?? "another process");
    dataDir = path.join(options.dataDir, "pglite");
  }
  let client: PGlite;
  try {
    if (dataDir && !options.loadDataDir) {
      // A new data folder starts from the shipped empty cluster instead of PGlite's initdb (record 040).
      if (!(await unpackEmptyCluster(dataDir)) && !existsSync(path.join(dataDir, "PG_VERSION"))) {
        log.warn(
          `A new embedded database runs PGlite's initdb (${shippedClusterMismatch() ?? "folder not empty"})`,
        );
      }
    }
    if (dataDir) mkdirSync(dataDir, { recursive: true });
    client = await PGlite.create({
      dataDir,
      loadDataDir: options.loadDataDir,
      pgliteWasmModule: pgliteWasmModule(),
      ...PGLITE_BYTEA_CODEC,
      initDbStartParams: PGLITE_SETTINGS.flatMap((setting) => ["--set", setting]),
      startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ["-c", setting])],
    });
    await migratePglite(drizzlePglite(client), { migrationsFolder: migrationsFolder() });
    // A new database's files are unpacked with mode 0666 whatever the umask: take that back.
    if (options.dataDir) makeDataDirPrivate(options.dataDir);
  } catch (error) {
    releaseLock();
    throw error;
  }
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    kind: "pglite",
    description: dataDir ? `embedded PostgreSQL (PGlite) in ${dataDir}` : "embedded PostgreSQL (in memory)",
    migrationsSchema: "drizzle",
    ping: () => answers(() => client.query("SELECT 1")),
    async listen(channel, onNotify) {
      const unlisten = await client.listen(channel, onNotify);
      return async () => unlisten();
    },
    listening() {
      return !client.closed;
    },
    exclusively: (_name, run) => run(),
    async close() {
      try {
        if (!client.closed) await client.close();
      } finally {
        releaseLock();
      }
    },
  } satisfies DatabaseHandle;
}

/** Opens the database named by the configuration (DATABASE_URL, or PGlite in DATA_DIR). */
export function openConfiguredDatabase(lockOwner: string) {
  const { DATABASE_URL, dataDir, MIGRATE_WITH_OLDER_INSTANCES } = config();
  return DATABASE_URL
    ? openDatabase({
        kind: "postgres",
        url: DATABASE_URL,
        migrateWithOlderInstances: MIGRATE_WITH_OLDER_INSTANCES,
      })
    : openDatabase({ kind: "pglite", dataDir, lockOwner });
}

let current: Promise<DatabaseHandle> | undefined;

/** The process-wide database, opened (and migrated) on first use. */
export function getDatabaseHandle(): Promise<DatabaseHandle> {
  current ??= openConfiguredDatabase(`the Capital Grown server`).catch((error) => {
    current = undefined;
    throw error;
  });
  return current;
}

export async function db(): Promise<Database> {
  return (await getDatabaseHandle()).db;
}

/** Installs an already opened database as the process-wide one (tests, scripts). */
export function setDatabaseHandle(handle: DatabaseHandle) {
  current = Promise.resolve(handle);
}

export async function closeDatabase() {
  const handle = current;
  current = undefined;
  if (handle) await (await handle).close();
}

/** True when `query` answers, false when it throws (the database's ping). */
async function answers(query: () => Promise<unknown>) {
  try {
    await query();
    return true;
  } catch {
    return false;
  }
}
