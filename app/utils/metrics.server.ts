/**
 * Prometheus metrics (record 018), served at /metrics by server.ts.
 *
 * Counted where things happen (orders, refusals, failed sends, requests); read on scrape where a
 * count would cost every request something (page-cache hits, pool, LISTEN, outbox). Queries made on
 * scrape have a short timeout and never fail the scrape: a gauge the database could not give is
 * left without a sample.
 */
import client from "prom-client";

export type DatabaseProbe = {
  pool(): { inUse: number; waiting: number };
  listening(): boolean;
  /** Pending mails (queued or being sent) and the age of the oldest in seconds. */
  outbox(): Promise<{ depth: number; oldestAgeSeconds: number }>;
};

type PageCacheProbe = () => { hits: number; misses: number } | null;

const SCRAPE_QUERY_TIMEOUT_MS = 1_000;

function createMetrics() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const probes: { database?: DatabaseProbe; pageCache?: PageCacheProbe } = {};

  const requestDuration = new client.Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer an HTTP request, by route pattern and status",
    labelNames: ["route", "status"] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  /** A counter read from a probe on scrape: no sample when the probe has nothing to say. */
  const probedCounter = (name: string, help: string, read: () => number | undefined) =>
    new client.Counter({
      name,
      help,
      registers: [registry],
      collect() {
        const value = read();
        this.reset();
        if (value !== undefined) this.inc(value);
      },
    });
  /** A gauge set from a probe on scrape. */
  const probedGauge = (name: string, help: string, read: () => number) =>
    new client.Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  probedCounter(
    "page_cache_hits_total",
    "Catalogue pages served from the page cache",
    () => probes.pageCache?.()?.hits,
  );
  probedCounter(
    "page_cache_misses_total",
    "Catalogue pages the page cache had to render",
    () => probes.pageCache?.()?.misses,
  );
  /** A counter the code increments where the thing happens. */
  const counter = <T extends string>(name: string, help: string, labelNames: readonly T[] = []) =>
    new client.Counter<T>({ name, help, labelNames, registers: [registry] });
  const ordersPlaced = counter(
    "orders_placed_total",
    "Orders placed at checkout (a replayed submit is not counted again)",
  );
  const ordersRefused = counter("orders_refused_total", "Checkout submits that placed no order, by reason", [
    "reason",
  ]);
  const emailSendFailures = counter(
    "email_send_failures_total",
    "E-mail sends the SMTP server (or the mail folder) refused or that timed out",
  );
  probedGauge(
    "db_pool_connections_in_use",
    "Database pool connections checked out (0 on the embedded database)",
    () => probes.database?.pool().inUse ?? 0,
  );
  probedGauge(
    "db_pool_requests_waiting",
    "Queries waiting for a pool connection (0 on the embedded database)",
    () => probes.database?.pool().waiting ?? 0,
  );
  probedGauge("db_listen_connected", "1 when the LISTEN connection for cache invalidation is up", () =>
    probes.database?.listening() ? 1 : 0,
  );
  /** A gauge the code sets (the outbox's, from one query on scrape). */
  const gauge = (name: string, help: string) => new client.Gauge({ name, help, registers: [registry] });
  const outboxDepth = gauge("email_outbox_pending", "E-mails queued or being sent");
  const outboxAge = gauge(
    "email_outbox_oldest_pending_age_seconds",
    "Age of the oldest e-mail not sent yet (0 when none)",
  );

  /** Both outbox gauges from one query, with a timeout; nothing when the database does not answer. */
  async function readOutbox() {
    outboxDepth.reset();
    outboxAge.reset();
    const database = probes.database;
    if (!database) return;
    let timer: NodeJS.Timeout | undefined;
    try {
      const outbox = await Promise.race([
        database.outbox(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error("timeout")), SCRAPE_QUERY_TIMEOUT_MS);
        }),
      ]);
      outboxDepth.set(outbox.depth);
      outboxAge.set(outbox.oldestAgeSeconds);
    } catch {
      // The database is away: the scrape still answers, without these two samples.
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    registry,
    requestDuration,
    ordersPlaced,
    ordersRefused,
    emailSendFailures,
    probes,
    async scrape() {
      await readOutbox();
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

// One per process even when this module is loaded twice (server.ts and the app's server bundle).
const METRICS_KEY = Symbol.for("capital-grown.metrics");

export function metrics(): Metrics {
  const holder = globalThis as { [METRICS_KEY]?: Metrics };
  holder[METRICS_KEY] ??= createMetrics();
  return holder[METRICS_KEY];
}
