/**
 * Record 018: what an operator relies on, against the built server.
 * - the request log holds no personal data of an order placed with its ID photo;
 * - /metrics: loopback or the bearer token, never a forwarded outsider;
 * - /readyz follows the database (503 while it is unreachable, 200 again after), /healthz does not;
 * - SIGTERM during 50 in-flight requests: all 50 answered, exit code 0, no new connections.
 */
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import http from "node:http";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { openDatabase } from "#app/db/client.server.ts";
import { seedDemoCatalogue } from "#app/demo/seed.server.ts";
import { availableSlots, deliveryOptions } from "#app/features/delivery/delivery-slots.ts";
import { orderFields } from "#tests/support/checkout-test-helpers.server.ts";
import { LOAD_TEST_BUDGETS, type RunningApp, startApp } from "../support/app-server.ts";
import { cuttableProxy } from "../support/cuttable-proxy.ts";
import { orderableSizes, postOrder } from "../support/shop-orders.ts";
import { createThrowawayDatabase } from "../support/throwaway-database.ts";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const buildDir = () => process.env.E2E_BUILD_DIR as string;
const METRICS_TOKEN = "metrics-token-for-the-operations-story";

const CUSTOMER = {
  name: "Quintessa Vandermolen",
  email: "quintessa.vandermolen@example.org",
  phone: "(202) 555-0199",
  address: "4817 Wisteria Hollow Pl NW",
};

function cookiesOf(response: Response) {
  return response.headers.getSetCookie().map((value) => value.split(";")[0] as string);
}

test("the log has one JSON line per request with its id and route, and none of the shopper's data", async () => {
  test.setTimeout(120_000);
  // The stock and the sizes to order are read from the embedded database between two starts (the
  // running server holds its folder).
  const first = await startApp({ buildDir: buildDir(), env: { SEED_DEMO_COUNT: "16" } });
  await first.stop();
  const seeded = await openDatabase({ kind: "pglite", dataDir: first.dataDir, lockOwner: "the test" });
  const [size] = await orderableSizes(seeded.db, 1);
  await seeded.close();
  if (!size) throw new Error("nothing to order");
  const app = await startApp({
    buildDir: buildDir(),
    dataDir: first.dataDir,
    env: { LOG_LEVEL: "debug", SEED_DEMO: "false", ...LOAD_TEST_BUDGETS },
  });
  let stopped = false;
  try {
    const { url } = app;
    const now = new Date();
    const { defaultDate } = deliveryOptions(now);
    const photo = await sharp({ create: { width: 640, height: 400, channels: 3, background: "#7a9" } })
      .jpeg()
      .toBuffer();
    const cookies = new Set<string>();
    const fields = orderFields(
      [
        {
          productId: size.productId,
          sizeId: size.sizeId,
          quantity: Math.max(1, Math.ceil(8000 / size.unitCents)),
        },
      ],
      { ...CUSTOMER, deliveryDate: defaultDate, timeSlot: availableSlots(defaultDate, now)[0] ?? "" },
      now,
    );
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append("idFront", new File([new Uint8Array(photo)], "id.jpg", { type: "image/jpeg" }));
    const placed = await fetch(`${url}/checkout`, { method: "POST", body: form, redirect: "manual" });
    for (const cookie of cookiesOf(placed)) cookies.add(cookie);
    const placedToken = /\/thank-you\?order=([\w-]+)/.exec(placed.headers.get("location") ?? "")?.[1];
    if (!placedToken) throw new Error(`no order: ${placed.status} ${await placed.text()}`);
    await placed.body?.cancel();
    const moved = await fetch(`${url}/product/${size.productId}`, { redirect: "manual" });
    expect(moved.status).toBe(301);
    expect((await fetch(`${url}${moved.headers.get("location")}.data`)).status).toBe(200);
    expect(placedToken, "an order was placed").toBeTruthy();
    // The thank-you page (its URL holds the order's token) with the toast cookie the redirect set.
    const cookieHeader = [...cookies].join("; ");
    expect(
      (await fetch(`${url}/thank-you?order=${placedToken}`, { headers: { cookie: cookieHeader } })).status,
    ).toBe(200);
    // An admin session cookie, used once.
    const login = await fetch(`${url}/admin/login`, {
      method: "POST",
      body: new URLSearchParams({ email: "admin@localhost", password: "wrong-password-on-purpose" }),
      redirect: "manual",
    });
    for (const cookie of cookiesOf(login)) cookies.add(cookie);
    await fetch(`${url}/admin`, {
      headers: { cookie: [...cookies].join("; "), authorization: "Bearer secret-looking-value" },
      redirect: "manual",
    });

    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toMatch(/^orders_placed_total [1-9]/m);

    await app.stop();
    stopped = true;
    expect(app.process.exitCode).toBe(0);
    const output = app.logs();
    const lines = output.split("\n").filter(Boolean);
    const requests = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === "request");
    expect(requests.length).toBeGreaterThan(5);
    for (const entry of requests) {
      expect(entry.requestId).toMatch(/^[\w-]+$/);
      expect(typeof entry.route).toBe("string");
      expect(typeof entry.status).toBe("number");
      expect(typeof entry.responseTime).toBe("number");
    }
    const checkout = requests.find((entry) => entry.method === "POST" && entry.route === "/checkout");
    expect([302, 303]).toContain(checkout?.status);
    expect(requests.some((entry) => entry.route === "/product/:slug.data")).toBe(true);
    expect(requests.some((entry) => entry.route === "/thank-you" && entry.status === 200)).toBe(true);

    const personal = [
      CUSTOMER.name,
      CUSTOMER.email,
      CUSTOMER.phone,
      "555-0199",
      CUSTOMER.address,
      "Wisteria",
      placedToken as string,
      "secret-looking-value",
      ...[...cookies]
        .map((cookie) => cookie.slice(cookie.indexOf("=") + 1))
        .filter((value) => value.length > 8),
    ];
    expect(cookies.size).toBeGreaterThan(0);
    for (const value of personal) expect(output, `the log shows ${value}`).not.toContain(value);
  } finally {
    if (!stopped) await app.stop();
  }
});

test("/metrics answers the bearer token, not a forwarded outsider nor anything a TRUST_PROXY peer sends", async () => {
  test.setTimeout(180_000);
  const app = await startApp({
    buildDir: buildDir(),
    env: { TRUST_PROXY: "loopback", METRICS_TOKEN, SEED_DEMO_COUNT: "8" },
  });
  try {
    const { url } = app;
    expect((await fetch(`${url}/shop`)).status).toBe(200);
    expect((await fetch(`${url}/shop`)).status).toBe(200);
    // The proxy runs on this machine (TRUST_PROXY=loopback): a loopback peer may be it, forwarding
    // an outsider with X-Real-IP alone (or with nothing at all), so only the token opens /metrics.
    expect((await fetch(`${url}/metrics`, { headers: { "X-Real-IP": "203.0.113.9" } })).status).toBe(401);
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    const direct = await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(direct.status).toBe(200);
    expect(direct.headers.get("content-type")).toContain("text/plain");
    const body = await direct.text();
    for (const name of [
      "http_request_duration_seconds_bucket",
      "page_cache_hits_total",
      "page_cache_misses_total",
      "orders_placed_total",
      "orders_refused_total",
      "email_outbox_pending",
      "email_outbox_oldest_pending_age_seconds",
      "email_send_failures_total",
      "db_pool_connections_in_use",
      "db_pool_requests_waiting",
      "db_listen_connected",
      "nodejs_eventloop_lag_seconds",
      "process_resident_memory_bytes",
    ]) {
      expect(body, name).toContain(name);
    }
    expect(body).toMatch(/http_request_duration_seconds_count\{route="\/shop",status="200"\} 2/);
    expect(body).toMatch(/^page_cache_hits_total 1$/m);
    expect(body).toMatch(/^email_outbox_pending 0$/m);

    const outsider = { "X-Forwarded-For": "203.0.113.9" };
    expect((await fetch(`${url}/metrics`, { headers: outsider })).status).toBe(401);
    expect(
      (
        await fetch(`${url}/metrics`, {
          headers: { ...outsider, Authorization: "Bearer not-the-token-at-all" },
        })
      ).status,
    ).toBe(401);
    const withToken = await fetch(`${url}/metrics`, {
      headers: { ...outsider, Authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(withToken.status).toBe(200);
    expect(await withToken.text()).toContain("http_request_duration_seconds");
    // Health endpoints are neither cached nor limited.
    const health = await fetch(`${url}/healthz`);
    expect(health.headers.get("cache-control")).toBe("no-store");
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: "ready",
      database: "reachable",
      migrations: "applied",
    });
  } finally {
    await app.stop();
  }
});

test("/metrics without a token, behind a proxy on this machine: hidden from every loopback peer", async () => {
  test.setTimeout(180_000);
  const app = await startApp({ buildDir: buildDir(), env: { TRUST_PROXY: "loopback", SEED_DEMO: "false" } });
  try {
    const realIpOnly = await fetch(`${app.url}/metrics`, { headers: { "X-Real-IP": "203.0.113.9" } });
    expect(realIpOnly.status).toBe(404);
    expect(await realIpOnly.text()).not.toContain("http_request_duration_seconds");
    expect((await fetch(`${app.url}/metrics`)).status).toBe(404);
  } finally {
    await app.stop();
  }
  // Without TRUST_PROXY, this machine's own scraper reads it.
  const direct = await startApp({ buildDir: buildDir(), env: { SEED_DEMO: "false" } });
  try {
    expect((await fetch(`${direct.url}/metrics`)).status).toBe(200);
    expect(
      (await fetch(`${direct.url}/metrics`, { headers: { "X-Forwarded-For": "203.0.113.9" } })).status,
    ).toBe(404);
  } finally {
    await direct.stop();
  }
});

/** GET through `agent`: `sent` once written, `answered` with its answer. */
function inFlightGet(url: string, agent: http.Agent) {
  let written: () => void = () => {};
  const sent = new Promise<void>((resolve) => {
    written = resolve;
  });
  const answered = new Promise<{ status: number; bytes: number }>((resolve, reject) => {
    const request = http.get(url, { agent }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, bytes }));
      response.on("error", reject);
    });
    request.on("finish", () => written());
    request.on("error", reject);
  });
  return { sent, answered };
}

async function shutdownUnderLoad(app: RunningApp) {
  const { url } = app;
  expect((await fetch(`${url}/readyz`)).status).toBe(200);
  // 50 connections the server has accepted (as a load balancer's pool would be), each warmed by a
  // /healthz; then on each an uncached page: a search of the whole catalogue, rendered by the app.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });
  const warm = await Promise.all(
    Array.from({ length: 50 }, () => inFlightGet(`${url}/healthz`, agent).answered),
  );
  expect(warm.every((answer) => answer.status === 200)).toBe(true);
  const requests = Array.from({ length: 50 }, (_, i) =>
    inFlightGet(`${url}/shop?q=${i % 2 ? "a" : "e"}&n=${i}`, agent),
  );
  let done = 0;
  for (const request of requests)
    void request.answered.then(
      () => done++,
      () => {},
    );
  await Promise.all(requests.map((request) => request.sent));
  await new Promise((resolve) => setTimeout(resolve, 100));
  const exited = new Promise<number | null>((resolve) => app.process.once("exit", (code) => resolve(code)));
  const pid = app.process.pid as number;
  process.kill(pid, "SIGTERM");
  const pendingAtSignal = 50 - done;
  // Once the server has taken the signal (its log says so), readiness is 503 and the listening
  // socket is closed: a new connection is refused, or told 503.
  await expect.poll(() => app.logs().includes("SIGTERM received"), { timeout: 10_000 }).toBe(true);
  const late = await fetch(`${url}/readyz`).then(
    (response) => response.status,
    () => "refused" as const,
  );
  expect([503, "refused"]).toContain(late);
  const answers = await Promise.all(
    requests.map((request) =>
      request.answered.catch((error: Error) => ({ status: error.message, bytes: 0 })),
    ),
  );
  if (answers.some((answer) => answer.status !== 200)) {
    console.log(
      app
        .logs()
        .split("\n")
        .filter((line) => !line.includes('"msg":"request"'))
        .join("\n"),
    );
    console.log(answers.map((answer) => answer.status).join(" "));
  }
  expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
  for (const answer of answers) expect(answer.bytes).toBeGreaterThan(1000);
  agent.destroy();
  expect(await exited).toBe(0);
  expect(
    await fetch(`${url}/healthz`).then(
      () => "answered",
      () => "refused",
    ),
  ).toBe("refused");
  console.log(`SIGTERM with ${pendingAtSignal} of 50 requests still running: all answered 200, exit 0`);
  expect(pendingAtSignal).toBeGreaterThan(0);
}

test("SIGTERM during 50 in-flight requests (embedded database): all answered, exit 0, the data folder is free again", async () => {
  test.setTimeout(120_000);
  const app = await startApp({
    buildDir: buildDir(),
    env: { SEED_DEMO_COUNT: "64", LOG_LEVEL: "info", ...LOAD_TEST_BUDGETS },
  });
  try {
    await shutdownUnderLoad(app);
  } finally {
    await app.stop();
  }
  // The database closed cleanly and gave the lock back: the next start takes the folder at once.
  const again = await startApp({ buildDir: buildDir(), dataDir: app.dataDir, env: { SEED_DEMO: "false" } });
  try {
    expect((await fetch(`${again.url}/readyz`)).status).toBe(200);
  } finally {
    await again.stop();
  }
});

test.describe("on PostgreSQL", () => {
  test.skip(!TEST_DATABASE_URL, "needs TEST_DATABASE_URL (PostgreSQL)");

  test("SIGTERM during 50 in-flight requests: all answered, exit 0", async () => {
    test.setTimeout(120_000);
    const database = await createThrowawayDatabase(TEST_DATABASE_URL as string, "cg_sigterm");
    try {
      const app = await startApp({
        buildDir: buildDir(),
        env: { DATABASE_URL: database.url, SEED_DEMO_COUNT: "64", LOG_LEVEL: "info", ...LOAD_TEST_BUDGETS },
      });
      try {
        await shutdownUnderLoad(app);
      } finally {
        await app.stop();
      }
    } finally {
      await database.drop();
    }
  });

  test("/readyz is 503 while the database is unreachable and 200 again after; /healthz stays 200", async () => {
    test.setTimeout(120_000);
    const database = await createThrowawayDatabase(TEST_DATABASE_URL as string, "cg_ready");
    const target = new URL(database.url);
    const proxy = await cuttableProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const throughProxy = new URL(database.url);
    throughProxy.port = String(proxy.port);
    let app: RunningApp | undefined;
    try {
      app = await startApp({
        buildDir: buildDir(),
        env: { DATABASE_URL: throughProxy.toString(), SEED_DEMO_COUNT: "8", LOG_LEVEL: "info" },
      });
      const { url } = app;
      const helper = await openDatabase({ kind: "postgres", url: database.url });
      await orderableSizes(helper.db, 1);
      await helper.close();
      expect((await fetch(`${url}/readyz`)).status).toBe(200);

      await proxy.cut();
      await expect(async () => {
        const ready = await fetch(`${url}/readyz`);
        expect(ready.status).toBe(503);
        expect(await ready.json()).toMatchObject({ database: "unreachable" });
      }).toPass({ timeout: 10_000 });
      for (let i = 0; i < 5; i++) {
        const health = await fetch(`${url}/healthz`);
        expect(health.status).toBe(200);
        expect((await fetch(`${url}/readyz`)).status).toBe(503);
        // The scrape still answers without the database.
        expect((await fetch(`${url}/metrics`)).status).toBe(200);
      }

      await proxy.restore();
      const back = Date.now();
      let seconds = 0;
      for (;;) {
        const ready = await fetch(`${url}/readyz`);
        if (ready.status === 200) break;
        expect((await fetch(`${url}/healthz`)).status).toBe(200);
        expect(Date.now() - back).toBeLessThan(15_000);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      seconds = (Date.now() - back) / 1000;
      console.log(`/readyz 200 again ${seconds.toFixed(2)} s after the database came back`);
      expect(seconds).toBeLessThanOrEqual(5);
    } finally {
      await app?.stop();
      await proxy.cut().catch(() => {});
      await database.drop();
    }
  });
});

/** The server process's open file descriptors: all of them, and its sockets. */
function descriptors(pid: number) {
  let sockets = 0;
  let all = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith("socket:")) sockets++;
      all++;
    } catch {}
  }
  return { all, sockets };
}

function idleSocket(url: string) {
  const { hostname, port } = new URL(url);
  return new Promise<Socket>((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.on("error", reject);
  });
}

test("MAX_CONNECTIONS: 300 idle sockets from one address hold at most 50; /healthz and an order still work; nothing leaks", async () => {
  test.setTimeout(180_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), "cg-connections-"));
  const seeding = await openDatabase({ kind: "pglite", dataDir, lockOwner: "the test" });
  await seedDemoCatalogue(seeding.db, { count: 8 });
  const [size] = await orderableSizes(seeding.db, 1);
  await seeding.close();
  if (!size) throw new Error("no orderable size in the demo catalogue");
  const app = await startApp({
    buildDir: buildDir(),
    dataDir,
    env: { SEED_DEMO: "false", MAX_CONNECTIONS: "50", LOG_LEVEL: "info", ...LOAD_TEST_BUDGETS },
  });
  const sockets: Socket[] = [];
  try {
    const pid = app.process.pid as number;
    expect((await fetch(`${app.url}/shop`)).status).toBe(200);
    // A first order opens the database files an order needs (the embedded database keeps them).
    expect(await postOrder(app.url, size, 1)).toHaveProperty("token");
    // Undici keeps its connection for a few seconds: the baseline is taken without it.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const baseline = descriptors(pid);
    let mostSockets = 0;
    for (let i = 0; i < 300; i++) {
      const socket = await idleSocket(app.url);
      socket.on("error", () => {});
      sockets.push(socket);
      if (i % 10 === 9) mostSockets = Math.max(mostSockets, descriptors(pid).sockets);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    mostSockets = Math.max(mostSockets, descriptors(pid).sockets);
    // Without the cap all 300 stay open (the process's own sockets, the listener, come on top).
    expect(mostSockets - baseline.sockets).toBeLessThanOrEqual(50);
    expect(sockets.filter((socket) => !socket.destroyed && !socket.readableEnded).length).toBeLessThanOrEqual(
      60,
    );
    // A new client is served while the flood's sockets stay open.
    const started = Date.now();
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2_000);
    for (const socket of sockets) socket.destroy();
    // The shop's own database work after the flood: an order, with its ID photo.
    const placed = await postOrder(app.url, size, 2);
    expect(placed, JSON.stringify(placed).slice(0, 300)).toHaveProperty("token");
    await expect
      .poll(() => descriptors(pid).sockets, { timeout: 20_000, message: "sockets back to the baseline" })
      .toBeLessThanOrEqual(baseline.sockets);
    expect(descriptors(pid).all).toBeLessThanOrEqual(baseline.all + 8);
    expect(app.logs()).toMatch(/"level":"warn".*"msg":"Near MAX_CONNECTIONS: closed idle connections"/);
  } finally {
    for (const socket of sockets) socket.destroy();
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
