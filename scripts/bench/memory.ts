/**
 * `npm run bench -- --only=memory`: the server's resident memory (RSS of the server process and any
 * children, read from /proc/<pid>/status every 0.2 s) at the moments a small VPS runs out of it:
 * - the first start on an empty database, which seeds the demo catalogue (its images included);
 * - a restart on the same database (the embedded one opens its files);
 * - resting after that restart and 20,000 mixed requests (pages, images, cart prices, searches,
 *   orders with an ID photo);
 * - the daily backup of a database of 20,000 orders, each with an encrypted ID photo (every 50th
 *   of 300 KB), written and then checked, as the server does it at BACKUP_TIME;
 * on the embedded database and, when one answers, on PostgreSQL.
 */
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { openDatabase } from "../../app/db/client.server.ts";
import { type OrderableSize, orderableSizes, postOrder } from "../../tests/support/shop-orders.ts";
import { type BenchServer, createDataSet, type DataSet, median, say, sleep, startServer } from "./lib.ts";

type Row = { figure: string; target: string; value: string; pass: boolean | null; context: string };

const PEAK_TARGET_MB = 512;
const RESTING_TARGET_MB = { pglite: 384, postgres: 256 } as const;
const MIXED_REQUESTS = 20_000;
const BACKUP_ORDERS = 20_000;
const SAMPLE_MS = 200;

/** VmRSS of a process in MB (0 once it is gone). */
function rssMb(pid: number) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

/** A process's children (of every thread), and theirs. */
function descendants(pid: number): number[] {
  const found: number[] = [];
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return found;
  }
  for (const task of tasks) {
    let children = "";
    try {
      children = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8");
    } catch {}
    for (const child of children.split(" ").filter(Boolean).map(Number)) {
      found.push(child, ...descendants(child));
    }
  }
  return found;
}

/** RSS of the process tree, summed. */
function treeRssMb(pid: number) {
  return [pid, ...descendants(pid)].reduce((sum, each) => sum + rssMb(each), 0);
}

/** Samples a process tree's RSS every 0.2 s until stopped: the peak, and the samples. */
function sampler() {
  let pid: number | undefined;
  const samples: number[] = [];
  const timer = setInterval(() => {
    if (pid !== undefined) samples.push(treeRssMb(pid));
  }, SAMPLE_MS);
  return {
    attach(target: number) {
      pid = target;
      samples.push(treeRssMb(target));
    },
    /** The peak since the last reset. */
    peak: () => Math.max(0, ...samples),
    reset() {
      samples.length = 0;
    },
    stop() {
      clearInterval(timer);
    },
  };
}

const mb = (value: number) => `${value.toFixed(0)} MB`;

async function startSampled(data: DataSet, env: Record<string, string> = {}) {
  const rss = sampler();
  const started = performance.now();
  // A first start on a busy machine (migrations, the demo images) can take minutes.
  const server = await startServer(data, env, undefined, {
    onSpawn: (pid) => rss.attach(pid),
    startTimeoutMs: 10 * 60_000,
  });
  return { server, rss, seconds: (performance.now() - started) / 1000 };
}

/** The RSS of a server left alone: the median of 5 s of samples, once its CPU has settled. */
async function restingMb(server: BenchServer) {
  const { cpuSeconds } = await import("./lib.ts");
  const deadline = Date.now() + 30_000;
  for (;;) {
    const before = cpuSeconds(server.pid);
    await sleep(1_000);
    if (cpuSeconds(server.pid) - before < 0.02 || Date.now() > deadline) break;
  }
  const samples: number[] = [];
  for (let i = 0; i < 25; i++) {
    samples.push(treeRssMb(server.pid));
    await sleep(SAMPLE_MS);
  }
  return median(samples);
}

/** What the server says its memory is made of (its /metrics, scraped from loopback): V8's heap, and what lives outside it. */
async function memoryBreakdown(server: BenchServer) {
  try {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    const value = (name: string) =>
      Number(new RegExp(`^${name} ([0-9.e+]+)$`, "m").exec(text)?.[1] ?? Number.NaN);
    const space = (name: string) =>
      Number(
        new RegExp(`^nodejs_heap_space_size_total_bytes\\{space="${name}"\\} ([0-9.e+]+)$`, "m").exec(
          text,
        )?.[1] ?? Number.NaN,
      );
    const megabytes = (bytes: number) => (bytes / 1_048_576).toFixed(0);
    return `V8 heap ${megabytes(value("nodejs_heap_size_used_bytes"))} MB used of ${megabytes(value("nodejs_heap_size_total_bytes"))} MB (new space ${megabytes(space("new"))} MB), external ${megabytes(value("nodejs_external_memory_bytes"))} MB`;
  } catch {
    return "no /metrics";
  }
}

async function get(agent: http.Agent, url: string) {
  return new Promise<number>((resolve) => {
    http
      .get(url, { agent }, (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", () => resolve(0));
      })
      .on("error", () => resolve(0));
  });
}

/**
 * 20,000 requests over 8 keep-alive connections, a mix of what shoppers and crawlers ask for: per
 * 100, 30 /shop, 25 product pages, 10 home, 10 category and effect pages, 10 images, 8 cart-price
 * look-ups, 3 searches, 2 odd pages (checkout, a 404, the sitemap) and 2 orders with an ID photo.
 */
async function mixedLoad(server: BenchServer, sizes: OrderableSize[], firstShopper: number) {
  const base = server.url;
  const home = await (await fetch(`${base}/`)).text();
  const shop = await (await fetch(`${base}/shop`)).text();
  const hrefs = [...`${home}${shop}`.matchAll(/href="(\/[^"?#]*)"/g)].map((match) => match[1] as string);
  const products = [...new Set(hrefs.filter((href) => href.startsWith("/product/")))];
  const listings = [
    ...new Set(
      hrefs.filter(
        (href) => /^\/[a-z-]+$/.test(href) && !["/shop", "/checkout", "/privacy", "/terms"].includes(href),
      ),
    ),
  ];
  const images = [
    ...new Set(
      [...`${home}${shop}`.matchAll(/(?:src|srcset)="([^"]+)"/g)].flatMap((match) =>
        (match[1] as string)
          .split(",")
          .map((part) => part.trim().split(" ")[0] as string)
          .filter((url) => url.startsWith("/media/")),
      ),
    ),
  ];
  const sizeQuery = sizes
    .slice(0, 4)
    .map((size) => `size=${size.sizeId}`)
    .join("&");
  const odd = ["/checkout", "/no-such-page", "/sitemap.xml", "/thank-you?order=unknown"];
  const terms = ["kush", "gummy", "vape", "haze", "indica", "pre-roll"];
  const pick = <T>(list: T[], i: number) => list[i % Math.max(list.length, 1)] as T;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  let next = 0;
  let failed = 0;
  let orders = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (;;) {
        const i = next++;
        if (i >= MIXED_REQUESTS) return;
        const slot = i % 100;
        let status: number;
        if (slot < 2 && sizes.length > 0) {
          const placed = await postOrder(base, pick(sizes, i), firstShopper + i);
          status = "token" in placed ? 200 : placed.refused;
          if ("token" in placed) orders++;
        } else {
          const target =
            slot < 32
              ? "/shop"
              : slot < 57
                ? pick(products, i)
                : slot < 67
                  ? "/"
                  : slot < 77
                    ? pick(listings, i)
                    : slot < 87
                      ? pick(images, i)
                      : slot < 95
                        ? `/api/cart-prices?${sizeQuery}`
                        : slot < 98
                          ? `/shop?q=${pick(terms, i)}`
                          : pick(odd, i);
          status = await get(agent, `${base}${target ?? "/"}`);
          if (target === "/no-such-page" && status === 404) status = 200;
          if (target?.startsWith("/thank-you") && status < 500) status = 200;
        }
        if (status === 0 || status >= 400) failed++;
      }
    }),
  );
  agent.destroy();
  return { seconds: (performance.now() - started) / 1000, failed, orders };
}

async function sizesOf(data: DataSet) {
  const handle = data.env.DATABASE_URL
    ? await openDatabase({ kind: "postgres", url: data.env.DATABASE_URL })
    : await openDatabase({ kind: "pglite", dataDir: data.env.DATA_DIR as string, lockOwner: "the bench" });
  try {
    return await orderableSizes(handle.db, 8);
  } finally {
    await handle.close();
  }
}

/** First start with the demo catalogue, a restart, 20,000 mixed requests, resting. */
async function startsAndResting(kind: "pglite" | "postgres", postgresUrl?: string): Promise<Row[]> {
  const label = kind === "pglite" ? "embedded database" : "PostgreSQL";
  const rows: Row[] = [];
  // An empty database: the server seeds the demo catalogue itself at its first start.
  const data = await createDataSet({ count: 0, empty: true, postgresUrl });
  try {
    say(`… first start with the demo catalogue (${label})`);
    const first = await startSampled(data, { SEED_DEMO: "true" });
    await first.server.stop();
    first.rss.stop();
    rows.push({
      figure: `Peak RSS, first start with the demo catalogue (${label})`,
      target: `≤ ${PEAK_TARGET_MB} MB`,
      value: mb(first.rss.peak()),
      pass: first.rss.peak() <= PEAK_TARGET_MB,
      context: `${first.seconds.toFixed(1)} s from spawn to settled (migrations, seed with its images, admin)`,
    });
    const sizes = await sizesOf(data);
    say(`… restart (${label})`);
    const again = await startSampled(data, { SEED_DEMO: "true" });
    const restartPeak = again.rss.peak();
    rows.push({
      figure: `Peak RSS, restart (${label})`,
      target: `≤ ${PEAK_TARGET_MB} MB`,
      value: mb(restartPeak),
      pass: restartPeak <= PEAK_TARGET_MB,
      context: `${again.seconds.toFixed(1)} s from spawn to settled`,
    });
    say(`… ${MIXED_REQUESTS.toLocaleString("en-US")} mixed requests (${label})`);
    again.rss.reset();
    const mixed = await mixedLoad(again.server, sizes, 1);
    const loadPeak = again.rss.peak();
    const resting = await restingMb(again.server);
    const breakdown = await memoryBreakdown(again.server);
    await again.server.stop();
    again.rss.stop();
    rows.push({
      figure: `Resting RSS after a restart and ${MIXED_REQUESTS.toLocaleString("en-US")} mixed requests (${label})`,
      target: `≤ ${RESTING_TARGET_MB[kind]} MB`,
      value: mb(resting),
      pass: resting <= RESTING_TARGET_MB[kind],
      context: `peak during the load ${mb(loadPeak)}; ${mixed.seconds.toFixed(0)} s, ${mixed.orders} orders, ${mixed.failed} failed; ${breakdown}`,
    });
  } finally {
    await data.dispose();
  }
  return rows;
}

/** The daily backup (write, then the restore check) of 20,000 orders with their ID photos. */
async function dailyBackup(kind: "pglite" | "postgres", postgresUrl?: string): Promise<Row> {
  const label = kind === "pglite" ? "embedded database" : "PostgreSQL";
  say(`… seeding ${BACKUP_ORDERS.toLocaleString("en-US")} orders with ID photos (${label})`);
  const data = await createDataSet({ count: 60, orders: BACKUP_ORDERS, idPhotos: true, postgresUrl });
  try {
    // A start with no backup yet and BACKUP_TIME passed: the daily job writes and checks one now.
    const folder = path.join(data.env.DATA_DIR as string, "backups");
    say(`… daily backup (${label})`);
    const { server, rss } = await startSampled(data, { BACKUP_TIME: "00:00", LOG_LEVEL: "info" });
    const started = performance.now();
    let status: { bytes: number; rows: number; verified: boolean; error?: string } | undefined;
    const deadline = Date.now() + 10 * 60_000;
    while (!status && Date.now() < deadline) {
      try {
        status = JSON.parse(readFileSync(path.join(folder, "last-backup.json"), "utf8"));
      } catch {
        await sleep(SAMPLE_MS);
      }
    }
    const peak = rss.peak();
    await server.stop();
    rss.stop();
    if (!status) throw new Error(`No daily backup within 10 minutes:\n${server.logs().slice(-2000)}`);
    return {
      figure: `Peak RSS, daily backup of ${BACKUP_ORDERS.toLocaleString("en-US")} orders, written and checked (${label})`,
      target: `≤ ${PEAK_TARGET_MB} MB`,
      value: mb(peak),
      pass: peak <= PEAK_TARGET_MB && status.verified,
      context: `start and backup together; ${(status.bytes / 1_048_576).toFixed(0)} MB file, ${status.rows} rows, ${status.verified ? "checked" : `check FAILED: ${status.error}`}; done ${((performance.now() - started) / 1000).toFixed(0)} s after the server answered`,
    };
  } finally {
    await data.dispose();
  }
}

/**
 * BENCH_MEMORY_ENGINES=postgres (or pglite): one database's rows only, e.g. to try a setting.
 * BENCH_MEMORY_PARTS=starts (first start, restart, resting) or backup: one part only.
 */
export async function benchMemory(options: { postgresUrl: string | undefined }): Promise<Row[]> {
  const rows: Row[] = [];
  const engines = (process.env.BENCH_MEMORY_ENGINES ?? "pglite,postgres").split(",");
  const parts = (process.env.BENCH_MEMORY_PARTS ?? "starts,backup").split(",");
  if (engines.includes("pglite")) {
    if (parts.includes("starts")) rows.push(...(await startsAndResting("pglite")));
    if (parts.includes("backup")) rows.push(await dailyBackup("pglite"));
  }
  if (!engines.includes("postgres")) return rows;
  if (options.postgresUrl) {
    if (parts.includes("starts")) rows.push(...(await startsAndResting("postgres", options.postgresUrl)));
    if (parts.includes("backup")) rows.push(await dailyBackup("postgres", options.postgresUrl));
  } else {
    say("(no PostgreSQL answered: the PostgreSQL memory figures are skipped)");
  }
  return rows;
}
