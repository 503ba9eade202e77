import path from "node:path";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { backupDatabase, readBackupHeader, restoreDatabase } from "#app/db/backup.server.ts";
import { type Database, openDatabase } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/rows.ts";
import { auditEvents } from "#app/db/schema.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { tempFolders } from "#tests/support/temp-folders.ts";
import { type AuditBy, recordAudit, recordAuditAlone } from "./audit.server.ts";
import {
  auditChainHead,
  auditEventHash,
  type ChainRow,
  GENESIS_HASH,
  verifyAuditChain,
  verifyAuditChainSinceCheckpoint,
} from "./audit-chain.server.ts";
import { purgeAuditEvents } from "./audit-retention.server.ts";

const newFolder = tempFolders("cg-audit-chain-");

const OWNER: AuditBy = {
  actor: { userId: "6f1c1f8e-4a52-4c1e-9f55-0d3a7c9b2e11", email: "owner@shop.example", role: "owner" },
  origin: { ipAddress: "203.0.113.9", requestId: "req-7" },
};

async function record(count: number, label = "test.chain") {
  for (let n = 0; n < count; n += 1) {
    await recordAuditAlone(OWNER, {
      action: label,
      targetType: "order",
      targetId: `CG-${n}`,
      details: { n, note: "déjà vu — ✓", nested: { price: [1250, 999.5], empty: null } },
    });
  }
}

async function ids(db: Database) {
  return rowsOf<{ id: string }>(
    await db.execute(sql`SELECT id::text AS id FROM audit_events ORDER BY audit_events.id`),
  ).map((row) => row.id);
}

/** What a superuser can do: switch the append-only trigger off, change a row, switch it on. */
async function editAsSuperuser(db: Database, statement: ReturnType<typeof sql>) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_change`);
    await tx.execute(statement);
    await tx.execute(sql`ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_change`);
  });
}

/** What any role with DELETE can do: the purge's own setting, set by hand. */
async function deleteWithPurgeSetting(db: Database, id: string) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT set_config('capital_grown.audit_purge', 'on', true)`);
    await tx.execute(sql`DELETE FROM audit_events WHERE id = ${id}::bigint`);
  });
}

async function emptyLog(db: Database) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT set_config('capital_grown.audit_purge', 'on', true)`);
    await tx.execute(sql`DELETE FROM audit_events`);
    await tx.execute(sql`UPDATE audit_chain SET head_id = 0, head_hash = ${GENESIS_HASH},
      verified_id = NULL, verified_hash = NULL, verified_at = NULL`);
  });
}

describeEachDatabase("the audit log's hash chain", (database) => {
  it("chains every event over the previous hash and its own content, as the verifier recomputes it", async () => {
    const { db } = database();
    await emptyLog(db);
    await record(5);
    const rows = rowsOf<ChainRow>(
      await db.execute(sql`SELECT id::text AS id,
        ((extract(epoch FROM created_at) * 1000000)::bigint)::text AS "createdMicros",
        actor_id::text AS "actorId", actor_email AS "actorEmail", actor_role AS "actorRole", action,
        target_type AS "targetType", target_id AS "targetId", details::text AS "detailsText",
        ip_address AS "ipAddress", request_id AS "requestId", prev_hash AS "prevHash", hash
        FROM audit_events ORDER BY audit_events.id`),
    );
    expect(rows).toHaveLength(5);
    expect(rows[0]?.prevHash).toBe(GENESIS_HASH);
    for (const [index, row] of rows.entries()) {
      if (index > 0) expect(row.prevHash).toBe(rows[index - 1]?.hash);
      expect(auditEventHash(row.prevHash as string, row)).toBe(row.hash);
    }
    const result = await verifyAuditChain(db);
    expect(result).toMatchObject({
      ok: true,
      verifiedUpTo: rows[4]?.id,
      lastHash: rows[4]?.hash,
      checked: 5,
    });
    expect(await auditChainHead(db)).toEqual({ id: rows[4]?.id, hash: rows[4]?.hash });
  });

  it("names an event a superuser changed with the append-only trigger switched off", async () => {
    const { db } = database();
    await emptyLog(db);
    await record(6);
    const [, , third] = await ids(db);
    await editAsSuperuser(
      db,
      sql`UPDATE audit_events SET actor_email = 'someone@else.example' WHERE id = ${third}::bigint`,
    );
    const result = await verifyAuditChain(db);
    expect(result).toMatchObject({ ok: false, brokenAt: third });
    expect(result.ok || result.reason).toMatch(new RegExp(`event ${third} was changed`));
  });

  it("names the link where an event deleted with the purge's setting was", async () => {
    const { db } = database();
    await emptyLog(db);
    await record(6);
    const [, second, third, fourth] = await ids(db);
    await deleteWithPurgeSetting(db, third as string);
    const result = await verifyAuditChain(db);
    expect(result).toMatchObject({ ok: false, brokenAt: fourth, verifiedUpTo: second });
    expect(result.ok || result.reason).toMatch(new RegExp(`event ${fourth} does not follow event ${second}`));
  });

  it("notices the first events deleted when no retention purge accounts for them", async () => {
    const { db } = database();
    await emptyLog(db);
    await record(4);
    const [first, second] = await ids(db);
    await deleteWithPurgeSetting(db, first as string);
    const result = await verifyAuditChain(db);
    expect(result).toMatchObject({ ok: false, brokenAt: second });
    expect(result.ok || result.reason).toMatch(/no retention purge accounts for/);
  });

  it("verifies from the retention purge's anchor after old events are purged", async () => {
    const { db } = database();
    await emptyLog(db);
    await db.execute(sql`INSERT INTO audit_events (action, created_at) VALUES
      ('test.old', now() - interval '50 days'), ('test.old', now() - interval '40 days')`);
    await record(3);
    const [, lastOld] = await ids(db);
    const [oldHash] = rowsOf<{ hash: string }>(
      await db.execute(sql`SELECT hash FROM audit_events WHERE id = ${lastOld}::bigint`),
    );
    expect(await purgeAuditEvents(30)).toBe(2);
    const [anchor] = await db.select().from(auditEvents).where(sql`${auditEvents.action} = 'audit.purged'`);
    expect(anchor?.details).toEqual({
      upToId: Number(lastOld),
      lastHash: oldHash?.hash,
      removed: 2,
      retentionDays: 30,
    });
    const result = await verifyAuditChain(db);
    expect(result).toMatchObject({ ok: true, verifiedUpTo: String(anchor?.id), checked: 4 });
    // Nothing past the retention: no anchor.
    expect(await purgeAuditEvents(30)).toBe(0);
    expect((await ids(db)).length).toBe(4);
  });

  it("keeps one chain, in id order, when many transactions insert at once", async () => {
    const { db } = database();
    await emptyLog(db);
    await Promise.all(
      Array.from({ length: 16 }, (_, n) =>
        db.transaction(async (tx) => {
          await recordAudit(tx, OWNER.actor, OWNER.origin, { action: "test.parallel", targetId: `a${n}` });
          await tx.execute(sql`SELECT pg_sleep(0.01)`);
          await recordAudit(tx, OWNER.actor, OWNER.origin, { action: "test.parallel", targetId: `b${n}` });
        }),
      ),
    );
    const result = await verifyAuditChain(db);
    expect(result).toMatchObject({ ok: true, checked: 32 });
  });

  it("verifies since its checkpoint, and notices a change to what it verified before", async () => {
    const { db } = database();
    await emptyLog(db);
    await record(3);
    const first = await verifyAuditChainSinceCheckpoint();
    const all = await ids(db);
    expect(first).toMatchObject({ verifiedUpTo: all[2], broken: null, pending: false });
    await record(3);
    const limited = await verifyAuditChainSinceCheckpoint({ limit: 2 });
    expect(limited).toMatchObject({ verifiedUpTo: (await ids(db))[4], pending: true, broken: null });
    const rest = await verifyAuditChainSinceCheckpoint();
    const latest = (await ids(db))[5];
    expect(rest).toMatchObject({ verifiedUpTo: latest, pending: false, broken: null });
    await editAsSuperuser(
      db,
      sql`UPDATE audit_events SET action = 'test.hidden' WHERE id = ${latest}::bigint`,
    );
    expect((await verifyAuditChainSinceCheckpoint()).broken?.at).toBe(latest);
  });

  it("keeps the chain verifiable through a backup and its restore, into a new database or over the shop", async () => {
    const { db } = database();
    await emptyLog(db);
    await record(4);
    const file = path.join(newFolder(), "backup.ndjson.gz");
    await backupDatabase(db, file);
    const head = await auditChainHead(db);
    expect((await readBackupHeader(file)).auditChain).toEqual({ lastId: head.id, lastHash: head.hash });

    const fresh = await openDatabase({ kind: "pglite" });
    try {
      await restoreDatabase(fresh.db, file, { availableKeys: [] });
      expect(await verifyAuditChain(fresh.db)).toMatchObject({
        ok: true,
        verifiedUpTo: head.id,
        lastHash: head.hash,
      });
      expect(await auditChainHead(fresh.db)).toEqual(head);
      await recordAudit(fresh.db, OWNER.actor, OWNER.origin, { action: "test.after-restore" });
      expect(await verifyAuditChain(fresh.db)).toMatchObject({ ok: true, checked: 5 });
    } finally {
      await fresh.close();
    }

    // Over the running shop: the events recorded since the backup stay, the chain goes on.
    await record(2);
    await restoreDatabase(db, file, { availableKeys: [] });
    await record(1);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, checked: 7 });
  });
});
