/**
 * `npm run bench`: builds the app, starts it on loopback with fresh data (PGlite; PostgreSQL with
 * DATABASE_URL), loads it, and writes BENCHMARKS.md. Every throughput figure is a ratio to a
 * reference served by the same process in the same run, the median of interleaved rounds.
 *
 *   npm run bench                      all figures (about 10 minutes on 2 cores)
 *   npm run bench -- --only=cached,cold   some sections: cached, tracking, browser, cold, orders, fresh-pg, dashboard, today,
 *                                      import, orders-search, audit, fuzz, ops, refusals, memory, driver,
 *                                      customer-checkout, account
 *   BENCH_SECONDS=5 BENCH_ROUNDS=3     seconds per load run, rounds per figure (defaults)
 *   BENCH_PG_URL=postgres://…          PostgreSQL for the PostgreSQL-only figures (default: DATABASE_URL,
 *                                      else postgres://postgres@127.0.0.1:5432/test when it answers)
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { enrolOverHttp } from "../../tests/e2e/support/admin-sign-in.ts";
import { countOrders, discoverTarget, fuzzRawHttp, fuzzServer } from "../../tests/fuzz/hostile-requests.ts";
import { adminCookie, firstLoad, launchChromium, priceChangeVisibility } from "./browser.ts";
import { benchCheckoutRefusals } from "./checkout-refusals.ts";
import { benchAccount, benchCustomerCheckout } from "./customer.ts";
import { benchDriver } from "./driver.ts";
import {
  ADMIN,
  type BenchServer,
  BUILD_DIR,
  bodyBytes,
  buildApp,
  createDataSet,
  type DataSet,
  LOAD_GENERATOR,
  type LoadResult,
  load,
  median,
  productSlugs,
  ROOT,
  reachablePostgres,
  say,
  startServer,
} from "./lib.ts";
import { benchMemory } from "./memory.ts";
import { benchOperations } from "./operations.ts";
import { benchOrders } from "./orders.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Math.max(3, Number(process.env.BENCH_ROUNDS ?? 3));
const CONNECTIONS = 32;
const onlyArg = process.argv.find((arg) => arg.startsWith("--only="));
const only = onlyArg ? onlyArg.slice(7).split(",") : null;
const wants = (section: string) => !only || only.includes(section);

type Row = {
  figure: string;
  target: string;
  value: string;
  pass: boolean | null;
  context: string;
};
const rows: Row[] = [];
const notes: string[] = [];

function fmt(value: number, digits = 2) {
  return Number.isFinite(value) ? value.toFixed(digits) : "n/a";
}

function record(row: Row) {
  rows.push(row);
  const mark = row.pass === null ? "·" : row.pass ? "✓" : "✗";
  say(`${mark} ${row.figure}: ${row.value} (target ${row.target}) ${row.context}`);
}

/**
 * Interleaved rounds of two loads (A then B, B then A, …) after a warm-up; the figure is the
 * median of the per-round ratios.
 */
async function interleaved(
  a: () => Promise<LoadResult>,
  b: () => Promise<LoadResult>,
  ratioOf: (a: LoadResult, b: LoadResult) => number,
) {
  await a();
  await b();
  const ratios: number[] = [];
  const as: LoadResult[] = [];
  const bs: LoadResult[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let ra: LoadResult;
    let rb: LoadResult;
    if (round % 2 === 0) {
      ra = await a();
      rb = await b();
    } else {
      rb = await b();
      ra = await a();
    }
    as.push(ra);
    bs.push(rb);
    ratios.push(ratioOf(ra, rb));
  }
  return {
    ratio: median(ratios),
    ratios,
    a: {
      rps: median(as.map((r) => r.rps)),
      cpuMs: median(as.map((r) => r.cpuPerRequestMs ?? Number.NaN)),
      latencyMs: median(as.map((r) => r.latencyMeanMs)),
      errors: as.reduce((sum, r) => sum + r.errors, 0),
    },
    b: {
      rps: median(bs.map((r) => r.rps)),
      cpuMs: median(bs.map((r) => r.cpuPerRequestMs ?? Number.NaN)),
      latencyMs: median(bs.map((r) => r.latencyMeanMs)),
      errors: bs.reduce((sum, r) => sum + r.errors, 0),
    },
  };
}

/** A cached page against static bytes of the same size from memory, same server, same headers. */
async function pageVersusStatic(server: BenchServer, pagePath: string, headers: Record<string, string> = {}) {
  const { bytes, status, headers: responseHeaders } = await bodyBytes(`${server.url}${pagePath}`, headers);
  if (status !== 200) throw new Error(`${pagePath} answered ${status}`);
  const state = (await bodyBytes(`${server.url}${pagePath}`, headers)).headers["x-cache"];
  const reference = `${server.url}/__bench/static?bytes=${bytes}`;
  const result = await interleaved(
    () => load(`${server.url}${pagePath}`, { seconds: SECONDS, connections: CONNECTIONS, headers }),
    () => load(reference, { seconds: SECONDS, connections: CONNECTIONS }),
    (page, ref) => page.rps / ref.rps,
  );
  return {
    ...result,
    bytes,
    cacheState: String(state ?? "none"),
    encoding: responseHeaders["content-encoding"],
  };
}

async function cachedSection(server: BenchServer, productSlug: string) {
  for (const [label, pagePath, target] of [
    ["/shop (60 products)", "/shop", 0.25],
    [`/product/{slug}`, `/product/${productSlug}`, 0.25],
    ["/ (home)", "/", null],
    ["/washington-dc-weed-delivery", "/washington-dc-weed-delivery", null],
  ] as const) {
    say(`… ${label}: cached page vs static bytes`);
    const r = await pageVersusStatic(server, pagePath);
    record({
      figure: `${label} req/s ÷ static bytes of the same size, same server`,
      target: target === null ? "(context)" : `≥ ${target}`,
      value: fmt(r.ratio),
      pass: target === null ? null : r.ratio >= target,
      context: `page ${fmt(r.a.rps, 0)} req/s vs static ${fmt(r.b.rps, 0)} req/s, ${r.bytes} B, cache ${r.cacheState}, rounds ${r.ratios.map((x) => fmt(x)).join("/")}, errors ${r.a.errors + r.b.errors}`,
    });
  }
  say("… /shop as a browser asks for it (Accept-Encoding: gzip, deflate, br)");
  const br = await pageVersusStatic(server, "/shop", { "Accept-Encoding": "gzip, deflate, br" });
  record({
    figure: "/shop brotli body req/s ÷ static bytes of the same (compressed) size",
    target: "(context)",
    value: fmt(br.ratio),
    pass: null,
    context: `page ${fmt(br.a.rps, 0)} req/s vs static ${fmt(br.b.rps, 0)} req/s, ${br.bytes} B ${String(br.encoding ?? "identity")}`,
  });
}

async function coldSection(server60: BenchServer, server500: BenchServer) {
  say("… /shop cold render (PAGE_CACHE=false) vs a bare React Router page with the same data");
  const cpuLoad = (server: BenchServer, pagePath: string) => () =>
    load(`${server.url}${pagePath}`, { seconds: SECONDS, connections: 8, pid: server.pid });
  const cold = await interleaved(
    cpuLoad(server60, "/shop"),
    cpuLoad(server60, "/__bench/bare"),
    (page, bare) => (page.cpuPerRequestMs as number) / (bare.cpuPerRequestMs as number),
  );
  record({
    figure: "/shop cold render CPU per request ÷ bare React Router page with the same data",
    target: "≤ 1.2",
    value: fmt(cold.ratio),
    pass: cold.ratio <= 1.2,
    context: `/shop ${fmt(cold.a.cpuMs)} ms CPU (${fmt(cold.a.rps, 0)} req/s) vs bare ${fmt(cold.b.cpuMs)} ms CPU (${fmt(cold.b.rps, 0)} req/s), rounds ${cold.ratios.map((x) => fmt(x)).join("/")}`,
  });
  say("… /shop server time at 500 products vs 60 (cache off: every request renders)");
  const scale = await interleaved(
    cpuLoad(server500, "/shop"),
    cpuLoad(server60, "/shop"),
    (at500, at60) => (at500.cpuPerRequestMs as number) / (at60.cpuPerRequestMs as number),
  );
  record({
    figure: "/shop server CPU per request at 500 products ÷ at 60",
    target: "≤ 1.5",
    value: fmt(scale.ratio),
    pass: scale.ratio <= 1.5,
    context: `500: ${fmt(scale.a.cpuMs)} ms, 60: ${fmt(scale.b.cpuMs)} ms CPU per request; mean latency at 8 connections ${fmt(scale.a.latencyMs, 1)} vs ${fmt(scale.b.latencyMs, 1)} ms`,
  });
}

/** Cache misses with the cache on: every request a new query string (wrk only). */
async function missSection(cachedServer: BenchServer) {
  if (LOAD_GENERATOR !== "wrk") return;
  say("… /shop cache misses with the cache on (a new query string each request) vs the bare page");
  const miss = await interleaved(
    () =>
      load(`${cachedServer.url}/shop`, {
        seconds: SECONDS,
        connections: 8,
        pid: cachedServer.pid,
        script: path.join(ROOT, "scripts/bench/miss.lua"),
      }),
    () =>
      load(`${cachedServer.url}/__bench/bare`, { seconds: SECONDS, connections: 8, pid: cachedServer.pid }),
    (page, bare) => (page.cpuPerRequestMs as number) / (bare.cpuPerRequestMs as number),
  );
  record({
    figure: "/shop cache miss with the cache on (render + gzip + brotli + store) CPU per request ÷ bare page",
    target: "(context)",
    value: fmt(miss.ratio),
    pass: null,
    context: `miss ${fmt(miss.a.cpuMs)} ms vs bare ${fmt(miss.b.cpuMs)} ms CPU per request`,
  });
}

/** A counter of the server's /metrics (this bench's loopback peer reads it without a token). */
async function metricValue(server: BenchServer, name: string) {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? Number.NaN);
}

/**
 * 10,000 catalogue requests, each with tracking parameters of its own (utm_*, fbclid, gclid, as ads
 * and newsletters add them), 16 at a time: each should be a page-cache hit, the parameters being
 * left out of the key (the pages do not read them).
 */
async function trackingParamsSection(server: BenchServer, productSlug: string) {
  const requests = 10_000;
  say(`… ${requests} catalogue requests with unique tracking parameters`);
  const paths = ["/shop", "/", "/flower", `/product/${productSlug}`];
  for (const pagePath of paths) await (await fetch(`${server.url}${pagePath}`)).arrayBuffer();
  const hitsBefore = await metricValue(server, "page_cache_hits_total");
  const missesBefore = await metricValue(server, "page_cache_misses_total");
  const states: Record<string, number> = {};
  const started = performance.now();
  let next = 0;
  async function worker() {
    while (next < requests) {
      const i = next++;
      const pagePath = paths[i % paths.length] as string;
      const tracking = `utm_source=newsletter&utm_medium=email&utm_campaign=c${i}&utm_content=${Math.random().toString(36).slice(2)}&fbclid=IwAR${i}&gclid=Cj0K${i}`;
      const response = await fetch(`${server.url}${pagePath}?${tracking}`, {
        headers: { "Accept-Encoding": "br" },
      });
      await response.arrayBuffer();
      const state = `${response.status} ${response.headers.get("x-cache") ?? "none"}`;
      states[state] = (states[state] ?? 0) + 1;
    }
  }
  await Promise.all(Array.from({ length: 16 }, () => worker()));
  const seconds = (performance.now() - started) / 1000;
  const hits = (await metricValue(server, "page_cache_hits_total")) - hitsBefore;
  const misses = (await metricValue(server, "page_cache_misses_total")) - missesBefore;
  const ratio = hits / requests;
  record({
    figure: `Page-cache hits of ${requests.toLocaleString("en-US")} catalogue requests with unique tracking parameters (utm_*, fbclid, gclid)`,
    target: "100%",
    value: `${fmt(ratio * 100, 2)}%`,
    pass: hits === requests,
    context: `page_cache_hits_total +${hits}, page_cache_misses_total +${misses} (/metrics); X-Cache ${Object.entries(
      states,
    )
      .map(([state, count]) => `${state}: ${count}`)
      .join(", ")}; ${paths.join(", ")} in turn, 16 at a time, ${fmt(requests / seconds, 0)} req/s`,
  });
}

async function browserSection(server: BenchServer, productSlug: string) {
  const browser = await launchChromium();
  try {
    for (const pagePath of ["/", "/shop", `/product/${productSlug}`, "/__bench/bare"]) {
      const loads = [];
      for (let i = 0; i < 3; i++) loads.push(await firstLoad(browser, server.url, pagePath));
      const js = median(loads.map((l) => l.jsGzipBytes)) / 1024;
      const css = median(loads.map((l) => l.cssGzipBytes)) / 1024;
      const sample = loads[0];
      const main = pagePath === "/" || pagePath === "/shop";
      record({
        figure: `First-load JS on ${pagePath === `/product/${productSlug}` ? "/product/{slug}" : pagePath === "/__bench/bare" ? "the bare reference page (framework + root only)" : pagePath}, gzipped`,
        target: main ? "≤ 128 KB" : "(context)",
        value: `${fmt(js, 1)} KB`,
        pass: main ? js <= 128 : null,
        context: `${sample?.jsFiles} files; HTML ${fmt((sample?.htmlGzipBytes ?? 0) / 1024, 1)} KB gz, images ${fmt((sample?.imageBytes ?? 0) / 1024, 0)} KB, fonts ${fmt((sample?.fontBytes ?? 0) / 1024, 0)} KB; largest scripts (gz): ${(
          sample?.scripts ?? []
        )
          .slice(0, 6)
          .map((s) => `${s.name} ${fmt(s.gzipBytes / 1024, 1)} KB`)
          .join(", ")}`,
      });
      record({
        figure: `First-load CSS on ${pagePath === `/product/${productSlug}` ? "/product/{slug}" : pagePath === "/__bench/bare" ? "the bare reference page" : pagePath}, gzipped`,
        target: main ? "≤ 20 KB" : "(context)",
        value: `${fmt(css, 1)} KB`,
        pass: main ? css <= 20 : null,
        context: `${sample?.cssFiles} files`,
      });
    }
    say("… a price change in the admin, visible on /shop (one instance)");
    const fresh = await priceChangeVisibility(browser, server.url, [server.url]);
    record({
      figure: "Price change in the admin visible on /shop, one instance",
      target: "≤ 1 s",
      value: `${fmt(fresh.maxMs, 0)} ms (worst of ${fresh.samplesMs.length})`,
      pass: fresh.maxMs <= 1000,
      context: `samples ${fresh.samplesMs.map((x) => fmt(x, 0)).join(", ")} ms`,
    });
  } finally {
    await browser.close();
  }
}

async function postgresFreshness(pgData: DataSet) {
  say(
    "… a price change in the admin of instance 1, visible on /shop of instances 1 and 2 (shared PostgreSQL)",
  );
  const one = await startServer(pgData);
  const two = await startServer(pgData);
  const browser = await launchChromium();
  try {
    const fresh = await priceChangeVisibility(browser, one.url, [one.url, two.url]);
    record({
      figure: "Price change in the admin visible on /shop, two instances sharing PostgreSQL",
      target: "≤ 1 s",
      value: `${fmt(fresh.maxMs, 0)} ms (worst of ${fresh.samplesMs.length})`,
      pass: fresh.maxMs <= 1000,
      context: `samples ${fresh.samplesMs.map((x) => fmt(x, 0)).join(", ")} ms (the slower instance each time)`,
    });
  } finally {
    await browser.close();
    await one.stop();
    await two.stop();
  }
}

/** A 5,000-row catalogue CSV import (scripts/bench/import.ts, in a process of its own for its RSS). */
function importSection(pgUrl: string | null | undefined) {
  say("… a 5,000-row CSV import (scripts/bench/import.ts)");
  const result = spawnSync(
    path.join(ROOT, "node_modules/.bin/node"),
    [path.join(ROOT, "scripts/bench/import.ts")],
    {
      cwd: ROOT,
      env: { ...process.env, BENCH_PG_URL: pgUrl ?? "" },
      encoding: "utf8",
      timeout: 20 * 60_000,
    },
  );
  const lines = result.stdout
    .trim()
    .split("\n")
    .filter((line) => line.startsWith("["));
  if (lines.length === 0) say(result.stderr.trim().split("\n").slice(-5).join("\n"));
  for (const line of lines) {
    const database = line.slice(1, line.indexOf("]"));
    const seconds = /= ([\d.]+) s/.exec(line)?.[1];
    const above = /\(\+(\d+) MB/.exec(line)?.[1];
    record({
      figure: `5,000-row CSV import (preview + apply), ${database}`,
      target: "≤ 30 s, ≤ 256 MB RSS above idle",
      value: `${seconds ?? "n/a"} s, +${above ?? "n/a"} MB`,
      pass: line.endsWith("PASS"),
      context: line.slice(line.indexOf("]") + 2),
    });
  }
}

/** Order search and CSV export at 100,000 orders (scripts/bench/orders-search.ts). */
/** The audit log's filtered page at 1,000,000 events ÷ at 1,000, in its own process. */
function auditSection(postgresUrl: string | undefined) {
  say("… the audit log's filtered page at 1,000,000 events (scripts/bench/audit-log.ts)");
  const result = spawnSync(
    path.join(ROOT, "node_modules/.bin/node"),
    [path.join(ROOT, "scripts/bench/audit-log.ts")],
    {
      cwd: ROOT,
      env: { ...process.env, ...(postgresUrl ? { BENCH_DATABASE_URL: postgresUrl } : {}) },
      encoding: "utf8",
      timeout: 30 * 60_000,
    },
  );
  const line = result.stdout.split("\n").find((text) => text.startsWith("AUDIT_LOG_JSON "));
  if (!line) {
    notes.push(`scripts/bench/audit-log.ts failed: ${(result.stderr || result.stdout).trim().slice(-300)}`);
    return;
  }
  const { target, results } = JSON.parse(line.slice("AUDIT_LOG_JSON ".length)) as {
    target: number;
    results: Record<
      string,
      {
        small: Record<string, number>;
        large: Record<string, number>;
        slowest: { filter: string; ratio: number };
      }
    >;
  };
  for (const [database, figure] of Object.entries(results)) {
    record({
      figure: `/admin/audit filtered page at 1,000,000 events ÷ at 1,000, slowest filter (${database})`,
      target: `≤ ${target}×`,
      value: `${fmt(figure.slowest.ratio)}×`,
      pass: figure.slowest.ratio <= target,
      context: `${figure.slowest.filter}; server time per filter at 1,000 → 1,000,000: ${Object.keys(
        figure.small,
      )
        .map(
          (kind) => `${kind} ${fmt(figure.small[kind] as number)} → ${fmt(figure.large[kind] as number)} ms`,
        )
        .join(", ")}`,
    });
  }
}

function ordersSearchSection(postgresUrl: string | undefined) {
  say("… order search and CSV export at 100,000 orders (scripts/bench/orders-search.ts)");
  const result = spawnSync(
    path.join(ROOT, "node_modules/.bin/node"),
    ["--expose-gc", path.join(ROOT, "scripts/bench/orders-search.ts")],
    {
      cwd: ROOT,
      env: { ...process.env, ...(postgresUrl ? { BENCH_DATABASE_URL: postgresUrl } : {}) },
      encoding: "utf8",
      timeout: 30 * 60_000,
    },
  );
  const line = result.stdout.split("\n").find((text) => text.startsWith("ORDERS_SEARCH_JSON "));
  if (!line) {
    notes.push(
      `scripts/bench/orders-search.ts failed: ${(result.stderr || result.stdout).trim().slice(-300)}`,
    );
    return;
  }
  const figures = JSON.parse(line.slice("ORDERS_SEARCH_JSON ".length)) as Record<
    string,
    {
      searches: { label: string; ms: number; dbMs: number }[];
      slowestMs: number;
      growthMb: number;
      exportSeconds: number;
    }
  >;
  for (const [database, figure] of Object.entries(figures)) {
    record({
      figure: `Order search at 100,000 orders, slowest of ${figure.searches.length} kinds, server time (${database})`,
      target: "≤ 50 ms",
      value: `${fmt(figure.slowestMs)} ms`,
      pass: figure.slowestMs <= 50,
      context: `page time (in the database): ${figure.searches
        .map((search) => `${search.label} ${fmt(search.ms)} ms (${fmt(search.dbMs)} ms)`)
        .join(", ")}`,
    });
    record({
      figure: `CSV export of 100,000 orders, RSS growth while streaming (${database})`,
      target: "≤ 256 MB",
      value: `${fmt(figure.growthMb, 1)} MB`,
      pass: figure.growthMb <= 256,
      context: `${fmt(figure.exportSeconds, 1)} s for the whole file`,
    });
  }
}

async function dashboardSection(postgresUrl: string | undefined) {
  const script = path.join(ROOT, "scripts/bench/dashboard.ts");
  if (existsSync(script)) {
    say("… admin dashboard at 100,000 orders vs 100 (scripts/bench/dashboard.ts)");
    const result = spawnSync(path.join(ROOT, "node_modules/.bin/node"), [script], {
      cwd: ROOT,
      env: process.env,
      encoding: "utf8",
      timeout: 20 * 60_000,
    });
    say(result.stdout.trim().split("\n").slice(-6).join("\n"));
    notes.push(
      `scripts/bench/dashboard.ts (the admin's own dashboard bench) also ran; its last lines: ${result.stdout.trim().split("\n").slice(-3).join(" / ").replaceAll("|", "\\|")}`,
    );
  }
  say("… admin dashboard: CPU per request at 100,000 orders vs 100");
  const small = await createDataSet({ count: 60, orders: 100, postgresUrl });
  const large = await createDataSet({ count: 60, orders: 100_000, postgresUrl });
  const at100 = await startServer(small);
  const at100k = await startServer(large);
  const browser = await launchChromium();
  try {
    const cookie100 = await adminCookie(browser, at100.url);
    const cookie100k = await adminCookie(browser, at100k.url);
    for (const [url, cookie] of [
      [at100.url, cookie100],
      [at100k.url, cookie100k],
    ] as const) {
      const check = await bodyBytes(`${url}/admin/dashboard`, { Cookie: cookie });
      if (check.status !== 200)
        throw new Error(`/admin/dashboard answered ${check.status} with the session cookie`);
    }
    const result = await interleaved(
      () =>
        load(`${at100k.url}/admin/dashboard`, {
          seconds: SECONDS,
          connections: 8,
          pid: at100k.pid,
          headers: { Cookie: cookie100k },
        }),
      () =>
        load(`${at100.url}/admin/dashboard`, {
          seconds: SECONDS,
          connections: 8,
          pid: at100.pid,
          headers: { Cookie: cookie100 },
        }),
      (big, little) => (big.cpuPerRequestMs as number) / (little.cpuPerRequestMs as number),
    );
    record({
      figure: "Admin dashboard server CPU per request at 100,000 orders ÷ at 100",
      target: "≤ 3",
      value: fmt(result.ratio),
      pass: result.ratio <= 3,
      context: `${fmt(result.a.cpuMs)} ms vs ${fmt(result.b.cpuMs)} ms CPU per request (${fmt(result.a.rps, 0)} vs ${fmt(result.b.rps, 0)} req/s at 8 connections, ${result.a.errors + result.b.errors} errors); ${postgresUrl ? "PostgreSQL" : "PGlite"}`,
    });
  } finally {
    await browser.close();
    await at100.stop();
    await at100k.stop();
    await small.dispose();
    await large.dispose();
  }
}

/** The today board: CPU per request with 1,000 orders for the date ÷ with 10. */
async function todaySection(postgresUrl: string | undefined) {
  say("… today board: CPU per request with 1,000 orders for the date vs 10");
  const small = await createDataSet({ count: 60, todayOrders: 10, postgresUrl });
  const large = await createDataSet({ count: 60, todayOrders: 1000, postgresUrl });
  const at10 = await startServer(small);
  const at1000 = await startServer(large);
  const browser = await launchChromium();
  try {
    const cookie10 = await adminCookie(browser, at10.url);
    const cookie1000 = await adminCookie(browser, at1000.url);
    const sizes: number[] = [];
    for (const [url, cookie] of [
      [at10.url, cookie10],
      [at1000.url, cookie1000],
    ] as const) {
      const check = await bodyBytes(`${url}/admin/today`, { Cookie: cookie });
      if (check.status !== 200)
        throw new Error(`/admin/today answered ${check.status} with the session cookie`);
      sizes.push(check.bytes);
    }
    const result = await interleaved(
      () =>
        load(`${at1000.url}/admin/today`, {
          seconds: SECONDS,
          connections: 8,
          pid: at1000.pid,
          headers: { Cookie: cookie1000 },
        }),
      () =>
        load(`${at10.url}/admin/today`, {
          seconds: SECONDS,
          connections: 8,
          pid: at10.pid,
          headers: { Cookie: cookie10 },
        }),
      (big, little) => (big.cpuPerRequestMs as number) / (little.cpuPerRequestMs as number),
    );
    record({
      figure: "Today board server CPU per request with 1,000 orders for the date ÷ with 10",
      target: "≤ 2",
      value: fmt(result.ratio),
      pass: result.ratio <= 2,
      context: `${fmt(result.a.cpuMs)} ms vs ${fmt(result.b.cpuMs)} ms CPU per request (${fmt(result.a.rps, 0)} vs ${fmt(result.b.rps, 0)} req/s at 8 connections, ${result.a.errors + result.b.errors} errors; page ${sizes[1]} vs ${sizes[0]} bytes, at most 8 orders a slot shown); ${postgresUrl ? "PostgreSQL" : "PGlite"}`,
    });
  } finally {
    await browser.close();
    await at10.stop();
    await at1000.stop();
    await small.dispose();
    await large.dispose();
  }
}

/**
 * The fuzz test of `npm test` (tests/e2e/hostile-traffic.spec.ts) at 10,000 requests, then 10,000 odd
 * HTTP requests over raw sockets (no Host, absolute-form targets, filters the database refuses, half
 * of them signed in as the owner).
 */
async function fuzzSection() {
  const requests = 10_000;
  say(`… ${requests} hostile requests and ${requests} odd HTTP requests (tests/fuzz/hostile-requests.ts)`);
  const data = await createDataSet({ count: 60 });
  try {
    const server = await startServer(data);
    let report: Awaited<ReturnType<typeof fuzzServer>>;
    let raw: Awaited<ReturnType<typeof fuzzRawHttp>>;
    try {
      // Signed in first: the hostile sign-in posts spend this address's sign-in budget.
      const { cookie } = await enrolOverHttp(server.url, ADMIN);
      report = await fuzzServer(await discoverTarget(server.url), { requests, seed: 20261123 });
      raw = await fuzzRawHttp({ url: server.url, adminCookie: cookie }, { requests, seed: 20261127 });
    } finally {
      await server.stop();
    }
    const orders = await countOrders({ dataDir: data.env.DATA_DIR });
    const statuses = Object.entries(report.byStatus)
      .map(([status, count]) => `${status}: ${count}`)
      .join(", ");
    record({
      figure: `Fuzz: answers ≥ 500, with a stack trace or a server path, or no answer, of ${requests} hostile requests`,
      target: "0",
      value: String(report.findings.length),
      pass: report.findings.length === 0,
      context: `${report.sent} sent in ${fmt(report.seconds, 1)} s (${report.unsendable} not sendable by Node's client); by status ${statuses}${report.findings.length ? `; first: ${report.findings[0]?.why} on ${report.findings[0]?.request.slice(0, 160)}` : ""}`,
    });
    const rawStatuses = Object.entries(raw.byStatus)
      .map(([status, count]) => `${status}: ${count}`)
      .join(", ");
    record({
      figure: `Fuzz: answers ≥ 500, with a stack trace or a server path, or no answer, of ${requests} odd HTTP requests over raw sockets`,
      target: "0",
      value: String(raw.findings.length),
      pass: raw.findings.length === 0,
      context: `${raw.sent} sent in ${fmt(raw.seconds, 1)} s (HTTP/1.0 without Host, empty or malformed Host, absolute-form targets, bad dates and NULs in the admin's filters and exports, half signed in as the owner); by status ${rawStatuses}${raw.findings.length ? `; first: ${raw.findings[0]?.why} on ${raw.findings[0]?.request.slice(0, 160)}` : ""}`,
    });
    record({
      figure: `Fuzz: orders placed by ${requests} hostile requests (each checkout carries a field no order can have)`,
      target: "0",
      value: String(orders),
      pass: orders === 0,
      context: "counted in the database after the server stopped",
    });
  } finally {
    await data.dispose();
  }
}

function machine() {
  const cpus = os.cpus();
  const wrk = spawnSync("wrk", ["-v"], { encoding: "utf8" });
  const chromium = spawnSync("/usr/bin/chromium", ["--version"], { encoding: "utf8" });
  const pgVersion = spawnSync("psql", ["--version"], { encoding: "utf8" });
  return [
    `${cpus.length} × ${cpus[0]?.model ?? "unknown CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM, ${os.type()} ${os.release()}`,
    `Node ${process.version}; load generator: ${LOAD_GENERATOR === "wrk" ? `${(wrk.stdout || wrk.stderr).split("\n")[0]?.trim()} (1 thread, ${CONNECTIONS} connections)` : "autocannon 9 (in the harness process)"}`,
    `${chromium.stdout.trim() || "Chromium not found"}; ${pgVersion.stdout.trim() || "psql not found"}`,
  ];
}

/** The figure rows of a BENCHMARKS.md table (not its header). */
function tableRowsOf(text: string) {
  return (text.split("\n## ")[0] ?? "")
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| Figure |") && !line.startsWith("| --- "));
}

function writeReport(started: Date, databaseLabel: string) {
  const file = path.join(ROOT, "BENCHMARKS.md");
  const previous = existsSync(file) ? readFileSync(file, "utf8") : "";
  const lighthouse =
    /<!-- lighthouse:start -->[\s\S]*<!-- lighthouse:end -->/.exec(previous)?.[0] ??
    "<!-- lighthouse:start -->\n_Not measured yet: run `npm run lighthouse`._\n<!-- lighthouse:end -->";
  const analysis =
    /<!-- analysis:start -->[\s\S]*<!-- analysis:end -->/.exec(previous)?.[0] ??
    "<!-- analysis:start -->\n_Written by hand after a run: what misses its target and why._\n<!-- analysis:end -->";
  const operations =
    /<!-- operations:start -->[\s\S]*<!-- operations:end -->/.exec(previous)?.[0] ??
    "<!-- operations:start -->\n_Not measured yet: run `npm run bench -- --only=ops`._\n<!-- operations:end -->";
  const command = `npm run bench${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`;
  const when = started.toISOString().slice(0, 16).replace("T", " ");
  const measured = rows.map(
    (row) =>
      `| ${row.figure} | ${row.target} | **${row.value}** | ${row.pass === null ? "" : row.pass ? "pass" : "MISS"} | ${row.context.replaceAll("|", "\\|")}${only ? ` (\`--only=${only.join(",")}\`, ${when} UTC)` : ""} |`,
  );
  // A partial run (--only) replaces its own figures' rows and keeps every other row of the last run.
  const figureOf = (line: string) => line.split(" | ")[0]?.slice(2) ?? "";
  const kept = only ? tableRowsOf(previous) : [];
  const byFigure = new Map(measured.map((line) => [figureOf(line), line]));
  const merged = kept.map((line) => {
    const fresh = byFigure.get(figureOf(line));
    byFigure.delete(figureOf(line));
    return fresh ?? line;
  });
  const table = [
    "| Figure | Target | Measured | | Context (absolute figures) |",
    "| --- | --- | --- | --- | --- |",
    ...merged,
    ...byFigure.values(),
  ];
  const heading = only
    ? `${/^Measured by .*$/m.exec(previous)?.[0] ?? "Measured by `npm run bench`."}\nRows marked \`--only=…\` were measured again by \`${command}\` on ${when} UTC.`
    : `Measured by \`${command}\` on ${when} UTC (${databaseLabel}).`;
  const text = `# Benchmarks

${heading}
Every throughput figure is a ratio to a reference served by the same server process in the same run
(static bytes of the same size from memory at \`/__bench/static\`, or the bare React Router page
\`/__bench/bare\` with the same data), the median of ${ROUNDS} interleaved rounds of ${SECONDS} s after a warm-up.
CPU per request is the server process's user + system time (all threads, from /proc) divided by the
requests served. Servers run the production build on loopback with LOG_LEVEL=warn (no per-request log
line) and a fresh data folder seeded with the demo catalogue.

Machine:
${machine()
  .map((line) => `- ${line}`)
  .join("\n")}

${table.join("\n")}
${notes.length ? `\nNotes:\n${notes.map((note) => `- ${note}`).join("\n")}\n` : ""}
## Analysis: what moved each figure, and where the margin is thin

${analysis}

## Operations: request log cost, readiness after an outage

${operations}

## Lighthouse

${lighthouse}
`;
  writeFileSync(file, text);
  say(`Wrote ${file}`);
}

async function main() {
  const started = new Date();
  const mainPostgres = process.env.DATABASE_URL;
  const pgUrl = await reachablePostgres(process.env.BENCH_PG_URL ?? mainPostgres);
  const databaseLabel = mainPostgres ? "PostgreSQL from DATABASE_URL" : "embedded PGlite";
  say(`Building the app (${databaseLabel}; ${LOAD_GENERATOR}; ${ROUNDS} rounds of ${SECONDS} s)`);
  buildApp();
  const disposals: Array<() => Promise<void>> = [];
  const servers: BenchServer[] = [];
  try {
    if (wants("cached") || wants("tracking") || wants("browser") || wants("cold")) {
      say("Seeding 60 products");
      const data60 = await createDataSet({ count: 60, postgresUrl: mainPostgres });
      disposals.push(() => data60.dispose());
      if (wants("cached") || wants("tracking") || wants("browser")) {
        const server = await startServer(data60);
        servers.push(server);
        const [productSlug] = await productSlugs(server.url);
        if (!productSlug) throw new Error("/shop lists no product");
        if (wants("cached")) await cachedSection(server, productSlug);
        if (wants("tracking")) await trackingParamsSection(server, productSlug);
        if (wants("browser")) await browserSection(server, productSlug);
        await server.stop();
      }
      if (wants("cold")) {
        say("Seeding 500 products");
        const data500 = await createDataSet({ count: 500, postgresUrl: mainPostgres });
        disposals.push(() => data500.dispose());
        const cold60 = await startServer(data60, { PAGE_CACHE: "false" });
        const cold500 = await startServer(data500, { PAGE_CACHE: "false" });
        servers.push(cold60, cold500);
        await coldSection(cold60, cold500);
        await cold60.stop();
        // The same data with the cache on, every request a miss.
        const cachedMiss = await startServer(data60);
        servers.push(cachedMiss);
        await missSection(cachedMiss);
        await cachedMiss.stop();
        await cold500.stop();
      }
    }
    if (wants("orders")) {
      say("Seeding 60 products on PGlite for the order bench");
      const pgliteData = await createDataSet({ count: 60 });
      disposals.push(() => pgliteData.dispose());
      for (const row of await benchOrders(pgliteData, { seconds: SECONDS, rounds: ROUNDS })) record(row);
    }
    if (wants("orders") || wants("fresh-pg")) {
      if (!pgUrl) {
        notes.push("PostgreSQL-only figures skipped: no PostgreSQL answered (set BENCH_PG_URL).");
      } else {
        say("Seeding 60 products on PostgreSQL");
        const pgData = await createDataSet({ count: 60, postgresUrl: pgUrl });
        disposals.push(() => pgData.dispose());
        if (wants("fresh-pg")) await postgresFreshness(pgData);
        if (wants("orders")) {
          for (const row of await benchOrders(pgData, { seconds: SECONDS, rounds: ROUNDS })) record(row);
        }
      }
    }
    if (wants("refusals")) {
      say("Seeding 60 products for the checkout refusal bench");
      const refusalData = await createDataSet({ count: 60, postgresUrl: mainPostgres });
      disposals.push(() => refusalData.dispose());
      for (const row of await benchCheckoutRefusals(refusalData)) record(row);
    }
    if (wants("customer-checkout")) {
      // The embedded database, then PostgreSQL when one answers: a row each.
      for (const postgresUrl of pgUrl ? [undefined, pgUrl] : [undefined]) {
        say(
          `Seeding 60 products on ${postgresUrl ? "PostgreSQL" : "PGlite"} for the customer checkout bench`,
        );
        const customerData = await createDataSet({ count: 60, postgresUrl });
        disposals.push(() => customerData.dispose());
        // Five rounds at least: two guests' rounds against each other (an A/A run) already differ by
        // up to 15 % on this machine, so the median of three is too easily one bad round.
        const rounds = Math.max(ROUNDS, 5);
        for (const row of await benchCustomerCheckout(customerData, { seconds: SECONDS, rounds }))
          record(row);
      }
      if (!pgUrl)
        notes.push("Signed-in checkout on PostgreSQL skipped: no PostgreSQL answered (set BENCH_PG_URL).");
    }
    if (wants("account")) {
      for (const postgresUrl of pgUrl ? [undefined, pgUrl] : [undefined])
        for (const row of await benchAccount(postgresUrl, { seconds: SECONDS, rounds: ROUNDS })) record(row);
    }
    if (wants("dashboard")) await dashboardSection(mainPostgres);
    if (wants("import")) importSection(pgUrl);
    if (wants("orders-search")) ordersSearchSection(pgUrl ?? undefined);
    if (wants("audit")) auditSection(pgUrl ?? undefined);
    if (wants("today")) await todaySection(mainPostgres);
    if (wants("ops")) {
      const options = { rounds: ROUNDS, connections: CONNECTIONS, postgresUrl: pgUrl };
      for (const row of await benchOperations(options)) record(row);
    }
    if (wants("fuzz")) await fuzzSection();
    if (wants("memory")) for (const row of await benchMemory({ postgresUrl: pgUrl })) record(row);
    if (wants("driver")) for (const row of await benchDriver(BUILD_DIR)) record(row);
  } finally {
    for (const server of servers) await server.stop().catch(() => {});
    for (const dispose of disposals) await dispose().catch(() => {});
  }
  writeReport(started, databaseLabel);
  const missed = rows.filter((row) => row.pass === false);
  say(
    missed.length ? `${missed.length} figure(s) miss their target` : "Every measured figure meets its target",
  );
}

await main();
