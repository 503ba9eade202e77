/**
 * Shared pieces of `npm run bench`: the production build, servers on loopback with fresh data,
 * the load generator (wrk from Debian when installed, else autocannon from npm), CPU time of the
 * server process from /proc, medians, and throwaway PostgreSQL databases.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import {
  buildApp as buildAppInto,
  LOAD_TEST_BUDGETS,
  type RunningApp,
  startApp,
} from "../../tests/support/app-server.ts";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const NODE = path.join(ROOT, "node_modules/.bin/node");
/** BENCH_BUILD_DIR: another folder (under node_modules, so the build finds its packages) for a second checkout's bench. */
export const BUILD_DIR =
  process.env.BENCH_BUILD_DIR ?? path.join(ROOT, "node_modules/.cache/capital-grown/bench-build");
export const ADMIN = { email: "bench-admin@capitalgrown.test", password: "bench-password-123" };

export function say(message: string) {
  process.stdout.write(`${message}\n`);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The production build the bench serves, in a folder of its own, with its reference page (BENCH_BUILD).
 * `npm run lighthouse` builds into another folder (LIGHTHOUSE_BUILD_DIR): it is run while `npm run
 * bench` loads the machine, and the bench's build empties its folder under any server serving it.
 */
export function buildApp(buildDir = BUILD_DIR) {
  buildAppInto(buildDir, { BENCH_BUILD: "1" });
}

export const LIGHTHOUSE_BUILD_DIR = path.join(ROOT, "node_modules/.cache/capital-grown/lighthouse-build");

/** A data set the servers use: a fresh PGlite folder, or a fresh database on a PostgreSQL server. */
export type DataSet = {
  label: string;
  env: Record<string, string | undefined>;
  dispose(): Promise<void>;
};

/** Creates a fresh database (PostgreSQL when `postgresUrl` is given) seeded with `count` demo products. */
export async function createDataSet(options: {
  count: number;
  postgresUrl?: string;
  /** Orders to add (spread over a year, running totals set to match). */
  orders?: number;
  /** Orders for today's date, over the five slots (the today board's bench). */
  todayOrders?: number;
  /** An encrypted ID photo for every order (scripts/bench/seed.ts --id-photos). */
  idPhotos?: boolean;
  /** Nothing created in it: the server's first start migrates it (and seeds it when asked). */
  empty?: boolean;
}): Promise<DataSet> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "cg-bench-data-"));
  let env: Record<string, string | undefined> = { DATA_DIR: dataDir, DATABASE_URL: undefined };
  let dropDatabase = async () => {};
  if (options.postgresUrl) {
    const name = `cg_bench_${randomBytes(5).toString("hex")}`;
    const admin = new pg.Client({ connectionString: options.postgresUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const url = new URL(options.postgresUrl);
    url.pathname = `/${name}`;
    env = { DATA_DIR: dataDir, DATABASE_URL: url.toString() };
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: options.postgresUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    };
  }
  const seedArgs = [path.join(ROOT, "scripts/bench/seed.ts"), String(options.count)];
  if (options.orders) seedArgs.push(`--orders=${options.orders}`);
  if (options.todayOrders) seedArgs.push(`--today-orders=${options.todayOrders}`);
  if (options.idPhotos) seedArgs.push("--id-photos");
  const seeded = options.empty
    ? { status: 0, stdout: "", stderr: "" }
    : spawnSync(NODE, seedArgs, {
        cwd: ROOT,
        env: { ...process.env, ...env, LOG_LEVEL: "warn" } as NodeJS.ProcessEnv,
        encoding: "utf8",
      });
  if (seeded.status !== 0) throw new Error(`Seeding failed:\n${seeded.stdout}\n${seeded.stderr}`);
  return {
    label: `${options.count} products${options.orders ? `, ${options.orders} orders` : ""}${options.todayOrders ? `, ${options.todayOrders} for today` : ""} on ${options.postgresUrl ? "PostgreSQL" : "PGlite"}`,
    env,
    async dispose() {
      await dropDatabase().catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type BenchServer = RunningApp & { pid: number };

/** Starts the production build with the bench reference endpoints on a free loopback port. */
export async function startServer(
  data: DataSet,
  env: Record<string, string> = {},
  buildDir = BUILD_DIR,
  options: { onSpawn?: (pid: number) => void; startTimeoutMs?: number } = {},
): Promise<BenchServer> {
  const app = await startApp({
    buildDir,
    onSpawn: options.onSpawn,
    dataDir: data.env.DATA_DIR,
    startTimeoutMs: options.startTimeoutMs ?? 120_000,
    // The server's log goes to a file, as in production: piping it into this process would put
    // the harness's reading of every line on the same two cores as the server measured.
    outputFile: path.join(tmpdir(), `cg-bench-server-${randomBytes(4).toString("hex")}.log`),
    env: {
      SEED_DEMO: "false",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      BENCH_REFERENCE: "1",
      // Every bench client comes from 127.0.0.1: the per-address budgets (P-29) would cap
      // the throughput measured, so they are raised here, through the configuration.
      ...LOAD_TEST_BUDGETS,
      ...data.env,
      ...env,
    },
  });
  const pid = app.process.pid as number;
  // Let start-up work (migrations, JIT, brotli of the build assets) finish before anything is measured.
  const settleDeadline = Date.now() + 30_000;
  for (;;) {
    const before = cpuSeconds(pid);
    await sleep(500);
    if (cpuSeconds(pid) - before < 0.02 || Date.now() > settleDeadline) break;
  }
  return { ...app, pid };
}

const TICKS_PER_SECOND = 100;

/** User + system CPU seconds of a process (all its threads) from /proc. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 14 and 15 of the file (utime, stime); the slice starts at field 3.
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/**
 * User + system CPU seconds of every PostgreSQL process on this machine (its backends, writer and
 * WAL writer), from /proc: the database's share of a load when it runs beside the server. Other
 * users of the same PostgreSQL count too, so compare it between runs of one bench only.
 */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (!stat.includes("(postgres)")) continue;
      total += cpuSeconds(Number(name));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return total;
}

export type LoadResult = {
  requests: number;
  seconds: number;
  rps: number;
  errors: number;
  latencyMeanMs: number;
  /** Server CPU seconds per request (when a pid was given). */
  cpuPerRequestMs?: number;
};

export const LOAD_GENERATOR = existsSync("/usr/bin/wrk") ? "wrk" : "autocannon";

/** Loads one URL for `seconds` with `connections` keep-alive connections. */
export async function load(
  url: string,
  options: {
    seconds: number;
    connections: number;
    headers?: Record<string, string>;
    pid?: number;
    /** wrk only: a Lua script (e.g. scripts/bench/miss.lua). */
    script?: string;
  },
): Promise<LoadResult> {
  const cpuBefore = options.pid ? cpuSeconds(options.pid) : 0;
  const result =
    LOAD_GENERATOR === "wrk" ? await loadWithWrk(url, options) : await loadWithAutocannon(url, options);
  if (options.pid) {
    const cpu = cpuSeconds(options.pid) - cpuBefore;
    result.cpuPerRequestMs = result.requests > 0 ? (cpu * 1000) / result.requests : Number.NaN;
  }
  return result;
}

async function loadWithWrk(
  url: string,
  options: { seconds: number; connections: number; headers?: Record<string, string>; script?: string },
): Promise<LoadResult> {
  const args = ["-t1", `-c${options.connections}`, `-d${options.seconds}s`, "--latency"];
  if (options.script) args.push("-s", options.script);
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push("-H", `${name}: ${value}`);
  args.push(url);
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn("wrk", args, { stdio: ["ignore", "pipe", "pipe"] });
    let text = "";
    child.stdout.on("data", (chunk) => {
      text += chunk;
    });
    child.stderr.on("data", (chunk) => {
      text += chunk;
    });
    child.on("error", reject);
    child.on("exit", () => resolve(text));
  });
  const requestsMatch = /(\d+) requests in ([\d.]+)(ms|s|m)/.exec(output);
  if (!requestsMatch) throw new Error(`Unexpected wrk output:\n${output}`);
  const requests = Number(requestsMatch[1]);
  const unit = requestsMatch[3];
  const seconds = Number(requestsMatch[2]) * (unit === "ms" ? 0.001 : unit === "m" ? 60 : 1);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const errors =
    non2xx + (socketErrors ? socketErrors.slice(1).reduce((sum, value) => sum + Number(value), 0) : 0);
  const latency = /Latency\s+([\d.]+)(us|ms|s)/.exec(output);
  const latencyMeanMs = latency
    ? Number(latency[1]) * (latency[2] === "us" ? 0.001 : latency[2] === "s" ? 1000 : 1)
    : Number.NaN;
  return { requests, seconds, rps: requests / seconds, errors, latencyMeanMs };
}

async function loadWithAutocannon(
  url: string,
  options: { seconds: number; connections: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  const moduleName = "autocannon"; // untyped package: imported by name
  const { default: autocannon } = (await import(moduleName)) as {
    default: (options: Record<string, unknown>) => Promise<{
      requests: { total: number };
      duration: number;
      non2xx: number;
      errors: number;
      latency: { mean: number };
    }>;
  };
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.seconds,
    headers: options.headers,
  });
  const seconds = result.duration;
  return {
    requests: result.requests.total,
    seconds,
    rps: result.requests.total / seconds,
    errors: result.non2xx + result.errors,
    latencyMeanMs: result.latency.mean,
  };
}

/** The byte size of a response body as sent for the given request headers. */
export async function bodyBytes(url: string, headers: Record<string, string> = {}) {
  const { request } = await import("node:http");
  return new Promise<{ bytes: number; status: number; headers: Record<string, unknown> }>(
    (resolve, reject) => {
      request(url, { headers }, (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on("end", () => resolve({ bytes, status: res.statusCode ?? 0, headers: res.headers }));
      })
        .on("error", reject)
        .end();
    },
  );
}

/** The PostgreSQL server to use for PostgreSQL-only figures, or undefined when none answers. */
export async function reachablePostgres(candidate: string | undefined): Promise<string | undefined> {
  const url = candidate ?? "postgres://postgres@127.0.0.1:5432/test";
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return url;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Product slugs in the order /shop lists them (the first page), read from its HTML: the product
 * page's own address `/product/{slug}` (record 028), so nothing measured goes through the 301 of
 * an old `/product/{id}` URL.
 */
export async function productSlugs(baseUrl: string): Promise<string[]> {
  const html = await (await fetch(`${baseUrl}/shop`)).text();
  return [...new Set([...html.matchAll(/href="\/product\/([^"?#/]+)"/g)].map((match) => match[1] as string))];
}

/**
 * A form POST on a keep-alive connection from a small pool, with Node's `http` rather than `fetch`:
 * the order benches run their client on the same two cores as the server and its database, and
 * `fetch` (undici's streams, `Request`/`Response` objects) cost about twice the client CPU per
 * order (scripts/bench/order-profile.ts --client=fetch). A reused socket the server closed
 * (keep-alive timeout) is retried once by the caller.
 */
export function formPoster(baseUrl: string, maxSockets: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const { hostname, port } = new URL(baseUrl);
  return {
    post(
      pathname: string,
      form: URLSearchParams,
      headers: Record<string, string> = {},
    ): Promise<{ status: number; text: string }> {
      const body = form.toString();
      return new Promise((resolve, reject) => {
        const request = http.request(
          {
            agent,
            hostname,
            port,
            path: pathname,
            method: "POST",
            headers: {
              "content-type": "application/x-www-form-urlencoded;charset=UTF-8",
              "content-length": Buffer.byteLength(body),
              ...headers,
            },
          },
          (response) => {
            let text = "";
            response.setEncoding("utf8");
            response.on("data", (chunk: string) => {
              text += chunk;
            });
            response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
            response.on("error", reject);
          },
        );
        request.on("error", reject);
        request.end(body);
      });
    },
    close() {
      agent.destroy();
    },
  };
}
