/**
 * Where one order's CPU goes: the order post of `npm run bench -- --only=orders` (ID photo sent
 * ahead, 8 concurrent posts to /checkout.data), with the CPU of the server process, of this client
 * and — on PostgreSQL — of the server's database backends counted separately, per order, and the
 * database round trips per order (transactions committed on the bench database: every statement
 * the shop sends outside a transaction is one). With `--cpu-prof` the server writes a V8 CPU
 * profile, summarised by package and by function (self time).
 *
 *   node scripts/bench/order-profile.ts [--pg=postgres://postgres@127.0.0.1:5432/test] [--seconds=8] [--cpu-prof] [--no-build] [--client=fetch]
 *
 * The posts go through the bench's keep-alive `http` client (`formPoster`, as `npm run bench`);
 * `--client=fetch` posts with `fetch` instead, to compare what the client itself costs.
 *
 * Uses the bench build (node_modules/.cache/capital-grown/bench-build); builds it unless --no-build.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import sharp from "sharp";
import { availableSlots, deliveryOptions } from "#app/features/delivery/delivery-slots.ts";
import { orderFields } from "#tests/support/checkout-test-helpers.server.ts";
import { buildApp, cpuSeconds, createDataSet, formPoster, say, startServer } from "./lib.ts";

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const flag = (name: string) => process.argv.includes(`--${name}`);
const pgUrl = arg("pg");
const SECONDS = Number(arg("seconds") ?? 8);
const CONCURRENCY = Number(arg("concurrency") ?? 8);
const profileDir = flag("cpu-prof") ? mkdtempSync(path.join(tmpdir(), "cg-order-prof-")) : null;

if (!flag("no-build")) buildApp();
const data = await createDataSet({ count: 60, postgresUrl: pgUrl });
const database = data.env.DATABASE_URL
  ? new pg.Pool({ connectionString: data.env.DATABASE_URL, max: 2 })
  : null;
const dbName = data.env.DATABASE_URL ? new URL(data.env.DATABASE_URL).pathname.slice(1) : null;
if (database) await database.query("UPDATE product_sizes SET inventory_count = 1000000");

let windowUs: [bigint, bigint] = [0n, 0n];
const extraEnv = Object.fromEntries(
  process.argv.filter((a) => a.startsWith("--env=")).map((a) => a.slice(6).split(/=(.*)/s).slice(0, 2)),
);
const server = await startServer(data, {
  ...extraEnv,
  ...(profileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` } : {}),
});
try {
  const png = await sharp({ create: { width: 480, height: 300, channels: 3, background: "#2f7553" } })
    .png()
    .toBuffer();
  const shop = await (await fetch(`${server.url}/shop`)).text();
  void shop;
  const now = new Date();
  const { defaultDate } = deliveryOptions(now);
  const slot = availableSlots(defaultDate, now)[0] ?? "";
  const sizes = database
    ? (
        await database.query<{
          id: string;
          product_id: string;
          price_cents: number;
          sale_price_cents: number | null;
        }>(
          "SELECT s.id, s.product_id, s.price_cents, s.sale_price_cents FROM product_sizes s JOIN products p ON p.id = s.product_id WHERE p.archived_at IS NULL ORDER BY s.id",
        )
      ).rows
    : null;
  if (!sizes) throw new Error("order-profile needs --pg (PGlite's folder is locked by the server)");

  async function uploadPhoto() {
    const form = new FormData();
    form.append("idFront", new File([new Uint8Array(png)], "id.png", { type: "image/png" }));
    const response = await fetch(`${server.url}/api/id-photo`, { method: "POST", body: form });
    return ((await response.json()) as { token: string }).token;
  }
  const tokens: string[] = [];
  async function fill(count: number) {
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (tokens.length < count) tokens.push(await uploadPhoto());
      }),
    );
  }
  const poster = formPoster(server.url, CONCURRENCY);
  let next = 0;
  async function post() {
    const size = sizes?.[next++ % sizes.length] as NonNullable<typeof sizes>[number];
    const unit = size.sale_price_cents ?? size.price_cents;
    const quantity = Math.min(999, Math.max(1, Math.ceil(8000 / Math.max(unit, 1))));
    const fields = orderFields(
      [{ productId: size.product_id, sizeId: size.id, quantity }],
      {
        deliveryDate: defaultDate,
        timeSlot: slot,
        _client: "js",
      },
      now,
    );
    // As the checkout page posts with the photo sent ahead (urlencoded); --multipart: as before.
    const token = tokens.pop() ?? (await uploadPhoto());
    let form: FormData | URLSearchParams = new URLSearchParams({ ...fields, idPhotoToken: token });
    if (flag("multipart")) {
      form = new FormData();
      for (const [key, value] of Object.entries(fields)) form.append(key, value);
      form.append("idPhotoToken", token);
    }
    if (form instanceof URLSearchParams && arg("client") !== "fetch") {
      const { status, text } = await poster.post("/checkout.data", form);
      return status === 200 && text.includes("token");
    }
    const response = await fetch(`${server.url}/checkout.data`, { method: "POST", body: form });
    const text = await response.text();
    return response.status === 200 && text.includes("token");
  }

  /** CPU seconds of each thread of the server, grouped by thread name (main = the JavaScript thread). */
  function threads() {
    const byName = new Map<string, number>();
    for (const tid of readdirSync(`/proc/${server.pid}/task`)) {
      try {
        const stat = readFileSync(`/proc/${server.pid}/task/${tid}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        const name =
          Number(tid) === server.pid
            ? "main"
            : readFileSync(`/proc/${server.pid}/task/${tid}/comm`, "utf8").trim();
        byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
      } catch {}
    }
    return byName;
  }

  async function backends() {
    if (!database || !dbName) return { cpu: 0, commits: 0 };
    const { rows } = await database.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
      [dbName],
    );
    let cpu = 0;
    for (const { pid } of rows) {
      try {
        cpu += cpuSeconds(pid);
      } catch {}
    }
    await database.query("SELECT pg_stat_clear_snapshot()");
    const stats = await database.query<{ commits: string }>(
      "SELECT xact_commit + xact_rollback AS commits FROM pg_stat_database WHERE datname = $1",
      [dbName],
    );
    return { cpu, commits: Number(stats.rows[0]?.commits ?? 0) };
  }

  // Warm-up: JIT, pools, prepared plans.
  await fill(300);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = 0; i < 20; i++) await post();
    }),
  );
  await fill(Math.ceil(SECONDS * Number(arg("rate") ?? 800)));
  say(`${tokens.length} photos sent ahead; posting for ${SECONDS} s at ${CONCURRENCY} concurrent`);
  // The stats collector flushes at most once a second: let it settle before and after.
  await new Promise((r) => setTimeout(r, 1500));
  const before = {
    threads: threads(),
    server: cpuSeconds(server.pid),
    client: process.cpuUsage(),
    db: await backends(),
  };
  windowUs = [process.hrtime.bigint() / 1000n, 0n];
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  let ok = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) (await post()) ? ok++ : failed++;
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  windowUs[1] = process.hrtime.bigint() / 1000n;
  if (tokens.length === 0)
    say("(the photos sent ahead ran out: some posts uploaded their own; raise --rate)");
  const serverCpu = cpuSeconds(server.pid) - before.server;
  const threadsAfter = threads();
  const client = process.cpuUsage(before.client);
  await new Promise((r) => setTimeout(r, 1500));
  const after = await backends();
  const orders = ok + failed;
  const ms = (seconds: number) => ((seconds * 1000) / orders).toFixed(2);
  say(`${ok} orders (${failed} refused) in ${elapsed.toFixed(1)} s = ${(ok / elapsed).toFixed(1)} orders/s`);
  say(`server CPU per order:   ${ms(serverCpu)} ms`);
  for (const [name, seconds] of threadsAfter) {
    const spent = seconds - (before.threads.get(name) ?? 0);
    if (spent > 0) say(`  ${name.padEnd(20)} ${ms(spent)} ms`);
  }
  say(`client CPU per order:   ${ms((client.user + client.system) / 1e6)} ms`);
  if (database) {
    say(`database CPU per order: ${ms(after.cpu - before.db.cpu)} ms (the server's backends)`);
    // Minus the two statements of backends() itself between the snapshots.
    say(`transactions per order: ${((after.commits - before.db.commits - 4) / orders).toFixed(2)}`);
  }
  poster.close();
} finally {
  await server.stop();
  await database?.end();
  await data.dispose();
}

if (profileDir) {
  type Node = {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  };
  const file = readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"));
  if (!file) throw new Error("no CPU profile written");
  const profile = JSON.parse(readFileSync(path.join(profileDir, file), "utf8")) as {
    nodes: Node[];
    samples: number[];
    timeDeltas: number[];
    startTime: number;
  };
  // Only the samples taken during the timed posts (V8's clock and hrtime are both CLOCK_MONOTONIC).
  let at = profile.startTime;
  const inWindow = profile.timeDeltas.map((delta) => {
    at += delta;
    return at >= Number(windowUs[0]) && at <= Number(windowUs[1]);
  });
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    if (inWindow[index]) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const group = (node: Node) => {
    const url = node.callFrame.url;
    if (!url) return node.callFrame.functionName || "(native)";
    const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
    if (pkg) return pkg[1] as string;
    if (url.startsWith("node:")) return url;
    return path.relative(process.cwd(), url.replace("file://", ""));
  };
  const byGroup = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, time] of self) {
    const node = byId.get(id) as Node;
    const g = group(node);
    byGroup.set(g, (byGroup.get(g) ?? 0) + time);
    const f = `${node.callFrame.functionName || "(anonymous)"} ${g}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(f, (byFunction.get(f) ?? 0) + time);
  }
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `  ${((v / total) * 100).toFixed(1).padStart(5)}%  ${k}`);
  say(`window ${windowUs[0]} ${windowUs[1]}`);
  say(
    `CPU profile ${path.join(profileDir, file)} (the timed posts only, self time; ${(total / 1000).toFixed(0)} ms sampled):`,
  );
  say(top(byGroup, 30).join("\n"));
  say("Top functions:");
  say(top(byFunction, 40).join("\n"));
}
