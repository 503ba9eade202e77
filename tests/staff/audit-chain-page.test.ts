import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { rowsOf } from "#app/db/rows.ts";
import { recordAuditAlone } from "#app/features/audit/audit.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { type InProcessApp, inProcessApp } from "#tests/support/in-process-app.ts";
import { insertStaff, pageRequest, type Staff, signedIn } from "./support.ts";

describeEachDatabase("the audit page's chain status", (database) => {
  let app: InProcessApp;
  let owner: Staff;

  beforeAll(async () => {
    app = await inProcessApp();
    owner = await insertStaff(database().db, "owner", "Olive");
  });

  const page = async () => {
    const { cookie } = await signedIn(database().db, owner);
    const response = await app(pageRequest("/admin/audit", cookie));
    expect(response.status).toBe(200);
    return (await response.text()).replace(/<!-- -->/g, "");
  };

  it("says how far the chain verified, and names the event changed since", async () => {
    const { db } = database();
    const by = {
      actor: { userId: owner.id, email: owner.email, role: "owner" as const },
      origin: { ipAddress: null, requestId: null },
    };
    const record = async (n: number) => {
      await recordAuditAlone(by, { action: "orders.exported", details: { n } });
      const [last] = rowsOf<{ id: string }>(
        await db.execute(sql`SELECT max(id)::text AS id FROM audit_events`),
      );
      return last?.id as string;
    };
    await record(1);
    const verified = await record(2);
    expect(await page()).toContain(`Chain verified up to event ${verified}`);

    const changed = await record(3);
    await record(4);
    // A superuser edits an event recorded since the page last verified.
    await db.transaction(async (tx) => {
      await tx.execute(sql`ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_change`);
      await tx.execute(sql`UPDATE audit_events SET details = '{"n": 7}' WHERE id = ${changed}::bigint`);
      await tx.execute(sql`ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_change`);
    });
    const html = await page();
    expect(html).toContain(`Chain broken at event ${changed}`);
    expect(html).toContain(`event ${changed} was changed after it was recorded`);
  });
});
