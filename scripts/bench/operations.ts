/**
 * `npm run bench -- --only=ops` (record 018):
 * - the cost of the JSON request log: /shop (cache hits) req/s and orders/s, LOG_LEVEL=info against
 *   LOG_LEVEL=silent in the same server, its level switched through the bench build's
 *   `/__bench/log-level` under one continuous load (every 50–150 ms for /shop, every 0.5–1.5 s for
 *   orders), neighbouring phases compared by server CPU per request;
 * - time from the database coming back to /readyz 200 (PostgreSQL behind a cuttable proxy).
 */
import { openDatabase } from "../../app/db/client.server.ts";
import { cuttableProxy } from "../../tests/support/cuttable-proxy.ts";
import { type OrderableSize, orderableSizes, postOrder } from "../../tests/support/shop-orders.ts";
import {
  type BenchServer,
  createDataSet,
  type DataSet,
  type LoadResult,
  load,
  median,
  say,
  sleep,
  startServer,
} from "./lib.ts";

type Row = { figure: string; target: string; value: string; pass: boolean | null; context: string };

const SHOPPERS = 4;

/** Orders placed by SHOPPERS shoppers posting one after the other for `seconds`. */
async function orderLoad(
  server: { url: string },
  sizes: OrderableSize[],
  seconds: number,
  first: number,
): Promise<LoadResult> {
  const { url } = server;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let placed = 0;
  let errors = 0;
  let shopper = first;
  await Promise.all(
    Array.from({ length: SHOPPERS }, async (_, lane) => {
      while (performance.now() < deadline) {
        const size = sizes[(shopper + lane) % sizes.length] as OrderableSize;
        const result = await postOrder(url, size, shopper++);
        if ("token" in result) placed++;
        else errors++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return {
    requests: placed,
    seconds: elapsed,
    rps: placed / elapsed,
    errors,
    latencyMeanMs: Number.NaN,
  };
}

async function pgliteSizes(data: DataSet) {
  const handle = await openDatabase({
    kind: "pglite",
    dataDir: data.env.DATA_DIR as string,
    lockOwner: "the bench",
  });
  try {
    return await orderableSizes(handle.db, 8);
  } finally {
    await handle.close();
  }
}

type Level = "info" | "silent";

/**
 * Server processes measured in turn: the log's cost is a few per cent, and processes running the same
 * code differ by about as much (0.87–0.93 for four processes on 2026-11-25), so one process's draw
 * would decide a figure.
 */
const LOG_PROCESSES = 3;
/** Seconds of switched load per process and workload. */
const SWITCHED_SECONDS = 15;

/**
 * How a workload's load is cut into phases. A /shop cache hit costs tens of µs, an order milliseconds:
 * a phase holds about a thousand of either. Phase lengths vary at random around `phaseMs` (from half
 * to one and a half), so that a job running every 250 ms (the page cache's version check) falls into
 * both levels' phases alike.
 */
type Workload = {
  label: string;
  phaseMs: number;
  warmUpMs: number;
  load: (seconds: number) => Promise<LoadResult>;
};

/** What `/__bench/log-level` answers: the level set, and the process's CPU time and requests until then. */
type LevelSwitch = { level: Level; cpuMicroseconds: number; served: number };

/** Sets the running bench server's log level (`/__bench/log-level`, a bench build only). */
async function switchLog(server: BenchServer, level: Level): Promise<LevelSwitch> {
  const response = await fetch(`${server.url}/__bench/log-level?to=${level}`);
  if (!response.ok) throw new Error(`Could not set the log level: ${response.status}`);
  return (await response.json()) as LevelSwitch;
}

type Phases = {
  /** silent ÷ info CPU per request of every two neighbouring phases (either order). */
  ratios: number[];
  perProcess: number[];
  totals: Record<Level, { cpuMicroseconds: number; served: number }>;
  rates: number[];
};

const noPhases = (): Phases => ({
  ratios: [],
  perProcess: [],
  totals: { info: { cpuMicroseconds: 0, served: 0 }, silent: { cpuMicroseconds: 0, served: 0 } },
  rates: [],
});

/**
 * One continuous load of SWITCHED_SECONDS on one server, its level switched at the end of every phase
 * (record 024). This machine's speed drifts by more than the log's cost within seconds (the same
 * server against itself in 2 s runs one after the other: rounds 0.89–1.22), so runs one after the
 * other compared the log with a different machine; neighbouring phases see the same one. Each switch
 * answers the server's CPU time and request count after writing the waiting request lines, so a
 * phase's CPU per request is its own, lines included. Neighbouring phases are compared in both
 * orders, which cancels a steady drift, and the median of all those pairs is the figure: the
 * machine's speed changes in steps (a phase at 70 µs, the next at 100), which a mean would carry.
 */
async function switchedLoad(server: BenchServer, workload: Workload, into: Phases) {
  const loading = workload.load(SWITCHED_SECONDS + workload.warmUpMs / 1000 + 1);
  // The first seconds of load on a new process cost up to three times what they cost later (JIT).
  await sleep(workload.warmUpMs);
  let level: Level = "info";
  let previous = await switchLog(server, level);
  let previousCost: number | undefined;
  const ratios: number[] = [];
  const deadline = performance.now() + SWITCHED_SECONDS * 1000;
  while (performance.now() < deadline) {
    await sleep(workload.phaseMs * (0.5 + Math.random()));
    const next: Level = level === "info" ? "silent" : "info";
    const current = await switchLog(server, next);
    const cpuMicroseconds = current.cpuMicroseconds - previous.cpuMicroseconds;
    const served = current.served - previous.served;
    into.totals[level].cpuMicroseconds += cpuMicroseconds;
    into.totals[level].served += served;
    const cost = cpuMicroseconds / Math.max(served, 1);
    // Requests per CPU-second with the log ÷ without: the silent CPU per request over the logged one.
    if (previousCost !== undefined)
      ratios.push(level === "silent" ? cost / previousCost : previousCost / cost);
    previousCost = cost;
    previous = current;
    level = next;
  }
  const result = await loading;
  if (result.errors > 0) say(`${workload.label} with the log switched: ${result.errors} refused`);
  await switchLog(server, "info");
  into.rates.push(result.rps);
  into.ratios.push(...ratios);
  into.perProcess.push(median(ratios));
}

function logRow(figure: string, phases: Phases, unit: { name: string; scale: number; digits: number }): Row {
  const ratio = median(phases.ratios);
  const cost = (level: Level) =>
    ((phases.totals[level].cpuMicroseconds / phases.totals[level].served) * unit.scale).toFixed(unit.digits);
  const pooled =
    phases.totals.silent.cpuMicroseconds /
    phases.totals.silent.served /
    (phases.totals.info.cpuMicroseconds / phases.totals.info.served);
  return {
    figure,
    target: "≥ 0.95",
    value: ratio.toFixed(3),
    pass: ratio >= 0.95,
    context: `${cost("info")} vs ${cost("silent")} ${unit.name} CPU per request over all phases (${pooled.toFixed(3)}); median of ${phases.ratios.length} pairs of neighbouring phases in ${LOG_PROCESSES} servers (per server ${phases.perProcess.map((value) => value.toFixed(3)).join(", ")}); ${median(phases.rates).toFixed(0)}/s`,
  };
}

export async function benchOperations(options: {
  /** Outage rounds for the readiness figure. */
  rounds: number;
  connections: number;
  postgresUrl: string | undefined;
}): Promise<Row[]> {
  const rows: Row[] = [];
  say(
    `Seeding 60 products (${LOG_PROCESSES} servers in turn, the request log switched on and off under load)`,
  );
  const shopData = await createDataSet({ count: 60 });
  const sizes = await pgliteSizes(shopData);
  const shop = noPhases();
  const orders = noPhases();
  let shopper = 1;
  try {
    for (let instance = 0; instance < LOG_PROCESSES; instance++) {
      // Every bench shopper posts from 127.0.0.1 with recycled phone numbers: no open-orders limit.
      const server = await startServer(shopData, {
        MAX_OPEN_ORDERS: "100000000",
        LOG_LEVEL: "info",
        LOG_FORMAT: "json",
      });
      try {
        // /shop from the page cache: the hot path, where a log line per request weighs the most. The
        // server's own CPU per request is compared: the req/s it reaches with a core to itself.
        await switchedLoad(
          server,
          {
            label: "/shop",
            phaseMs: 100,
            warmUpMs: 3_000,
            load: (seconds) => load(`${server.url}/shop`, { seconds, connections: options.connections }),
          },
          shop,
        );
        await switchedLoad(
          server,
          {
            label: "orders",
            phaseMs: 1_000,
            warmUpMs: 2_000,
            load: async (seconds) => {
              const result = await orderLoad(server, sizes, seconds, shopper);
              shopper += 100_000;
              return result;
            },
          },
          orders,
        );
      } finally {
        await server.stop();
      }
    }
  } finally {
    await shopData.dispose();
  }
  rows.push(
    logRow(
      "/shop (cache hits) requests per server CPU-second with the JSON request log ÷ with LOG_LEVEL=silent",
      shop,
      { name: "µs", scale: 1, digits: 1 },
    ),
  );
  // PGlite runs inside the server process: its CPU is the server's.
  rows.push(
    logRow(
      "Orders (PGlite, 4 shoppers, ID photo) per server CPU-second with the JSON request log ÷ with LOG_LEVEL=silent",
      orders,
      { name: "ms", scale: 0.001, digits: 2 },
    ),
  );

  if (!options.postgresUrl) return rows;
  say("Readiness after a database outage (PostgreSQL behind a cuttable proxy)");
  const data = await createDataSet({ count: 8, postgresUrl: options.postgresUrl });
  const target = new URL(data.env.DATABASE_URL as string);
  const proxy = await cuttableProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const throughProxy = new URL(target);
  throughProxy.port = String(proxy.port);
  const server = await startServer({ ...data, env: { ...data.env, DATABASE_URL: throughProxy.toString() } });
  try {
    const times: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      await proxy.cut();
      for (;;) {
        if ((await fetch(`${server.url}/readyz`)).status === 503) break;
        await sleep(50);
      }
      // Long enough for the pool's and the LISTEN client's connections to have noticed.
      await sleep(2_000);
      await proxy.restore();
      const back = performance.now();
      for (;;) {
        if ((await fetch(`${server.url}/readyz`)).status === 200) break;
        if (performance.now() - back > 60_000) throw new Error("/readyz did not come back in 60 s");
        await sleep(20);
      }
      times.push((performance.now() - back) / 1000);
    }
    const seconds = median(times);
    rows.push({
      figure: "Database back → /readyz 200 (PostgreSQL)",
      target: "≤ 5 s",
      value: `${seconds.toFixed(2)} s`,
      pass: seconds <= 5,
      context: `${times.map((t) => t.toFixed(2)).join(", ")} s after 2 s outages; polled every 20 ms`,
    });
  } finally {
    await server.stop();
    await proxy.cut().catch(() => {});
    await data.dispose();
  }
  return rows;
}
