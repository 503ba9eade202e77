/**
 * The catalogue version this instance knows (catalog_state.version, bumped by triggers in the same
 * transaction as every change a catalogue page shows; see drizzle/functions/bump_catalog_version.sql
 * and the triggers in drizzle/triggers/ that call it).
 *
 * Push: LISTEN catalog_changed (both drivers) re-reads the version at once. Safety net: the version is
 * also read every `intervalMs`, so a lost notification (or a dropped LISTEN connection) delays an
 * invalidation by at most one interval. `current()` returns undefined when the version has not been
 * confirmed for `maxAgeMs` (database stuck or unreachable): the page cache then neither serves nor
 * stores, so no shopper sees a page older than the last committed change by more than a second.
 *
 * While the database cannot be reached (the last read failed), `unreachableVersion()` names the last
 * version read, so the cached pages of that version are still served. When the LISTEN
 * connection comes back after a loss, notifications may have been missed: every cached page is
 * treated as stale and the version is read again.
 *
 * The notification payload is not trusted (several schemas on one server share the channel): it only
 * triggers a read of this database's own row.
 */
import { eq } from "drizzle-orm";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { catalogState } from "#app/db/schema.ts";
import { log } from "#app/utils/logger.server.ts";

export type CatalogVersionWatcher = {
  current(): number | undefined;
  /** The last version read, while reading it fails (database unreachable); otherwise undefined. */
  unreachableVersion(): number | undefined;
  /** Reads the version now (tests; after a write this instance made). */
  refresh(): Promise<number | undefined>;
  stop(): Promise<void>;
};

type Listener = (version: number) => void;

export async function watchCatalogVersion(
  handle: DatabaseHandle,
  options: { intervalMs?: number; maxAgeMs?: number; onChange?: Listener; onStale?: () => void } = {},
): Promise<CatalogVersionWatcher> {
  const intervalMs = options.intervalMs ?? 250;
  const maxAgeMs = options.maxAgeMs ?? 750;
  let version: number | undefined;
  let confirmedAt = 0;
  let running: Promise<number | undefined> | undefined;
  let again = false;
  let stopped = false;
  let failing = false;

  async function read(): Promise<number | undefined> {
    const startedAt = performance.now();
    const rows = await handle.db
      .select({ version: catalogState.version })
      .from(catalogState)
      .where(eq(catalogState.id, 1));
    const next = rows[0]?.version ?? 0;
    // Fresh as of the moment the query was sent.
    confirmedAt = startedAt;
    if (next !== version) {
      version = next;
      options.onChange?.(next);
    }
    return next;
  }

  function refresh(): Promise<number | undefined> {
    if (running) {
      // A change may have committed after the running read started: read once more after it.
      again = true;
      return running;
    }
    running = read()
      .then(
        (value) => {
          if (failing) log.info("Catalogue version readable again: page cache back to normal");
          failing = false;
          return value;
        },
        (error: unknown) => {
          if (!failing && !stopped) {
            log.warn("Could not read the catalogue version: the page cache serves only what it holds", {
              error: error instanceof Error ? error.message : String(error),
            });
          }
          failing = true;
          return undefined;
        },
      )
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          void refresh();
        }
      });
    return running;
  }

  await refresh();
  let unlisten: (() => Promise<void>) | undefined;
  try {
    unlisten = await handle.listen("catalog_changed", () => void refresh(), {
      onReconnect() {
        // Changes may have been announced while nobody listened: forget what is cached.
        version = undefined;
        failing = false;
        options.onStale?.();
        void refresh();
      },
    });
  } catch (error) {
    log.warn("LISTEN catalog_changed failed: the page cache relies on polling", {
      error: error instanceof Error ? error.message : String(error),
    });
  }
  const timer = setInterval(() => void refresh(), intervalMs);
  timer.unref();

  return {
    current() {
      if (version === undefined || performance.now() - confirmedAt > maxAgeMs) return undefined;
      return version;
    },
    unreachableVersion() {
      return failing ? version : undefined;
    },
    refresh,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await unlisten?.().catch(() => {});
      await running;
    },
  };
}

let active: CatalogVersionWatcher | undefined;
const listeners = new Set<Listener>();

/** Started by the background jobs when PAGE_CACHE is on; server.ts reads it through the entry. */
export const catalogVersion = {
  current: (): number | undefined => active?.current(),
  unreachableVersion: (): number | undefined => active?.unreachableVersion(),
  /** Called with each new version (the page cache drops older entries). */
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  async start(handle: DatabaseHandle) {
    await active?.stop();
    active = await watchCatalogVersion(handle, {
      onChange: (version) => {
        for (const listener of listeners) listener(version);
      },
      onStale: () => {
        for (const listener of listeners) listener(-1);
      },
    });
    const watcher = active;
    return async () => {
      if (active === watcher) active = undefined;
      await watcher.stop();
    };
  },
};
