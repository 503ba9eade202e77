/**
 * `npm run bench -- --only=ops` (issue 12 items 6 and 7, decision 018):
 * - the cost of the JSON request log: /shop (cache hits) req/s and orders/s, LOG_LEVEL=info against
 *   LOG_LEVEL=silent, one server whose level is switched between runs (a bench build only),
 *   interleaved rounds, compared by server CPU per request;
 * - time from the database coming back to /readyz 200 (PostgreSQL behind a cuttable proxy).
 */
import { openDatabase } from "../../app/db/client.server.ts";
import { cuttableProxy } from "../../tests/support/cuttable-proxy.ts";
import { type OrderableSize, orderableSizes, postOrder } from "../../tests/support/shop-orders.ts";
import {
  type BenchServer,
  cpuSeconds,
  createDataSet,
  type DataSet,
  type LoadResult,
  load,
  median,
  say,
  sleep,
  startServer,
} from "./lib.ts";

const cpuMs = (result: LoadResult) => result.cpuPerRequestMs ?? Number.NaN;
const medianCpuMs = (results: LoadResult[]) => median(results.map(cpuMs));
const rps = (results: LoadResult[]) => median(results.map((result) => result.rps));

type Row = { figure: string; target: string; value: string; pass: boolean | null; context: string };

const SHOPPERS = 4;

/** Orders placed by SHOPPERS shoppers posting one after the other for `seconds`. */
async function orderLoad(
  server: { url: string; pid: number },
  sizes: OrderableSize[],
  seconds: number,
  first: number,
): Promise<LoadResult> {
  const { url } = server;
  const cpuBefore = cpuSeconds(server.pid);
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
  const cpuPerRequestMs = ((cpuSeconds(server.pid) - cpuBefore) * 1000) / Math.max(placed, 1);
  return {
    requests: placed,
    seconds: elapsed,
    rps: placed / elapsed,
    errors,
    latencyMeanMs: Number.NaN,
    cpuPerRequestMs,
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
 * More and shorter rounds than the other figures, over several server processes: the log's cost is a
 * few per cent, and on the shared two-core machine one process's CPU per request swings more than
 * that from one run to the next (the same server measured against itself, no log at either end,
 * gave rounds from 0.89 to 1.22 on 2026-11-25). The ratio also differs from one process to the next
 * of the same code (0.87, 0.90, 0.91 and 0.93 for four processes on 2026-11-25), so one process's
 * draw would decide the figure. The median of all pairs of all processes is steadier.
 */
const LOG_PROCESSES = 3;
const LOG_ROUNDS = 6;
const LOG_SECONDS = 2;

/** Sets the running bench server's log level (`/__bench/log-level`, a bench build only). */
async function switchLog(server: BenchServer, level: Level) {
  const response = await fetch(`${server.url}/__bench/log-level?to=${level}`);
  if (!response.ok) throw new Error(`Could not set the log level: ${response.status}`);
}

type LevelPairs = { ratios: number[]; log: LoadResult[]; silent: LoadResult[] };

/**
 * LOG_ROUNDS pairs of runs on one server, its log level switched through the bench build's
 * `/__bench/log-level`: two server processes differ by a few per cent per request whatever they log
 * (two silent servers gave 0.87–0.98 of each other), more than the log's own cost, so each pair is
 * measured in one process. Each round measures both levels, in alternating order, each after a short
 * unmeasured run at its new level.
 */
async function levelPairs(
  server: BenchServer,
  run: (seconds: number) => Promise<LoadResult>,
  label: string,
  into: LevelPairs,
) {
  for (let round = 0; round < LOG_ROUNDS; round++) {
    const results = {} as Record<Level, LoadResult>;
    for (const level of (round % 2 ? ["silent", "info"] : ["info", "silent"]) as Level[]) {
      await switchLog(server, level);
      await run(1);
      const result = await run(LOG_SECONDS);
      if (result.errors > 0) say(`${label} round ${round}: ${result.errors} refused (log ${level})`);
      results[level] = result;
      (level === "info" ? into.log : into.silent).push(result);
    }
    // Requests per server CPU-second with the log ÷ without: the silent CPU per request over the logged one.
    into.ratios.push(cpuMs(results.silent) / cpuMs(results.info));
  }
  await switchLog(server, "info");
}

const roundsByProcess = (ratios: number[]) =>
  Array.from({ length: LOG_PROCESSES }, (_, index) =>
    ratios
      .slice(index * LOG_ROUNDS, (index + 1) * LOG_ROUNDS)
      .map((ratio) => ratio.toFixed(3))
      .join(", "),
  ).join(" / ");

export async function benchOperations(options: {
  /** Outage rounds for the readiness figure (the log figures take LOG_PROCESSES × LOG_ROUNDS). */
  rounds: number;
  connections: number;
  postgresUrl: string | undefined;
}): Promise<Row[]> {
  const rows: Row[] = [];
  say(
    `Seeding 60 products (${LOG_PROCESSES} servers in turn, the request log switched on and off between runs)`,
  );
  const shopData = await createDataSet({ count: 60 });
  const sizes = await pgliteSizes(shopData);
  const shop: LevelPairs = { ratios: [], log: [], silent: [] };
  const orders: LevelPairs = { ratios: [], log: [], silent: [] };
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
        // /shop from the page cache: the hot path, where a log line per request weighs the most.
        // A cache hit is pure CPU, and req/s swings with whatever else runs on the two cores between
        // rounds; the server's own CPU per request does not. Requests per CPU-second is the req/s the
        // server reaches when it has a core to itself, so the ratio is taken of that.
        await levelPairs(
          server,
          (seconds) =>
            load(`${server.url}/shop`, { seconds, connections: options.connections, pid: server.pid }),
          "/shop",
          shop,
        );
        await levelPairs(
          server,
          async (seconds) => {
            const result = await orderLoad(server, sizes, seconds, shopper);
            shopper += 100_000;
            return result;
          },
          "orders",
          orders,
        );
      } finally {
        await server.stop();
      }
    }
  } finally {
    await shopData.dispose();
  }

  const shopRatio = median(shop.ratios);
  rows.push({
    figure:
      "/shop (cache hits) requests per server CPU-second with the JSON request log ÷ with LOG_LEVEL=silent",
    target: "≥ 0.95",
    value: shopRatio.toFixed(3),
    pass: shopRatio >= 0.95,
    context: `${(medianCpuMs(shop.log) * 1000).toFixed(1)} vs ${(medianCpuMs(shop.silent) * 1000).toFixed(1)} µs CPU per request (${rps(shop.log).toFixed(0)} vs ${rps(shop.silent).toFixed(0)} req/s); ${LOG_PROCESSES} servers, rounds ${roundsByProcess(shop.ratios)}`,
  });
  // As for /shop: orders per server CPU-second (PGlite runs inside the server process).
  const ordersRatio = median(orders.ratios);
  rows.push({
    figure:
      "Orders (PGlite, 4 shoppers, ID photo) per server CPU-second with the JSON request log ÷ with LOG_LEVEL=silent",
    target: "≥ 0.95",
    value: ordersRatio.toFixed(3),
    pass: ordersRatio >= 0.95,
    context: `${medianCpuMs(orders.log).toFixed(2)} vs ${medianCpuMs(orders.silent).toFixed(2)} ms CPU per order (${rps(orders.log).toFixed(1)} vs ${rps(orders.silent).toFixed(1)} orders/s); ${LOG_PROCESSES} servers, rounds ${roundsByProcess(orders.ratios)}`,
  });

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
