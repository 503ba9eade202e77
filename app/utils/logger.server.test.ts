import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The logger in a process of its own, writing to a file as `npm start > shop.log` does: what ends up
 * in the file, in which order, and when the process ends while request lines are still batched
 * (record 024).
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const NODE = path.join(ROOT, "node_modules/.bin/node");
const LOGGER = path.join(ROOT, "app/utils/logger.server.ts");
const folder = mkdtempSync(path.join(tmpdir(), "cg-logger-"));
let scripts = 0;

afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs `body` (an ES module body with `log`, `logRequest`, `withRequestId`, `flushLogs` in scope). */
function run(body: string, env: Record<string, string> = {}) {
  const script = path.join(folder, `script-${++scripts}.ts`);
  writeFileSync(
    script,
    `import { flushLogs, log, logRequest, withRequestId } from ${JSON.stringify(LOGGER)};\n${body}\n`,
  );
  const output = path.join(folder, `output-${scripts}.log`);
  const fd = openSync(output, "w");
  const result = spawnSync(NODE, [script], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "info", LOG_FORMAT: "json", ...env },
    stdio: ["ignore", fd, "pipe"],
    encoding: "utf8",
    timeout: 30_000,
  });
  closeSync(fd);
  const text = readFileSync(output, "utf8");
  return { status: result.status, signal: result.signal, stderr: result.stderr, text };
}

function entries(text: string) {
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("request lines and the application's lines", () => {
  it("carry the request's id, keep their order, and say only the fixed fields", () => {
    const { status, text } = run(`
      withRequestId("req-1", () => {
        log.info("Inside the request", { step: 1 });
        logRequest("info", "req-1", "GET", "/product/:id", 200, 0.4567, "HIT", false);
      });
      withRequestId("req-2", () => {
        logRequest("error", "req-2", "POST", "/checkout", 503, 12, undefined, false);
        logRequest("info", "req-2", "GET", "/shop", 200, 3, undefined, true);
      });
      log.warn("After both requests");
      flushLogs();
    `);
    expect(status).toBe(0);
    const lines = entries(text);
    expect(lines.map((entry) => entry.msg)).toEqual([
      "Inside the request",
      "request",
      "request",
      "request",
      "After both requests",
    ]);
    expect(lines[0]).toMatchObject({ level: "info", requestId: "req-1", step: 1 });
    expect(Object.keys(lines[1] as object)).toEqual([
      "level",
      "time",
      "requestId",
      "method",
      "route",
      "status",
      "responseTime",
      "cache",
      "msg",
    ]);
    expect(lines[1]).toMatchObject({
      level: "info",
      requestId: "req-1",
      method: "GET",
      route: "/product/:id",
      status: 200,
      responseTime: 0.46,
      cache: "HIT",
    });
    expect(Date.parse(lines[1]?.time as string)).toBeGreaterThan(Date.now() - 60_000);
    expect(lines[2]).toMatchObject({ level: "error", status: 503, requestId: "req-2" });
    expect(lines[2]).not.toHaveProperty("cache");
    expect(lines[3]).toMatchObject({ aborted: true, route: "/shop" });
    expect(lines[4]).toMatchObject({ level: "warn" });
    expect(lines[4]).not.toHaveProperty("requestId");
  });

  it("stay valid JSON whatever the route, method or id holds", () => {
    const odd = ['/x"y\\z', "/tab\there", "/caf\u00e9", "/\u2028", "/*splat"];
    const { status, text } = run(`
      for (const route of ${JSON.stringify(odd)}) {
        logRequest("info", "id-" + route, 'M"', route, 404, 1, "MI\\\\SS", false);
      }
      flushLogs();
    `);
    expect(status).toBe(0);
    const lines = entries(text);
    expect(lines.map((entry) => entry.route)).toEqual(odd);
    expect(lines.map((entry) => entry.requestId)).toEqual(odd.map((route) => `id-${route}`));
    expect(lines.map((entry) => [entry.method, entry.cache])).toEqual(odd.map(() => ['M"', "MI\\SS"]));
  });

  it("write statuses and durations as JSON.stringify would, and a very long route whole", () => {
    const durations = [
      0, 0.004, 0.005, 0.05, 0.1, 0.5, 0.999, 1, 9.99, 10.05, 12.345, 100, 1234.5, 86_400_000.01,
    ];
    const long = `/${"segment-".repeat(20_000)}é`;
    const { status, text } = run(`
      const durations = ${JSON.stringify(durations)};
      durations.forEach((ms, i) => logRequest("info", "d" + i, "GET", "/shop", [200, 304, 404, 503][i % 4], ms, undefined, false));
      logRequest("info", "long", "GET", ${JSON.stringify(long)}, 200, 1, "HIT", false);
      logRequest("info", "after", "GET", "/shop", 200, 1, "HIT", false);
      flushLogs();
    `);
    expect(status).toBe(0);
    const lines = text.split("\n").filter(Boolean);
    durations.forEach((ms, i) => {
      expect(lines[i]).toContain(
        `"status":${[200, 304, 404, 503][i % 4]},"responseTime":${JSON.stringify(Math.round(ms * 100) / 100)},"msg"`,
      );
    });
    const rest = entries(lines.slice(durations.length).join("\n"));
    expect(rest.map((entry) => [entry.requestId, entry.route])).toEqual([
      ["long", long],
      ["after", "/shop"],
    ]);
  });

  it("follow LOG_LEVEL: at warn only the 5xx request lines, at silent nothing", () => {
    const body = `
      logRequest("info", "a", "GET", "/shop", 200, 1, "HIT", false);
      logRequest("debug", "b", "GET", "/healthz", 200, 1, undefined, false);
      logRequest("error", "c", "GET", "/shop", 500, 1, undefined, false);
      flushLogs();
    `;
    expect(entries(run(body, { LOG_LEVEL: "warn" }).text).map((entry) => entry.requestId)).toEqual(["c"]);
    expect(entries(run(body, { LOG_LEVEL: "debug" }).text).map((entry) => entry.requestId)).toEqual([
      "a",
      "b",
      "c",
    ]);
    expect(run(body, { LOG_LEVEL: "silent" }).text).toBe("");
  });

  it("are written in batches: one write for many request lines, the next 5 ms later at most", () => {
    const { text, stderr } = run(
      `
      const { default: fs } = await import("node:fs");
      const write = fs.writeSync;
      let writes = 0;
      fs.writeSync = (...args) => { writes++; return write(...args); };
      for (let i = 0; i < 50; i++) logRequest("info", "r" + i, "GET", "/shop", 200, 0.1, "HIT", false);
      const before = writes;
      await new Promise((resolve) => setTimeout(resolve, 50));
      process.stderr.write(JSON.stringify({ before, after: writes }));
    `,
    );
    expect(JSON.parse(stderr)).toEqual({ before: 0, after: 1 });
    expect(entries(text)).toHaveLength(50);
  });

  it("keep every line once and in order over many batches, timed and full ones", () => {
    const { status, text } = run(`
      for (let i = 0; i < 20_000; i++) {
        logRequest("info", "r" + i, i % 3 ? "GET" : "POST", i % 2 ? "/shop" : "/product/:slug", 200, i / 1000, i % 5 ? "HIT" : undefined, false);
        if (i % 2_000 === 0) await new Promise((resolve) => setTimeout(resolve, 12));
      }
      flushLogs();
    `);
    expect(status).toBe(0);
    const lines = entries(text);
    expect(lines.map((entry) => entry.requestId)).toEqual(Array.from({ length: 20_000 }, (_, i) => `r${i}`));
    expect(lines[6]).toMatchObject({
      method: "POST",
      route: "/product/:slug",
      responseTime: 0.01,
      cache: "HIT",
    });
    expect(lines[7]).toMatchObject({ method: "GET", route: "/shop", cache: "HIT" });
    expect(lines[5]).not.toHaveProperty("cache");
  });
});

describe("nothing batched is lost when the process ends", () => {
  const last = `logRequest("info", "the-last-one", "GET", "/shop", 200, 0.2, "HIT", false);`;

  it("on process.exit", () => {
    const { status, text } = run(`${last}\nprocess.exit(0);`);
    expect(status).toBe(0);
    expect(text).toContain('"requestId":"the-last-one"');
  });

  it("on a crash (an uncaught exception)", () => {
    const { status, text, stderr } = run(`${last}\nsetImmediate(() => { throw new Error("boom"); });`);
    expect(status).toBe(1);
    expect(stderr).toContain("boom");
    expect(text).toContain('"requestId":"the-last-one"');
  });

  it("on SIGTERM, the way the server stops (flushLogs, then exit 0)", () => {
    const { status, text } = run(`
      process.on("SIGTERM", () => { flushLogs(); process.exit(0); });
      ${last}
      process.kill(process.pid, "SIGTERM");
      setTimeout(() => {}, 5_000);
    `);
    expect(status).toBe(0);
    expect(text).toContain('"requestId":"the-last-one"');
  });

  it("when the event loop runs dry", () => {
    const { status, text } = run(last);
    expect(status).toBe(0);
    expect(entries(text)).toHaveLength(1);
  });
});

describe("LOG_FORMAT=pretty", () => {
  it("prints request lines and the application's lines for a person, not as JSON", () => {
    const { status, text: coloured } = run(
      `
      withRequestId("req-pretty", () => log.info("Inside the request"));
      logRequest("info", "req-pretty", "GET", "/shop", 200, 1.5, "HIT", false);
      log.info("Done");
      flushLogs();
      await new Promise((resolve) => setTimeout(resolve, 500));
    `,
      { LOG_FORMAT: "pretty" },
    );
    expect(status).toBe(0);
    const text = stripVTControlCharacters(coloured);
    expect(text).not.toMatch(/^\{/m);
    expect(text).toMatch(/INFO.*Inside the request/);
    expect(text).toMatch(/INFO.*request[\s\S]*route: "\/shop"/);
    expect(text).toMatch(/requestId: "req-pretty"/);
    expect(text.indexOf("Inside the request")).toBeLessThan(text.indexOf('route: "/shop"'));
    expect(text.indexOf('route: "/shop"')).toBeLessThan(text.indexOf("Done"));
  });
});

describe("a failed query's parameters never reach the log", () => {
  const CLIENT = path.join(ROOT, "app/db/client.server.ts");
  // The app's own copy of drizzle (the script lives outside the project).
  const DRIZZLE = realpathSync(path.join(ROOT, "node_modules/drizzle-orm/index.js"));
  const targets: Array<[string, string]> = [["pglite", `{ kind: "pglite" }`]];
  if (process.env.TEST_DATABASE_URL) {
    targets.push(["postgres", `{ kind: "postgres", url: ${JSON.stringify(process.env.TEST_DATABASE_URL)} }`]);
  }
  it.each(targets)("on %s: the SQL and the reason are logged, not the values", (_kind, target) => {
    // A search for a customer by name and phone, with a NUL the database refuses in a text value.
    const { status, stderr, text } = run(`
      const { sql } = await import(${JSON.stringify(DRIZZLE)});
      const { openDatabase } = await import(${JSON.stringify(CLIENT)});
      const handle = await openDatabase(${target});
      try {
        await handle.db.execute(
          sql\`select \${"Quintessa Vandermolen"}::text as name, \${"(202) 555-0199\\u0000"}::text as phone\`,
        );
        log.info("The query did not fail");
      } catch (error) {
        withRequestId("req-db", () => {
          log.error("Failed to fetch orders", { error: String(error) });
          log.error("Unhandled error while serving a request", { error: error.stack });
          log.info("Refused", { reason: error.message, cause: error });
        });
      } finally {
        await handle.close();
      }
      flushLogs();
    `);
    expect(stderr).toBe("");
    expect(status).toBe(0);
    const lines = entries(text);
    expect(lines.map((entry) => entry.msg)).toEqual([
      "Failed to fetch orders",
      "Unhandled error while serving a request",
      "Refused",
    ]);
    for (const line of lines) {
      const written = JSON.stringify(line);
      expect(written).toContain("Failed query: select $1::text as name, $2::text as phone");
      expect(written).toContain("params: [not logged]");
      expect(written).not.toContain("Quintessa");
      expect(written).not.toContain("555-0199");
    }
    // The stack is still there for the error line.
    expect(String(lines[1]?.error)).toMatch(/\n\s+at /);
  });
});
