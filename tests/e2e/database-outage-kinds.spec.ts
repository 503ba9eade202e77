import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { LOAD_TEST_BUDGETS, type RunningApp, startApp } from "../support/app-server.ts";
import { cuttableProxy } from "../support/cuttable-proxy.ts";
import { type OrderableSize, orderableSizes, postOrder, showsStack } from "../support/shop-orders.ts";
import { createThrowawayDatabase } from "../support/throwaway-database.ts";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

type Probe = {
  what: string;
  status: number;
  retryAfter: string | null;
  body: string;
  writes: boolean;
  words: boolean;
};

/**
 * Every way PostgreSQL can be away or refuse work, each made for real against the app's own
 * database and role (a role that is not a superuser, so connection limits apply to it), and every
 * route that reads or writes the database asked during it: each must answer 503 with Retry-After,
 * the shop's words and no stack, and the outage is logged once, not once per request
 * (docs/decisions/016-surviving-faults.md).
 */
test.describe("every kind of database outage is a 503", () => {
  test.skip(!TEST_DATABASE_URL, "needs TEST_DATABASE_URL (PostgreSQL)");

  test("refused, not accepting connections, too many clients, terminated, read-only, pool timeout", async () => {
    test.setTimeout(240_000);
    const role = `cg_outage_role_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL, application_name: "cg-test-admin" });
    await admin.connect();
    await admin.query(`CREATE ROLE "${role}" LOGIN`);
    const database = await createThrowawayDatabase(TEST_DATABASE_URL as string, "cg_outage_kinds");
    await admin.query(`ALTER DATABASE "${database.name}" OWNER TO "${role}"`);
    const target = new URL(database.url);
    const proxy = await cuttableProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const appUrl = new URL(database.url);
    appUrl.username = role;
    appUrl.port = String(proxy.port);
    let app: RunningApp | undefined;
    let helper: DatabaseHandle | undefined;
    // The app's sessions (it names itself capital-grown), never the test's own.
    const terminateApp = () =>
      admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name LIKE 'capital-grown/%'",
        [database.name],
      );
    try {
      app = await startApp({
        buildDir: process.env.E2E_BUILD_DIR as string,
        env: {
          DATABASE_URL: appUrl.toString(),
          SEED_DEMO_COUNT: "16",
          LOG_LEVEL: "warn",
          MAX_OPEN_ORDERS: "1000",
          ...LOAD_TEST_BUDGETS,
        },
      });
      const url = app.url;
      helper = await openDatabase({ kind: "postgres", url: database.url, applicationName: "cg-test-helper" });
      const sizes = await orderableSizes(helper.db, 2);
      const size = sizes[0] as OrderableSize;
      const placed = await postOrder(url, size, 1);
      if (!("token" in placed)) throw new Error(`no order placed: ${placed.refused} ${placed.body}`);
      let shopper = 100;

      // `writes`: the route writes (a budget, an order), so a read-only database refuses it too.
      // `words`: the body says to try again (a data request's body is React Router's encoded error).
      const get = async (
        what: string,
        path: string,
        accept = "text/html",
        writes = false,
      ): Promise<Probe> => {
        const response = await fetch(`${url}${path}`, { headers: { accept } });
        const body = await response.text();
        const retryAfter = response.headers.get("retry-after");
        return { what, status: response.status, retryAfter, body, writes, words: !path.endsWith(".data") };
      };
      const post = async (what: string, javascript: boolean): Promise<Probe> => {
        const answer = await postOrder(url, size, shopper++, { javascript });
        const common = { what, writes: true, words: true };
        if ("token" in answer) return { ...common, status: 303, retryAfter: null, body: "placed" };
        return {
          ...common,
          status: answer.refused,
          retryAfter: answer.retryAfter ?? null,
          body: answer.body,
        };
      };
      /** Every route with the database, at once (a stalled database answers them all after the pool's 10 s). */
      const probeAll = () =>
        Promise.all([
          get("GET /checkout", "/checkout"),
          get("GET /checkout.data (a navigation with JavaScript)", "/checkout.data", "*/*"),
          get("GET /thank-you", `/thank-you?order=${placed.token}`),
          get("GET /api/cart-prices", `/api/cart-prices?size=${size.sizeId}`, "application/json"),
          post("POST /checkout (no JavaScript)", false),
          post("POST /checkout.data (JavaScript)", true),
        ]);
      const back = async () => {
        await expect(async () => {
          for (const probe of await Promise.all([
            get("GET /checkout", "/checkout"),
            get("GET /api/cart-prices", `/api/cart-prices?size=${size.sizeId}`, "application/json"),
          ])) {
            expect(probe.status, probe.what).toBe(200);
          }
        }).toPass({ timeout: 20_000 });
      };

      const kinds: Array<{
        kind: string;
        start(): Promise<unknown>;
        during?: () => Promise<Probe[]>;
        stop(): Promise<unknown>;
        /** Reads still work: only the routes that write must answer 503. */
        writesOnly?: boolean;
      }> = [
        {
          kind: "connection refused (the proxy is cut)",
          start: () => proxy.cut(),
          stop: () => proxy.restore(),
        },
        {
          kind: "not accepting connections (ALLOW_CONNECTIONS false, SQLSTATE 55000)",
          start: async () => {
            await admin.query(`ALTER DATABASE "${database.name}" ALLOW_CONNECTIONS false`);
            await terminateApp();
          },
          stop: () => admin.query(`ALTER DATABASE "${database.name}" ALLOW_CONNECTIONS true`),
        },
        {
          kind: "too many clients (the role's CONNECTION LIMIT 0, SQLSTATE 53300)",
          start: async () => {
            await admin.query(`ALTER ROLE "${role}" CONNECTION LIMIT 0`);
            await terminateApp();
          },
          stop: () => admin.query(`ALTER ROLE "${role}" CONNECTION LIMIT -1`),
        },
        {
          kind: "read-only (a failover's standby, maintenance; SQLSTATE 25006)",
          writesOnly: true,
          start: async () => {
            await admin.query(`ALTER DATABASE "${database.name}" SET default_transaction_read_only = on`);
            await terminateApp();
            // pg_terminate_backend only signals: a request may still meet a session on its way out
            // (57P01, rightly a 503). Reads are judged once the app's sessions are all new ones.
            await expect(async () => {
              const probe = await get("GET /checkout", "/checkout");
              expect(probe.status).toBe(200);
            }).toPass({ timeout: 20_000 });
          },
          stop: async () => {
            await admin.query(`ALTER DATABASE "${database.name}" RESET default_transaction_read_only`);
            await terminateApp();
          },
        },
        {
          // Every table locked, every request waits on a lock, then the server ends those sessions.
          kind: "terminated mid-query (pg_terminate_backend, SQLSTATE 57P01)",
          start: async () => {},
          during: async () => {
            const locker = new pg.Client({
              connectionString: database.url,
              application_name: "cg-test-locker",
            });
            await locker.connect();
            try {
              const tables = await locker.query(
                "SELECT string_agg(format('%I.%I', schemaname, tablename), ', ') AS list FROM pg_tables WHERE schemaname = 'public'",
              );
              await locker.query("BEGIN");
              await locker.query(`LOCK TABLE ${tables.rows[0].list} IN ACCESS EXCLUSIVE MODE`);
              let settled = false;
              const probes = probeAll().finally(() => {
                settled = true;
              });
              // A request that reaches its first query later (one waiting for a pool connection)
              // meets the next round: none gets past the lock.
              while (!settled) {
                await new Promise((resolve) => setTimeout(resolve, 250));
                await terminateApp();
              }
              return await probes;
            } finally {
              await locker.query("ROLLBACK").catch(() => {});
              await locker.end();
            }
          },
          stop: async () => {},
        },
        {
          kind: "the pool's connection timeout (a server that accepts and never answers)",
          start: async () => proxy.stall(),
          stop: async () => proxy.unstall(),
        },
      ];

      const wrong: string[] = [];
      for (const { kind, start, during, stop, writesOnly } of kinds) {
        await start();
        const probes = during ? await during() : await probeAll();
        await stop();
        for (const probe of probes) {
          const refused = !writesOnly || probe.writes;
          const right = refused
            ? probe.status === 503 &&
              probe.retryAfter === "30" &&
              !showsStack(probe.body) &&
              (!probe.words || /try again in a minute|send it again in a minute/i.test(probe.body))
            : probe.status === 200;
          if (!right)
            wrong.push(
              `${kind}: ${probe.what} answered ${probe.status} (Retry-After ${probe.retryAfter}) ${probe.body.slice(0, 160)}`,
            );
        }
        await back();
        expect(app.process.exitCode, app.logs().slice(-2000)).toBeNull();
      }
      expect(wrong).toEqual([]);

      // Logged once per outage (a start line, and an end line with the count), never once per request.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const lines = app.logs().split("\n");
      expect(lines.filter((line) => line.includes("Unhandled error")).join("\n")).toBe("");
      expect(lines.filter((line) => line.includes("Could not place an order")).join("\n")).toBe("");
      const began = lines.filter((line) => line.includes("The database is unavailable")).length;
      const ended = lines.filter((line) => line.includes("The database outage is over"));
      expect(began).toBeGreaterThanOrEqual(1);
      expect(began).toBeLessThanOrEqual(kinds.length);
      expect(ended.length).toBe(began);
      const refused = ended.reduce((sum, line) => sum + Number(/"refused":(\d+)/.exec(line)?.[1] ?? 0), 0);
      expect(refused).toBeGreaterThanOrEqual(30);
    } finally {
      await helper?.close().catch(() => {});
      await app?.stop();
      await proxy.cut().catch(() => {});
      await admin.query(`ALTER ROLE "${role}" CONNECTION LIMIT -1`).catch(() => {});
      await database.drop();
      await admin.query(`DROP ROLE IF EXISTS "${role}"`).catch(() => {});
      await admin.end();
    }
  });
});
