/**
 * Where a refused checkout post's CPU goes: posts with a 24-megapixel photo and a sold-out size,
 * as `npm run bench -- --only=refusals` sends them, to /checkout (no JavaScript) or /checkout.data.
 * Prints the server's CPU per post and, with --cpu-prof, a V8 CPU profile of the timed posts
 * summarised by package, by function (self time) and by function including what it calls.
 *
 *   node scripts/bench/refusal-profile.ts [--posts=60] [--path=/checkout] [--cpu-prof] [--rounds=N] [--warm-up=5] [--no-build]
 *
 * Uses the bench build (BENCH_BUILD_DIR); builds it unless --no-build.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { openDatabase } from "#app/db/client.server.ts";
import { MIN_ORDER_CENTS } from "#app/features/cart/cart.ts";
import { availableSlots, deliveryOptions } from "#app/features/delivery/delivery-slots.ts";
import { orderFields } from "#tests/support/checkout-test-helpers.server.ts";
import { buildApp, cpuSeconds, createDataSet, say, startServer } from "./lib.ts";

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const flag = (name: string) => process.argv.includes(`--${name}`);
const POSTS = Number(arg("posts") ?? 60);
const pathname = arg("path") ?? "/checkout";
const ROUNDS = Number(arg("rounds") ?? 0);
const profileDir = flag("cpu-prof") ? mkdtempSync(path.join(tmpdir(), "cg-refusal-prof-")) : null;

if (!flag("no-build")) buildApp();
const data = await createDataSet({ count: 60 });
const handle = await openDatabase({
  kind: "pglite",
  dataDir: data.env.DATA_DIR as string,
  lockOwner: "refusal profile",
});
const sizes = (
  (await handle.db.execute(
    sql.raw(
      "SELECT s.id, s.product_id, s.price_cents, s.sale_price_cents FROM product_sizes s JOIN products p ON p.id = s.product_id WHERE p.archived_at IS NULL ORDER BY s.id LIMIT 1",
    ),
  )) as unknown as {
    rows: Array<{ id: string; product_id: string; price_cents: number; sale_price_cents: number | null }>;
  }
).rows;
const soldOut = sizes[0];
if (!soldOut) throw new Error("no size");
await handle.db.execute(sql.raw(`UPDATE product_sizes SET inventory_count = 0 WHERE id = '${soldOut.id}'`));
await handle.close();

const noise = await sharp({
  create: {
    width: 1500,
    height: 1000,
    channels: 3,
    background: "#808080",
    noise: { type: "gaussian", mean: 128, sigma: 40 },
  },
})
  .png()
  .toBuffer();
const photo = new Uint8Array(
  await sharp(noise).resize(6000, 4000, { kernel: "cubic" }).jpeg({ quality: 80 }).toBuffer(),
);

let windowUs: [number, number] = [0, 0];
const nodeOptions = [profileDir ? `--cpu-prof --cpu-prof-dir=${profileDir}` : "", arg("node-options") ?? ""]
  .join(" ")
  .trim();
const server = await startServer(data, nodeOptions ? { NODE_OPTIONS: nodeOptions } : {});
try {
  const now = new Date();
  const { defaultDate } = deliveryOptions(now);
  const slot = availableSlots(defaultDate, now)[0] ?? "";
  const unit = soldOut.sale_price_cents ?? soldOut.price_cents;
  const line = {
    productId: soldOut.product_id,
    sizeId: soldOut.id,
    quantity: Math.max(1, Math.ceil(MIN_ORDER_CENTS / unit)),
  };
  const statuses = new Map<number, number>();
  const post = async (to: string) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(
      orderFields([line], { deliveryDate: defaultDate, timeSlot: slot }, now),
    )) {
      form.append(key, value);
    }
    form.append("idFront", new File([photo as BlobPart], "id.jpg", { type: "image/jpeg" }));
    const response = await fetch(`${server.url}${to}`, { method: "POST", body: form, redirect: "manual" });
    await response.arrayBuffer();
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  };
  const timed = async (to: string, count: number) => {
    const before = cpuSeconds(server.pid);
    let next = 0;
    await Promise.all(
      Array.from({ length: 2 }, async () => {
        while (next++ < count) await post(to);
      }),
    );
    return ((cpuSeconds(server.pid) - before) * 1000) / count;
  };
  const warmUp = Number(arg("warm-up") ?? 5);
  for (let i = 0; i < warmUp; i++) await post(pathname);
  if (ROUNDS > 0) {
    // Both paths in turn on one warm server: CPU per post of each, round by round.
    await timed("/checkout.data", warmUp);
    for (let round = 0; round < ROUNDS; round++) {
      const page = await timed("/checkout", POSTS);
      const data = await timed("/checkout.data", POSTS);
      say(
        `round ${round + 1}: /checkout ${page.toFixed(2)} ms/post, /checkout.data ${data.toFixed(2)} ms/post`,
      );
    }
    say(`statuses: ${[...statuses].map(([s, c]) => `${s}: ${c}`).join(", ")}`);
  } else {
    statuses.clear();
    windowUs = [Number(process.hrtime.bigint() / 1000n), 0];
    const perPost = await timed(pathname, POSTS);
    windowUs[1] = Number(process.hrtime.bigint() / 1000n);
    say(`${POSTS} posts to ${pathname}: ${[...statuses].map(([s, c]) => `${s}: ${c}`).join(", ")}`);
    say(`server CPU per post: ${perPost.toFixed(2)} ms`);
  }
} finally {
  await server.stop();
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
  let at = profile.startTime;
  const inWindow = profile.timeDeltas.map((delta) => {
    at += delta;
    return at >= windowUs[0] && at <= windowUs[1];
  });
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const name = (node: Node) => {
    const url = node.callFrame.url;
    const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1];
    const where = pkg ?? (url ? path.basename(url) : "");
    return `${node.callFrame.functionName || "(anonymous)"} ${where}:${node.callFrame.lineNumber + 1}`;
  };
  const group = (node: Node) => {
    const url = node.callFrame.url;
    if (!url) return node.callFrame.functionName || "(native)";
    return (
      url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ??
      (url.startsWith("node:") ? url : path.basename(url))
    );
  };
  const self = new Map<string, number>();
  const byGroup = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    if (!inWindow[index]) return;
    const delta = profile.timeDeltas[index] ?? 0;
    total += delta;
    const node = byId.get(id) as Node;
    self.set(name(node), (self.get(name(node)) ?? 0) + delta);
    byGroup.set(group(node), (byGroup.get(group(node)) ?? 0) + delta);
    const seen = new Set<string>();
    for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
      const n = name(byId.get(current) as Node);
      if (seen.has(n)) continue;
      seen.add(n);
      inclusive.set(n, (inclusive.get(n) ?? 0) + delta);
    }
  });
  const show = (title: string, map: Map<string, number>, count: number) => {
    say(`\n${title}`);
    for (const [key, time] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count)) {
      say(
        `  ${(time / 1000 / POSTS).toFixed(2).padStart(7)} ms/post ${((time / total) * 100).toFixed(1).padStart(5)} %  ${key}`,
      );
    }
  };
  say(`\nprofiled JavaScript thread: ${(total / 1000 / POSTS).toFixed(2)} ms per post`);
  show("self time by package / file", byGroup, 20);
  show("self time by function", self, 30);
  show("time including callees", inclusive, 60);
}
