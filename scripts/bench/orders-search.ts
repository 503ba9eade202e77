/**
 * Finding orders at 100,000 orders: the admin list's search (`listOrders` with a
 * search text, as the page's loader calls it) timed in-process — the server's time for the list's
 * queries, without HTTP — and the CSV export of all 100,000 orders with the process's RSS sampled
 * while it streams. Each database gets a fresh copy (PGlite in memory, and PostgreSQL when
 * BENCH_DATABASE_URL or TEST_DATABASE_URL is set), filled in one statement as the dashboard bench
 * does. Prints the query plans and, last, one JSON line of figures for `npm run bench`.
 *
 *   node scripts/bench/orders-search.ts        (or: npm run bench -- --only=orders-search)
 */
import { sql } from "drizzle-orm";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { listOrders } from "#app/features/orders/admin-orders.server.ts";
import { orderFilterCondition } from "#app/features/orders/order-search.server.ts";
import { ordersCsvStream } from "#app/features/orders/orders-export.server.ts";
import { openInThrowawaySchema } from "../../tests/support/throwaway-schema.ts";

const ORDERS = 100_000;
const WARMUP = 5;
const RUNS = 30;
const SEARCH_TARGET_MS = 50;
const EXPORT_TARGET_MB = 256;

function say(message: string) {
  process.stdout.write(`${message}\n`);
}

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** 100,000 closed orders (95 % delivered, 5 % cancelled) of 100,000 different people, one item each. */
async function fill(handle: DatabaseHandle) {
  const { db } = handle;
  await db.execute(sql`INSERT INTO products (id, name, description, category) VALUES
    ('00000000-0000-4000-8000-000000000001', 'Bench Kush', 'Bench', 'Flower')`);
  await db.execute(sql`INSERT INTO product_sizes (id, product_id, size, price_cents, inventory_count) VALUES
    ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', '3.5g', 4500, 1000000)`);
  await db.execute(sql`
    INSERT INTO orders (public_token, idempotency_key, status, user_email, customer_name, phone, street, city,
      state, zip_code, delivery_address, delivery_date, delivery_time, total_amount_cents, product_id, quantity,
      created_at, updated_at, status_changed_at, cancel_reason)
    SELECT md5('t' || i), md5('k' || i),
      CASE WHEN i % 20 = 19 THEN 'cancelled' ELSE 'delivered' END,
      'c' || i || '@example.com',
      (ARRAY['Ada','Grace','Alan','Linus','Barbara','Edsger','Donald','Frances','Ken','Margaret'])[1 + i % 10]
        || ' Lastname' || i,
      '(' || (200 + i % 800) || ') 555-' || lpad((i % 10000)::text, 4, '0'),
      '1 Main St', 'Washington', 'DC', '20001', '1 Main St, Washington, DC 20001',
      (date '2026-01-01' + (i % 365)), '12:00 PM-2:00 PM', 9000 + (i % 50) * 100,
      '00000000-0000-4000-8000-000000000001', 2,
      now() - ((i::double precision / ${ORDERS}) * interval '365 days'),
      now() - ((i::double precision / ${ORDERS}) * interval '365 days'),
      now() - ((i::double precision / ${ORDERS}) * interval '365 days'),
      CASE WHEN i % 20 = 19 THEN 'Customer request' END
    FROM generate_series(1, ${ORDERS}) AS i`);
  await db.execute(sql`
    INSERT INTO order_items (order_id, product_id, product_size_id, product_name, size_label, quantity,
      unit_price_cents, total_price_cents)
    SELECT id, product_id, '00000000-0000-4000-8000-000000000002', 'Bench Kush', '3.5g', 2,
      total_amount_cents / 2, total_amount_cents - total_amount_cents / 2
    FROM orders`);
  await db.execute(sql`ANALYZE`);
}

async function time(fn: () => Promise<unknown>) {
  for (let i = 0; i < WARMUP; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

const SEARCHES = [
  { label: "phone, last 4 digits", q: "4321" },
  { label: "phone, whole number", q: "(521) 555-4321" },
  { label: "name, first name prefix", q: "grace" },
  { label: "name, last name", q: "lastname54321" },
  { label: "e-mail", q: "c54321@example.com" },
  { label: "order number", q: "#3f2a9b" },
];

/** The list's query plan for a search, with ANALYZE: the database's own planning and execution times. */
async function explain(handle: DatabaseHandle, q: string) {
  const result = await handle.db.execute(
    sql`EXPLAIN (ANALYZE, COSTS OFF) SELECT id FROM orders
      WHERE ${orderFilterCondition(["delivered", "cancelled"], { q })}
      ORDER BY created_at DESC NULLS LAST, id DESC NULLS LAST LIMIT 21`,
  );
  return (result as unknown as { rows: { "QUERY PLAN": string }[] }).rows.map((row) => row["QUERY PLAN"]);
}

async function executionMs(handle: DatabaseHandle, q: string) {
  const samples: number[] = [];
  for (let i = 0; i < 7; i++) {
    // Planning counts too: a search ORs several index paths, and the planner weighs each.
    const plan = await explain(handle, q);
    const msOf = (label: string) =>
      Number(/([\d.]+) ms/.exec(plan.find((text) => text.startsWith(label)) ?? "")?.[1] ?? Number.NaN);
    samples.push(msOf("Planning Time") + msOf("Execution Time"));
  }
  return median(samples);
}

async function measure(label: string, open: () => Promise<DatabaseHandle>) {
  const handle = await open();
  try {
    const started = performance.now();
    await fill(handle);
    say(
      `${label} ${ORDERS.toLocaleString("en-US")} orders filled in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const searches: { label: string; ms: number; dbMs: number; found: number }[] = [];
    for (const search of SEARCHES) {
      const page = await listOrders("completed", { executor: handle.db, filters: { q: search.q } });
      const ms = await time(() => listOrders("completed", { executor: handle.db, filters: { q: search.q } }));
      const dbMs = await executionMs(handle, search.q);
      searches.push({ label: search.label, ms, dbMs, found: page.orders.length });
      say(
        `${label} search ${search.label} (${JSON.stringify(search.q)}): ${ms.toFixed(2)} ms for the page (orders + items), list query ${dbMs.toFixed(2)} ms inside the database (planning + execution), ${page.orders.length} on page 1`,
      );
    }
    for (const q of ["4321", "grace"]) {
      say(`${label} plan of the search ${JSON.stringify(q)}:\n  ${(await explain(handle, q)).join("\n  ")}`);
    }

    // The export of every order, streamed: RSS sampled at every chunk.
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    let bytes = 0;
    let lines = 0;
    const exportStarted = performance.now();
    const reader = ordersCsvStream("completed", {}, { executor: handle.db }).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      for (const byte of value) if (byte === 10) lines += 1;
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    const exportSeconds = (performance.now() - exportStarted) / 1000;
    const growthMb = (peak - before) / 1024 / 1024;
    if (lines - 1 !== ORDERS) throw new Error(`the export has ${lines - 1} rows, not ${ORDERS}`);
    say(
      `${label} CSV export of ${ORDERS.toLocaleString("en-US")} orders: ${(bytes / 1024 / 1024).toFixed(1)} MB in ${exportSeconds.toFixed(1)} s, RSS growth ${growthMb.toFixed(1)} MB (target ≤ ${EXPORT_TARGET_MB} MB)`,
    );
    return { searches, slowestMs: Math.max(...searches.map((s) => s.ms)), growthMb, exportSeconds };
  } finally {
    await handle.close();
  }
}

const results: Record<string, Awaited<ReturnType<typeof measure>>> = {};
results.pglite = await measure("[pglite]", () => openDatabase({ kind: "pglite" }));
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (postgresUrl) {
  results.postgres = await measure("[postgres]", () => openInThrowawaySchema(postgresUrl, "bench_search"));
} else {
  say("(set BENCH_DATABASE_URL or TEST_DATABASE_URL to measure PostgreSQL too)");
}
const ok = Object.values(results).every(
  (result) => result.slowestMs <= SEARCH_TARGET_MS && result.growthMb <= EXPORT_TARGET_MB,
);
say(`ORDERS_SEARCH_JSON ${JSON.stringify(results)}`);
process.exitCode = ok ? 0 : 1;
