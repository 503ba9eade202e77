import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SERVER_MALLOC_ENV, SERVER_NODE_FLAGS } from "./app-server.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const NODE = path.join(ROOT, "node_modules/.bin/node");

/**
 * The server's memory figures (record 040) hold for the flags it runs with: every way of starting
 * it passes the same ones, and so do the test and bench servers that measure it.
 */
describe("the server's Node flags", () => {
  const scripts = (
    JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    }
  ).scripts;

  it.each(["start", "serve"])("npm run %s passes them", (name) => {
    const command = scripts[name] ?? "";
    const flags = /\bnode((?:\s+--\S+)*)\s+\S+\.ts$/.exec(command)?.[1]?.trim().split(/\s+/);
    expect(flags).toEqual(SERVER_NODE_FLAGS);
  });

  it("the Dockerfile's CMD passes them", () => {
    const cmd = /^CMD\s+(\[.*\])$/m.exec(readFileSync(path.join(ROOT, "Dockerfile"), "utf8"))?.[1];
    expect(JSON.parse(cmd ?? "[]")).toEqual(["node", ...SERVER_NODE_FLAGS, "server.ts"]);
  });

  it.each(["start", "serve"])("npm run %s sets the allocator's environment", (name) => {
    const assignments = /^exec env((?:\s+\w+=\S+)+)\s+node\b/
      .exec(scripts[name] ?? "")?.[1]
      ?.trim()
      .split(/\s+/);
    expect(Object.fromEntries((assignments ?? []).map((pair) => pair.split("=")))).toEqual(SERVER_MALLOC_ENV);
  });

  it("the Dockerfile's ENV sets the allocator's environment", () => {
    const lines = readFileSync(path.join(ROOT, "Dockerfile"), "utf8").matchAll(/^ENV\s+(.*)$/gm);
    const set = Object.fromEntries(
      [...lines].flatMap((line) => (line[1] ?? "").trim().split(/\s+/)).map((pair) => pair.split("=")),
    );
    for (const [name, value] of Object.entries(SERVER_MALLOC_ENV)) expect(set[name], name).toBe(value);
  });

  // Run with the server's flags, its idle release gives V8's heap back (record 040).
  it("let the server give V8's heap back once it rests", () => {
    const run = spawnSync(
      NODE,
      [...SERVER_NODE_FLAGS, path.join(ROOT, "tests/support/heap-at-rest.ts"), "3000"],
      {
        encoding: "utf8",
        env: { ...process.env, ...SERVER_MALLOC_ENV },
        timeout: 50_000,
      },
    );
    if (run.status !== 0) throw new Error(`the child failed (${run.status}): ${run.stderr}`);
    const heap = JSON.parse(run.stdout.trim().split("\n").at(-1) as string) as {
      burstHeapMb: number;
      restHeapMb: number;
    };
    expect(heap.restHeapMb, `V8's heap after the burst: ${heap.burstHeapMb} MB`).toBeLessThanOrEqual(24);
  });
});
