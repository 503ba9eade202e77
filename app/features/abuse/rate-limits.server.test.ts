import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase, setDatabaseHandle } from "#app/db/client.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { budgetUsed, consumeBudget, refundBudget, resetBudget } from "./rate-limits.server.ts";

describeEachDatabase("per-client budgets", () => {
  it("grants exactly the budget to parallel consumers and says when to come back", async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, () => consumeBudget("idPhotoUpload", "192.0.2.1")),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(20);
    const refused = results.filter((result) => !result.ok);
    expect(refused).toHaveLength(30);
    for (const result of refused) {
      if (!result.ok) expect(result.retryAfterSeconds).toBeGreaterThan(3500);
    }
    // Another key has its own budget.
    expect((await consumeBudget("idPhotoUpload", "192.0.2.2")).ok).toBe(true);
  });

  it("gives points back, forgets a key, and keeps long keys short", async () => {
    const key = `${"very-long-account@".repeat(20)}example.com 2001:db8::1`;
    for (let i = 0; i < 5; i++) await consumeBudget("signInAccountAndAddress", key);
    expect((await consumeBudget("signInAccountAndAddress", key)).ok).toBe(false);
    await refundBudget("signInAccountAndAddress", key, 2);
    expect(await budgetUsed("signInAccountAndAddress", key)).toBe(4);
    await resetBudget("signInAccountAndAddress", key);
    expect(await budgetUsed("signInAccountAndAddress", key)).toBe(0);
    expect((await consumeBudget("signInAccountAndAddress", key)).ok).toBe(true);
  });
});

const postgresUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!postgresUrl)("budgets shared by two instances on one PostgreSQL", () => {
  it("counts a client's ID uploads across instances", async () => {
    const schema = `test_shared_${randomBytes(4).toString("hex")}`;
    const handles: DatabaseHandle[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        handles.push(await openDatabase({ kind: "postgres", url: postgresUrl as string, schema }));
      }
      const [first, second] = handles as [DatabaseHandle, DatabaseHandle];
      // The default budget is 20 uploads an hour: 15 on one instance, 5 on the other, then none.
      setDatabaseHandle(first);
      for (let i = 0; i < 15; i++)
        expect((await consumeBudget("idPhotoUpload", "198.51.100.50")).ok).toBe(true);
      setDatabaseHandle(second);
      for (let i = 0; i < 5; i++)
        expect((await consumeBudget("idPhotoUpload", "198.51.100.50")).ok).toBe(true);
      expect(await consumeBudget("idPhotoUpload", "198.51.100.50")).toMatchObject({ ok: false });
      setDatabaseHandle(first);
      expect(await budgetUsed("idPhotoUpload", "198.51.100.50")).toBe(21);
    } finally {
      for (const handle of handles) await handle.close();
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  });
});
