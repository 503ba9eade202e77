import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SERVER_MALLOC_ENV } from "#tests/support/app-server.ts";
import { tempFolders } from "#tests/support/temp-folders.ts";
import { compileWithoutParserTierUp } from "./pglite-wasm.server.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const NODE = path.join(ROOT, "node_modules/.bin/node");
const PEAK = path.join(ROOT, "tests/support/pglite-peak.ts");
const newDataDir = tempFolders("cg-pglite-wasm-");
const wasmFile = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite")),
  "pglite.wasm",
);

function peakOfOpening(dataDir: string) {
  const run = spawnSync(NODE, [PEAK, dataDir], {
    encoding: "utf8",
    env: { ...process.env, ...SERVER_MALLOC_ENV },
    timeout: 180_000,
  });
  if (run.status !== 0) throw new Error(`the child failed (${run.status}): ${run.stderr}`);
  return (JSON.parse(run.stdout.trim().split("\n").at(-1) as string) as { peakMb: number }).peakMb;
}

describe("PGlite's WebAssembly", () => {
  it("marks PostgreSQL's parser, and nothing else, to stay on the baseline compiler", () => {
    const module = compileWithoutParserTierUp(readFileSync(wasmFile));
    const [hints] = WebAssembly.Module.customSections(module, "compilationHints");
    const bytes = new Uint8Array(hints as ArrayBuffer);
    // A LEB128 count of the module's functions, then one byte per function.
    const countLength = bytes.findIndex((value) => value < 0x80) + 1;
    const marked = [...bytes.subarray(countLength).entries()].filter(([, value]) => value !== 0);
    expect(marked).toHaveLength(1);
    // eager, baseline tier and top tier both the baseline compiler
    expect(marked[0]?.[1]).toBe(0x16);
    expect(WebAssembly.Module.exports(module).some((entry) => entry.name === "raw_parser")).toBe(true);
  });

  it("reopens a database and runs the shop's statements within 512 MB of peak RSS", () => {
    const dataDir = newDataDir();
    // The first opening creates the database (initdb); the figure is the second, as at a restart.
    peakOfOpening(dataDir);
    expect(peakOfOpening(dataDir)).toBeLessThanOrEqual(512);
  }, 400_000);
});
