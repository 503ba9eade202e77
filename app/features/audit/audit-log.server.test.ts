import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { auditEvents } from "#app/db/schema.ts";
import { createProduct, getAdminProduct, updateProduct } from "#app/features/catalog/product-admin.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { productFormInput } from "#tests/support/admin-fixtures.server.ts";
import type { AuditBy } from "./audit.server.ts";
import { auditRowsQuery, listAuditEvents, orderHistories } from "./audit-log.server.ts";
import { purgeAuditEvents } from "./audit-retention.server.ts";

const OWNER: AuditBy = {
  actor: { userId: null, email: "owner@shop.example", role: "owner" },
  origin: { ipAddress: "10.0.0.1", requestId: "req-1" },
};

function productInput(price: number, version?: number, sizeId?: string) {
  return productFormInput(
    "Audit Haze",
    [{ id: sizeId, size: "3.5g", price, stock: 10, received: 5, flowerEquivalent: "3.5" }],
    version === undefined ? {} : { version: String(version) },
  );
}

/** The database's own message of a refused statement (drizzle wraps it in 'Failed query: …'). */
async function refusal(statement: Promise<unknown>) {
  try {
    await statement;
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause;
    return cause?.message ?? (error as Error).message;
  }
  return "not refused";
}

describeEachDatabase("the audit log", (database) => {
  it("refuses UPDATE, DELETE and TRUNCATE from the app's own database user", async () => {
    const { db } = database();
    await db.insert(auditEvents).values({ action: "test.kept", actorEmail: "a@shop.example" });
    expect(await refusal(db.execute(sql`UPDATE audit_events SET action = 'test.changed'`))).toMatch(
      /audit_events is append-only \(UPDATE refused\)/,
    );
    expect(await refusal(db.execute(sql`DELETE FROM audit_events`))).toMatch(
      /append-only \(DELETE refused\)/,
    );
    expect(await refusal(db.execute(sql`TRUNCATE audit_events`))).toMatch(/append-only \(TRUNCATE refused\)/);
    const kept = await db.select().from(auditEvents).where(eq(auditEvents.action, "test.kept"));
    expect(kept).toHaveLength(1);
  });

  it("purges only the events older than the retention, and never below 30 days", async () => {
    const { db } = database();
    // The purge deletes a prefix of the hash chain (record 036): an empty log to start from.
    await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT set_config('capital_grown.audit_purge', 'on', true)`);
      await tx.execute(sql`DELETE FROM audit_events`);
    });
    await db.execute(sql`
      INSERT INTO audit_events (action, created_at) VALUES
        ('test.old', now() - interval '401 days'),
        ('test.young', now() - interval '399 days'),
        ('test.old-after-young', now() - interval '402 days')`);
    expect(await purgeAuditEvents(400)).toBe(1);
    const left = await db.select({ action: auditEvents.action }).from(auditEvents);
    expect(left.map((row) => row.action)).toContain("test.young");
    expect(left.map((row) => row.action)).not.toContain("test.old");
    // Recorded after a younger event: it goes with the first purge after that one's time.
    expect(left.map((row) => row.action)).toContain("test.old-after-young");
    expect(left.map((row) => row.action)).toContain("audit.purged");
    expect(await refusal(purgeAuditEvents(29))).toMatch(/at least 30 days/);
  });

  it("records a price change with the old and new price of each size, in the save's transaction", async () => {
    const { db } = database();
    const { id } = await createProduct(productInput(30), { audit: OWNER });
    const product = await getAdminProduct(id);
    const sizeId = product?.sizes[0]?.id as string;
    const saved = await updateProduct(id, productInput(35, product?.version, sizeId), { audit: OWNER });
    expect(saved.ok).toBe(true);
    const events = await db.select().from(auditEvents).where(eq(auditEvents.targetId, id));
    expect(events.map((event) => event.action).sort()).toEqual([
      "product.created",
      "product.price_changed",
      "product.updated",
      "stock.changed",
      "stock.changed",
    ]);
    const price = events.find((event) => event.action === "product.price_changed");
    expect(price?.details).toEqual({ name: "Audit Haze", prices: [{ size: "3.5g", from: 3000, to: 3500 }] });
    expect(price).toMatchObject({
      actorEmail: "owner@shop.example",
      ipAddress: "10.0.0.1",
      requestId: "req-1",
    });

    // A refused save (someone else saved first) records nothing: the event rolls back with it.
    const stale = await updateProduct(id, productInput(99, product?.version, sizeId), { audit: OWNER });
    expect(stale).toEqual({ ok: false, reason: "conflict" });
    expect(await db.select().from(auditEvents).where(eq(auditEvents.targetId, id))).toHaveLength(5);
  });

  it("pages newest first by keyset and filters by action, target and store days", async () => {
    const { db } = database();
    await db.execute(sql`
      INSERT INTO audit_events (action, target_type, target_id, actor_email, created_at)
      SELECT CASE WHEN n % 2 = 0 THEN 'test.even' ELSE 'test.odd' END, 'order', 'order-' || (n % 3),
        'staff@shop.example', timestamptz '2026-06-10 16:00:00+00' - n * interval '1 hour'
      FROM generate_series(1, 130) AS n`);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 5; page += 1) {
      const result = await listAuditEvents({ action: "test.even" }, { cursor, limit: 20 });
      seen.push(...result.events.map((event) => event.createdAt));
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toHaveLength(65);
    expect([...seen].sort().reverse()).toEqual(seen);
    expect(new Set(seen).size).toBe(65);

    const oneDay = await listAuditEvents(
      { from: "2026-06-09", to: "2026-06-09", action: "test.odd" },
      { limit: 200 },
    );
    expect(oneDay.events.length).toBe(12);
    expect(oneDay.events.every((event) => event.createdAt >= "2026-06-09T04:00:00.000Z")).toBe(true);
    expect(oneDay.events.every((event) => event.createdAt < "2026-06-10T04:00:00.000Z")).toBe(true);

    const target = await listAuditEvents({ targetType: "order", targetId: "order-1" }, { limit: 200 });
    expect(target.events.every((event) => event.targetId === "order-1")).toBe(true);
    expect(target.events.length).toBe(44);

    const histories = await orderHistories(["order-1", "order-2", "order-none"], 3);
    expect(Object.keys(histories).sort()).toEqual(["order-1", "order-2"]);
    expect(histories["order-1"]).toHaveLength(3);
  });

  it("reads a filtered first page through an index, not by scanning the table", async () => {
    const { db } = database();
    await db.execute(sql`
      INSERT INTO audit_events (action, target_type, target_id, actor_email, created_at)
      SELECT 'bulk.' || (n % 20), 'order', md5(n::text), 'bulk@shop.example', now() - n * interval '1 minute'
      FROM generate_series(1, 20000) AS n`);
    await db.execute(sql`ANALYZE audit_events`);
    const plans = [
      { action: "bulk.7" },
      { targetType: "order", targetId: "c4ca4238a0b923820dcc509a6f75849b" },
      { from: "2026-01-01", to: "2026-12-31" },
      {},
    ];
    for (const filters of plans) {
      const result = await db.execute(sql`EXPLAIN ${auditRowsQuery(db, filters, null, 51)}`);
      const plan = (result as unknown as { rows: { "QUERY PLAN": string }[] }).rows
        .map((row) => row["QUERY PLAN"])
        .join("\n");
      expect(plan, JSON.stringify(filters)).toMatch(/Index Scan|Index Only Scan|Bitmap Index Scan/);
      expect(plan, JSON.stringify(filters)).not.toMatch(/Seq Scan on audit_events/);
    }
  });
});
