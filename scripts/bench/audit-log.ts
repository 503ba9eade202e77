/**
 * The audit log at 1,000,000 events: the owners' filtered page (`listAuditEvents`, as
 * the /admin/audit loader calls it) timed in-process at 1,000 events and again after the table grew
 * to 1,000,000 (inserted with generate_series, then ANALYZE); the figure is the slowest filter's
 * time at 1,000,000 ÷ its time at 1,000 (target ≤ 3×). PostgreSQL when BENCH_DATABASE_URL or
 * TEST_DATABASE_URL is set, else PGlite in memory. Prints the plans and, last, one JSON line.
 *
 *   node scripts/bench/audit-log.ts        (or: npm run bench -- --only=audit)
 */
import { sql } from "drizzle-orm";
import { type DatabaseHandle, openDatabase, setDatabaseHandle } from "#app/db/client.server.ts";
import { verifyAuditChain, verifyAuditChainSinceCheckpoint } from "#app/features/audit/audit-chain.server.ts";
import { type AuditFilters, auditRowsQuery, listAuditEvents } from "#app/features/audit/audit-log.server.ts";
import { openInThrowawaySchema } from "../../tests/support/throwaway-schema.ts";
import { median, say } from "./lib.ts";

const WARMUP = 5;
const RUNS = 40;
const TARGET = 3;

/**
 * Events `from`..`to` (1-based): 10 staff members, 10 common actions and a rare one (60 events in
 * 10,000), 40 targets, so that at 1,000 events too every filter fills its page of 50 (the ratio
 * compares full pages); one event every 30 seconds back from now (a million events span about a
 * year, as a 400-day retention keeps).
 */
async function fill(handle: DatabaseHandle, from: number, to: number) {
  await handle.db.execute(sql`
    INSERT INTO audit_events (created_at, actor_id, actor_email, actor_role, action, target_type, target_id, details, ip_address, request_id)
    SELECT now() - n * interval '30 seconds',
      ('00000000-0000-4000-8000-0000000000' || lpad((n % 10)::text, 2, '0'))::uuid,
      'staff' || (n % 10) || '@shop.example', 'manager',
      CASE WHEN n % 10000 < 60 THEN 'staff.role_changed' ELSE (ARRAY['id_photo.viewed','order.status_changed','product.price_changed','stock.changed','orders.exported',
        'product.updated','order.driver_assigned','settings.delivery_changed','order.reopened','product.created',
        'catalogue.exported','settings.limits_changed','product.deleted','settings.zone_saved','audit.exported',
        'catalogue.imported','settings.closure_added','settings.closure_removed','sign_in.succeeded','sign_in.failed'])[1 + n % 10] END,
      'order', 'order-' || (n % 40), '{"from":"confirmed","to":"out_for_delivery"}'::jsonb, '10.0.0.1', 'bench'
    FROM generate_series(${from}::int, ${to}::int) AS n`);
  await handle.db.execute(sql`ANALYZE audit_events`);
}

const FILTERS: { label: string; filters: AuditFilters }[] = [
  { label: "action", filters: { action: "id_photo.viewed" } },
  { label: "rare action", filters: { action: "staff.role_changed" } },
  { label: "actor", filters: { actor: "00000000-0000-4000-8000-000000000007" } },
  { label: "target", filters: { targetType: "order", targetId: "order-12" } },
  { label: "date range", filters: { from: "2020-01-01", to: "2100-12-31" } },
  {
    label: "actor + action",
    filters: { actor: "00000000-0000-4000-8000-000000000003", action: "stock.changed" },
  },
];

async function timeFilters(handle: DatabaseHandle) {
  const times: Record<string, number> = {};
  for (const { label, filters } of FILTERS) {
    for (let i = 0; i < WARMUP; i++) await listAuditEvents(filters, { executor: handle.db });
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      const page = await listAuditEvents(filters, { executor: handle.db });
      samples.push(performance.now() - started);
      if (page.events.length === 0) throw new Error(`the ${label} filter found nothing`);
    }
    times[label] = median(samples);
  }
  return times;
}

/**
 * The hash chain (record 036) at 1,000,000 events: the whole walk (`npm run audit:verify`, the daily
 * digest) and the audit page's walk from its checkpoint over the last 1,000 events.
 */
async function timeChain(handle: DatabaseHandle, label: string) {
  let started = performance.now();
  const full = await verifyAuditChain(handle.db);
  const fullMs = performance.now() - started;
  if (!full.ok || full.checked !== 1_000_000)
    throw new Error(`the chain did not verify: ${JSON.stringify(full)}`);
  await handle.db.execute(sql`UPDATE audit_chain SET verified_id = ${Number(full.verifiedUpTo) - 1000},
    verified_hash = (SELECT hash FROM audit_events WHERE id = ${Number(full.verifiedUpTo) - 1000})`);
  started = performance.now();
  const since = await verifyAuditChainSinceCheckpoint();
  const sinceMs = performance.now() - started;
  if (since.broken || since.verifiedUpTo !== full.verifiedUpTo) throw new Error("the checkpoint walk failed");
  say(
    `${label} chain: whole walk of 1,000,000 events ${(fullMs / 1000).toFixed(1)} s; the page's walk of the last 1,000 ${sinceMs.toFixed(0)} ms`,
  );
  return { fullWalkMs: Math.round(fullMs), lastThousandMs: Math.round(sinceMs) };
}

async function plan(handle: DatabaseHandle, filters: AuditFilters) {
  const result = await handle.db.execute(sql`EXPLAIN ${auditRowsQuery(handle.db, filters, null, 51)}`);
  return (result as unknown as { rows: { "QUERY PLAN": string }[] }).rows.map((row) => row["QUERY PLAN"]);
}

async function measure(label: string, open: () => Promise<DatabaseHandle>) {
  const handle = await open();
  setDatabaseHandle(handle);
  try {
    await fill(handle, 1, 1000);
    const small = await timeFilters(handle);
    const started = performance.now();
    await fill(handle, 1001, 1_000_000);
    say(`${label} 999,000 more events in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const large = await timeFilters(handle);
    const ratios = Object.fromEntries(
      FILTERS.map(({ label: kind }) => [kind, (large[kind] as number) / (small[kind] as number)]),
    );
    for (const { label: kind, filters } of FILTERS) {
      say(
        `${label} ${kind}: ${(small[kind] as number).toFixed(2)} ms at 1,000, ${(large[kind] as number).toFixed(2)} ms at 1,000,000 (×${(ratios[kind] as number).toFixed(2)})`,
      );
      say(`  ${(await plan(handle, filters)).join("\n  ")}`);
    }
    const slowest = Object.entries(ratios).sort((a, b) => b[1] - a[1])[0] as [string, number];
    const chain = await timeChain(handle, label);
    return { small, large, ratios, slowest: { filter: slowest[0], ratio: slowest[1] }, chain };
  } finally {
    await handle.close();
  }
}

const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const results = postgresUrl
  ? { postgres: await measure("[postgres]", () => openInThrowawaySchema(postgresUrl, "bench_audit")) }
  : { pglite: await measure("[pglite]", () => openDatabase({ kind: "pglite" })) };
say(`AUDIT_LOG_JSON ${JSON.stringify({ target: TARGET, results })}`);
