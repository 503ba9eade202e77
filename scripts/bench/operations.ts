/**
 * `npm run bench -- --only=ops` (issue 12 items 6 and 7, decision 018):
 * - the cost of the JSON request log: /shop (cache hits) req/s and orders/s, LOG_LEVEL=info against
 *   LOG_LEVEL=silent, two servers on two copies of the same data, interleaved rounds in one run;
 * - time from the database coming back to /readyz 200 (PostgreSQL behind a cuttable proxy).
 */
import { openDatabase } from "../../app/db/client.server.ts";
import { cuttableProxy } from "../../tests/support/cuttable-proxy.ts";
import { type OrderableSize, orderableSizes, postOrder } from "../../tests/support/shop-orders.ts";
import {
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
/** Requests per server CPU-second with the log ÷ without it: the silent server's CPU per request over the logging one's. */
const capacityRatio = (logged: LoadResult, silent: LoadResult) => cpuMs(silent) / cpuMs(logged);

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

export async function benchOperations(options: {
  seconds: number;
  rounds: number;
  connections: number;
  postgresUrl: string | undefined;
}): Promise<Row[]> {
  const rows: Row[] = [];
  say("Seeding 60 products twice (request log on / off)");
  const [dataOn, dataOff] = await Promise.all([createDataSet({ count: 60 }), createDataSet({ count: 60 })]);
  const sizesOn = await pgliteSizes(dataOn);
  const sizesOff = await pgliteSizes(dataOff);
  // Every bench shopper posts from 127.0.0.1 with recycled phone numbers: no open-orders limit.
  const unlimited = { MAX_OPEN_ORDERS: "100000000" };
  const on = await startServer(dataOn, { ...unlimited, LOG_LEVEL: "info", LOG_FORMAT: "json" });
  const off = await startServer(dataOff, { ...unlimited, LOG_LEVEL: "silent" });
  try {
    // /shop from the page cache: the hot path, where a log line per request weighs the most.
    const shop = async (server: typeof on) =>
      load(`${server.url}/shop`, {
        seconds: options.seconds,
        connections: options.connections,
        pid: server.pid,
      });
    await shop(on);
    await shop(off);
    // A cache hit is pure CPU, and req/s of one server swings with whatever else runs on the two
    // cores between rounds; the server's own CPU per request does not. Requests per CPU-second is
    // the req/s the server reaches when it has a core to itself, so the ratio is taken of that.
    const shopRatios: number[] = [];
    const shopOn: LoadResult[] = [];
    const shopOff: LoadResult[] = [];
    for (let round = 0; round < options.rounds; round++) {
      const [a, b] =
        round % 2 ? [await shop(off), await shop(on)].reverse() : [await shop(on), await shop(off)];
      shopOn.push(a as LoadResult);
      shopOff.push(b as LoadResult);
      shopRatios.push(capacityRatio(a as LoadResult, b as LoadResult));
    }
    const shopRatio = median(shopRatios);
    rows.push({
      figure:
        "/shop (cache hits) requests per server CPU-second with the JSON request log ÷ with LOG_LEVEL=silent",
      target: "≥ 0.95",
      value: shopRatio.toFixed(3),
      pass: shopRatio >= 0.95,
      context: `${(medianCpuMs(shopOn) * 1000).toFixed(1)} vs ${(medianCpuMs(shopOff) * 1000).toFixed(1)} µs CPU per request (${rps(shopOn).toFixed(0)} vs ${rps(shopOff).toFixed(0)} req/s); rounds ${shopRatios.map((r) => r.toFixed(3)).join(", ")}`,
    });

    let shopper = 1;
    const orders = async (server: typeof on, sizes: OrderableSize[]) => {
      const result = await orderLoad(server, sizes, options.seconds, shopper);
      shopper += 100_000;
      return result;
    };
    await orders(on, sizesOn);
    await orders(off, sizesOff);
    const orderRatios: number[] = [];
    const ordersOn: LoadResult[] = [];
    const ordersOff: LoadResult[] = [];
    for (let round = 0; round < options.rounds; round++) {
      let a: LoadResult;
      let b: LoadResult;
      if (round % 2) {
        b = await orders(off, sizesOff);
        a = await orders(on, sizesOn);
      } else {
        a = await orders(on, sizesOn);
        b = await orders(off, sizesOff);
      }
      if (a.errors + b.errors > 0) say(`order round ${round}: ${a.errors} + ${b.errors} refused`);
      ordersOn.push(a);
      ordersOff.push(b);
      // As for /shop: orders per server CPU-second (PGlite runs inside the server process).
      orderRatios.push(capacityRatio(a, b));
    }
    const orderRatio = median(orderRatios);
    rows.push({
      figure:
        "Orders (PGlite, 4 shoppers, ID photo) per server CPU-second with the JSON request log ÷ with LOG_LEVEL=silent",
      target: "≥ 0.95",
      value: orderRatio.toFixed(3),
      pass: orderRatio >= 0.95,
      context: `${medianCpuMs(ordersOn).toFixed(2)} vs ${medianCpuMs(ordersOff).toFixed(2)} ms CPU per order (${rps(ordersOn).toFixed(1)} vs ${rps(ordersOff).toFixed(1)} orders/s); rounds ${orderRatios.map((r) => r.toFixed(3)).join(", ")}`,
    });
  } finally {
    await on.stop();
    await off.stop();
    await dataOn.dispose();
    await dataOff.dispose();
  }

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
