/**
 * Prometheus metrics (issue 12 item 7, decision 018), served at /metrics by server.ts.
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
  new client.Counter({
    name: "page_cache_hits_total",
    help: "Catalogue pages served from the page cache",
    registers: [registry],
    collect() {
      const stats = probes.pageCache?.();
      this.reset();
      if (stats) this.inc(stats.hits);
    },
  });
  new client.Counter({
    name: "page_cache_misses_total",
    help: "Catalogue pages the page cache had to render",
    registers: [registry],
    collect() {
      const stats = probes.pageCache?.();
      this.reset();
      if (stats) this.inc(stats.misses);
    },
  });
  const ordersPlaced = new client.Counter({
    name: "orders_placed_total",
    help: "Orders placed at checkout (a replayed submit is not counted again)",
    registers: [registry],
  });
  const ordersRefused = new client.Counter({
    name: "orders_refused_total",
    help: "Checkout submits that placed no order, by reason",
    labelNames: ["reason"] as const,
    registers: [registry],
  });
  const emailSendFailures = new client.Counter({
    name: "email_send_failures_total",
    help: "E-mail sends the SMTP server (or the mail folder) refused or that timed out",
    registers: [registry],
  });
  new client.Gauge({
    name: "db_pool_connections_in_use",
    help: "Database pool connections checked out (0 on the embedded database)",
    registers: [registry],
    collect() {
      this.set(probes.database?.pool().inUse ?? 0);
    },
  });
  new client.Gauge({
    name: "db_pool_requests_waiting",
    help: "Queries waiting for a pool connection (0 on the embedded database)",
    registers: [registry],
    collect() {
      this.set(probes.database?.pool().waiting ?? 0);
    },
  });
  new client.Gauge({
    name: "db_listen_connected",
    help: "1 when the LISTEN connection for cache invalidation is up",
    registers: [registry],
    collect() {
      this.set(probes.database?.listening() ? 1 : 0);
    },
  });
  const outboxDepth = new client.Gauge({
    name: "email_outbox_pending",
    help: "E-mails queued or being sent",
    registers: [registry],
  });
  const outboxAge = new client.Gauge({
    name: "email_outbox_oldest_pending_age_seconds",
    help: "Age of the oldest e-mail not sent yet (0 when none)",
    registers: [registry],
  });

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
