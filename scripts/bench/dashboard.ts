/**
 * The admin dashboard's data at 100 and at 100,000 orders (target: within 2× of each other).
 * Each size gets a fresh database (PGlite in memory, and PostgreSQL when BENCH_DATABASE_URL or
 * TEST_DATABASE_URL is set), filled with orders spread over a year with the running totals that
 * placeOrder keeps, then `getDashboardStats()` (and the first and a deep page of incoming orders)
 * is timed: 10 warm-up calls, then the median of 50.
 *
 *   npx node scripts/bench/dashboard.ts            (or: npm run bench -- --only=dashboard)
 */
import { sql } from "drizzle-orm";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { getDashboardStats, listOrders } from "#app/features/orders/admin-orders.server.ts";
import { getTodayFigures } from "#app/features/orders/day-board.server.ts";
import { STORE_TIME_ZONE } from "#app/utils/store-time.ts";
import { openInThrowawaySchema } from "../../tests/support/throwaway-schema.ts";

const SIZES = [100, 100_000];
const WARMUP = 10;
const RUNS = 50;

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

async function fill(handle: DatabaseHandle, orders: number) {
  const { db } = handle;
  await db.execute(sql`INSERT INTO products (id, name, description, category) VALUES
    ('00000000-0000-4000-8000-000000000001', 'Bench Kush', 'Bench', 'Flower')`);
  await db.execute(sql`INSERT INTO product_sizes (id, product_id, size, price_cents, inventory_count) VALUES
    ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', '3.5g', 4500, 1000000)`);
  // Orders over the last 365 days; 85 % delivered, the rest pending, confirmed or cancelled.
  await db.execute(sql`
    INSERT INTO orders (public_token, idempotency_key, status, user_email, customer_name, phone, street, city,
      state, zip_code, delivery_address, delivery_date, delivery_time, total_amount_cents, product_id, quantity,
      created_at, updated_at, status_changed_at)
    SELECT md5('t' || i), md5('k' || i),
      CASE WHEN i % 20 < 17 THEN 'delivered' WHEN i % 20 = 17 THEN 'pending' WHEN i % 20 = 18 THEN 'confirmed' ELSE 'cancelled' END,
      'c' || i || '@example.com', 'Customer ' || i, '2025550100', '1 Main St', 'Washington', 'DC', '20001',
      '1 Main St, Washington, DC 20001',
      ((now() - ((i::double precision / ${orders}) * interval '365 days')) AT TIME ZONE ${STORE_TIME_ZONE})::date,
      '12:00 PM-2:00 PM', 9000 + (i % 50) * 100,
      '00000000-0000-4000-8000-000000000001', 2,
      now() - ((i::double precision / ${orders}) * interval '365 days'),
      now() - ((i::double precision / ${orders}) * interval '365 days'),
      now() - ((i::double precision / ${orders}) * interval '365 days')
    FROM generate_series(1, ${orders}) AS i`);
  await db.execute(sql`
    INSERT INTO order_items (order_id, product_id, product_size_id, product_name, size_label, quantity,
      unit_price_cents, total_price_cents)
    SELECT id, product_id, '00000000-0000-4000-8000-000000000002', 'Bench Kush', '3.5g', 2,
      total_amount_cents / 2, total_amount_cents - total_amount_cents / 2
    FROM orders`);
  // The running totals placeOrder and setOrderStatus keep (revenue without cancelled orders).
  await db.execute(sql`
    INSERT INTO order_daily_stats (day, orders_count, revenue_cents)
    SELECT (created_at AT TIME ZONE ${STORE_TIME_ZONE})::date, count(*),
      coalesce(sum(total_amount_cents) FILTER (WHERE status <> 'cancelled'), 0)
    FROM orders GROUP BY 1`);
  await db.execute(sql`
    INSERT INTO order_status_counts (status, orders_count) SELECT status, count(*) FROM orders GROUP BY status
    ON CONFLICT (status) DO UPDATE SET orders_count = excluded.orders_count`);
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

async function measure(open: () => Promise<DatabaseHandle>, orders: number) {
  const handle = await open();
  try {
    await fill(handle, orders);
    const stats = await getDashboardStats({ executor: handle.db });
    if (stats.totalOrders !== orders)
      throw new Error(`expected ${orders} orders, the dashboard says ${stats.totalOrders}`);
    const dashboardMs = await time(() => getDashboardStats({ executor: handle.db }));
    // The 'Today' row: today's deliveries are ~1/365 of the orders.
    const todayMs = await time(() => getTodayFigures({ executor: handle.db }));
    const firstPage = await listOrders("incoming", { executor: handle.db });
    let cursor = firstPage.nextCursor;
    for (let i = 0; i < 20 && cursor; i++)
      cursor = (await listOrders("incoming", { executor: handle.db, cursor })).nextCursor;
    const firstPageMs = await time(() => listOrders("incoming", { executor: handle.db }));
    const deepPageMs = cursor
      ? await time(() => listOrders("incoming", { executor: handle.db, cursor }))
      : Number.NaN;
    return { dashboardMs, todayMs, firstPageMs, deepPageMs };
  } finally {
    await handle.close();
  }
}

async function run(label: string, open: () => Promise<DatabaseHandle>) {
  const results = [];
  for (const orders of SIZES) {
    const started = performance.now();
    const result = await measure(open, orders);
    results.push({ orders, ...result });
    say(
      `${label} ${orders.toLocaleString("en-US")} orders: dashboard ${result.dashboardMs.toFixed(2)} ms + today ${result.todayMs.toFixed(2)} ms, incoming page 1 ${result.firstPageMs.toFixed(2)} ms, page 21 ${Number.isNaN(result.deepPageMs) ? "n/a" : `${result.deepPageMs.toFixed(2)} ms`} (set-up ${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
  }
  const [small, large] = results as [(typeof results)[number], (typeof results)[number]];
  const ratio = (large.dashboardMs + large.todayMs) / (small.dashboardMs + small.todayMs);
  say(
    `${label} dashboard (with today's figures) at 100,000 orders: ${(large.dashboardMs + large.todayMs).toFixed(2)} ms vs ${(small.dashboardMs + small.todayMs).toFixed(2)} ms at 100 = ${ratio.toFixed(2)}× (target ≤ 2×) ${ratio <= 2 ? "PASS" : "FAIL"}`,
  );
  return ratio <= 2;
}

const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
let ok = await run("[pglite]", () => openDatabase({ kind: "pglite" }));
if (postgresUrl) {
  ok = (await run("[postgres]", () => openInThrowawaySchema(postgresUrl, "bench_dash"))) && ok;
} else {
  say("(set BENCH_DATABASE_URL or TEST_DATABASE_URL to measure PostgreSQL too)");
}
process.exitCode = ok ? 0 : 1;
