import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { adminUsers, emailOutbox } from "#app/db/schema.ts";
import { recordAuditAlone } from "#app/features/audit/audit.server.ts";
import { auditChainHead } from "#app/features/audit/audit-chain.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { sendAuditDigestIfDue } from "./audit-digest.server.ts";

/** 2026-11-24 is a Tuesday: the store opens at 10:00 New York time (15:00 UTC). */
const BEFORE_OPENING = new Date("2026-11-24T14:59:00Z");
const AT_OPENING = new Date("2026-11-24T15:00:00Z");
const NEXT_DAY = new Date("2026-11-25T15:00:00Z");

describeEachDatabase("the daily audit digest", (database) => {
  it("e-mails each active owner, once a day, the chain's outcome and its last event's hash", async () => {
    const { db } = database();
    const stamp = crypto.randomUUID().slice(0, 8);
    await db.insert(adminUsers).values([
      { email: `owner-${stamp}@shop.example`, passwordHash: "x", role: "owner" },
      { email: `gone-${stamp}@shop.example`, passwordHash: "x", role: "owner", deactivatedAt: new Date() },
      { email: `manager-${stamp}@shop.example`, passwordHash: "x", role: "manager" },
    ]);
    const by = {
      actor: { userId: null, email: "cli", role: null },
      origin: { ipAddress: null, requestId: null },
    };
    await recordAuditAlone(by, { action: "orders.exported" });
    await recordAuditAlone(by, { action: "audit.exported" });

    expect(await sendAuditDigestIfDue({ now: BEFORE_OPENING, setting: "opening" })).toMatchObject({
      sent: false,
      reason: "not-yet",
    });
    const head = await auditChainHead(db);
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, () => sendAuditDigestIfDue({ now: AT_OPENING, setting: "opening" })),
    );
    expect(outcomes.filter((outcome) => outcome.sent)).toEqual([
      expect.objectContaining({ lastId: head.id, lastHash: head.hash, broken: false }),
    ]);
    const mails = await db.select().from(emailOutbox).where(eq(emailOutbox.kind, "audit-digest"));
    expect(mails.map((mail) => mail.toAddress)).toContain(`owner-${stamp}@shop.example`);
    expect(mails.map((mail) => mail.toAddress)).not.toContain(`gone-${stamp}@shop.example`);
    expect(mails.map((mail) => mail.toAddress)).not.toContain(`manager-${stamp}@shop.example`);
    expect(mails[0]?.subject).toBe(`Audit log verified up to event ${head.id}`);
    expect(mails[0]?.textBody).toContain(head.hash);

    // A superuser deletes an event: the next morning's digest names the break.
    await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT set_config('capital_grown.audit_purge', 'on', true)`);
      await tx.execute(sql`DELETE FROM audit_events WHERE id = (SELECT max(id) - 1 FROM audit_events)`);
    });
    expect(await sendAuditDigestIfDue({ now: NEXT_DAY, setting: "opening" })).toMatchObject({
      sent: true,
      broken: true,
    });
    const [broken] = await db
      .select()
      .from(emailOutbox)
      .where(sql`${emailOutbox.kind} = 'audit-digest' AND ${emailOutbox.subject} LIKE 'Audit log broken%'`);
    expect(broken?.subject).toBe(`Audit log broken at event ${head.id}`);
  });
});
