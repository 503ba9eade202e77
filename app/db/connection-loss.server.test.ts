import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openInThrowawaySchema } from "#tests/support/throwaway-schema.ts";
import type { DatabaseHandle } from "./client.server.ts";
import { isDatabaseUnavailable } from "./database-unavailable.server.ts";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

/** Rows of a raw query (drizzle's execute result differs per driver). */
function rowsOf(result: unknown) {
  return (result as { rows: unknown[] }).rows;
}

async function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// Surviving a lost database connection (record 016), at the level of the database module (the whole server: tests/e2e/database-outage.spec.ts).
describe.skipIf(!TEST_DATABASE_URL)("losing PostgreSQL connections", () => {
  let handle: DatabaseHandle;
  let admin: pg.Client;
  beforeAll(async () => {
    // One connection: a client that is not given back shows as a query that never answers.
    handle = await openInThrowawaySchema(TEST_DATABASE_URL as string, "conn", { poolSize: 1 });
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL, application_name: "cg-test-admin" });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await handle.close();
  });

  it("gives a client back when BEGIN fails", async () => {
    for (let i = 0; i < 3; i++) {
      await expect(
        handle.db.transaction(async () => {}, {
          isolationLevel: "not a level" as "serializable",
        }),
      ).rejects.toThrow();
    }
    const rows = await within(2_000, handle.db.execute(sql`SELECT 1 AS one`));
    expect(rowsOf(rows)).toEqual([{ one: 1 }]);
  });

  it("survives a connection terminated inside a transaction, and the pool goes on", async () => {
    const error = await handle.db
      .transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_terminate_backend(pg_backend_pid())`);
      })
      .catch((caught: unknown) => caught);
    expect(isDatabaseUnavailable(error)).toBe(true);
    // Give the dropped socket's 'error' event time to arrive: without a listener it would crash.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const rows = await within(2_000, handle.db.execute(sql`SELECT 2 AS two`));
    expect(rowsOf(rows)).toEqual([{ two: 2 }]);
  });

  it("survives a connection terminated while it is checked out between queries", async () => {
    const error = await handle.db
      .transaction(async (tx) => {
        const [row] = rowsOf(await tx.execute(sql`SELECT pg_backend_pid() AS pid`)) as Array<{ pid: number }>;
        await admin.query("SELECT pg_terminate_backend($1)", [row?.pid]);
        await new Promise((resolve) => setTimeout(resolve, 200));
        await tx.execute(sql`SELECT 1`);
      })
      .catch((caught: unknown) => caught);
    expect(isDatabaseUnavailable(error)).toBe(true);
    const rows = await within(2_000, handle.db.execute(sql`SELECT 3 AS three`));
    expect(rowsOf(rows)).toEqual([{ three: 3 }]);
  });

  it("listens again after its LISTEN connection is terminated, and says so", async () => {
    const channel = `test_${Math.random().toString(36).slice(2, 10)}`;
    const payloads: string[] = [];
    let reconnected = 0;
    const stop = await handle.listen(channel, (payload) => payloads.push(payload), {
      onReconnect: () => {
        reconnected++;
      },
    });
    try {
      expect(handle.listening()).toBe(true);
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN "${channel}"'`,
      );
      const deadline = Date.now() + 5_000;
      while (reconnected === 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(reconnected).toBe(1);
      expect(handle.listening()).toBe(true);
      await admin.query(`NOTIFY "${channel}", 'after'`);
      while (payloads.length === 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(payloads).toEqual(["after"]);
    } finally {
      await stop();
    }
  });
});

describe("telling an unreachable database from other errors", () => {
  it("knows driver, socket and server-shutdown errors, also wrapped as a cause", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("x"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("terminating connection"), { code: "57P01" }))).toBe(
      true,
    );
    expect(
      isDatabaseUnavailable(
        new Error("Failed query", { cause: new Error("Connection terminated unexpectedly") }),
      ),
    ).toBe(true);
    const notAccepting = 'database "shop" is not currently accepting connections';
    expect(isDatabaseUnavailable(Object.assign(new Error(notAccepting), { code: "55000" }))).toBe(true);
    // 55000 for anything else is a plain error.
    expect(
      isDatabaseUnavailable(Object.assign(new Error("cannot drop the current database"), { code: "55000" })),
    ).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error("too many clients"), { code: "53300" }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("could not extend file"), { code: "53100" }))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(Object.assign(new Error("read-only transaction"), { code: "25006" }))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("PGlite is closed"))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isDatabaseUnavailable(new Error("relation does not exist"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
