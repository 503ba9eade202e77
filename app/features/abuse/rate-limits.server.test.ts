import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase, setDatabaseHandle } from "#app/db/client.server.ts";
import { admitSignInAttempt } from "#app/features/staff/login-throttle.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import {
  budgetUsed,
  consumeBudget,
  refundBudget,
  requireSearchBudget,
  resetBudget,
} from "./rate-limits.server.ts";

/** The status of a search's refusal (a thrown 429 response), or 200 when it was let through. */
async function searchStatus(clientAddress: string) {
  try {
    await requireSearchBudget("kush", clientAddress);
    return 200;
  } catch (error) {
    return (error as { init?: { status?: number } }).init?.status ?? 500;
  }
}

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

  it("counts an IPv6 client by its /64: of 70 searches from 70 addresses in one /64, the 61st is refused", async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 70; i++) statuses.push(await searchStatus(`2001:db8:4:64::${i.toString(16)}`));
    expect(statuses.slice(0, 60)).toEqual(Array(60).fill(200));
    expect(statuses.slice(60)).toEqual(Array(10).fill(429));
    // However the same /64 is written; the next /64 has a budget of its own.
    expect(await searchStatus("2001:DB8:4:64:ffff:ffff:ffff:ffff")).toBe(429);
    expect(await searchStatus("[2001:db8:4:64::abc]")).toBe(429);
    expect(await searchStatus("2001:db8:4:65::1")).toBe(200);
  });

  it("counts an IPv4-mapped IPv6 address as its IPv4 address", async () => {
    for (let i = 0; i < 20; i++) expect((await consumeBudget("idPhotoUpload", "192.0.2.99")).ok).toBe(true);
    expect((await consumeBudget("idPhotoUpload", "::ffff:192.0.2.99")).ok).toBe(false);
    expect(await budgetUsed("cartPrices", "::ffff:192.0.2.99")).toBe(0);
    for (let i = 0; i < 3; i++) await consumeBudget("cartPrices", `::ffff:192.0.2.${i}`);
    expect(await budgetUsed("cartPrices", "192.0.2.1")).toBe(1);
  });

  it("counts sign-in attempts from one /64 against one address budget and one account-and-address budget", async () => {
    const attempt = (email: string, i: number) =>
      admitSignInAttempt({
        email,
        ipAddress: `2001:db8:5:64:${i.toString(16)}::1`,
        isTrusted: async () => false,
      });
    const sameAccount: boolean[] = [];
    for (let i = 0; i < 6; i++) sameAccount.push((await attempt("owner@shop.example", i)).allowed);
    expect(sameAccount).toEqual([true, true, true, true, true, false]);
    const anyAccount: boolean[] = [];
    for (let i = 6; i < 11; i++) anyAccount.push((await attempt(`other${i}@shop.example`, i)).allowed);
    // 10 attempts per address: the 6 above (the refused one counted too) and 4 more.
    expect(anyAccount).toEqual([true, true, true, true, false]);
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
