import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SERVER_NODE_FLAGS } from "./app-server.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

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
});
