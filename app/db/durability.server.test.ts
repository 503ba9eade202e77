import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempFolders } from "#tests/support/temp-folders.ts";
import { openDatabase } from "./client.server.ts";
import { DataDirLockedError } from "./data-dir-lock.server.ts";
import { adminUsers } from "./schema.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const NODE = path.join(ROOT, "node_modules/.bin/node");
const WRITER = path.join(ROOT, "tests/support/pglite-writer.ts");
const newDataDir = tempFolders("cg-durability-");

function startWriter(dataDir: string) {
  const child = spawn(NODE, [WRITER, dataDir], { stdio: ["ignore", "pipe", "pipe"] });
  const committed: string[] = [];
  let stderr = "";
  let buffer = "";
  child.stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const line of lines) if (line.startsWith("committed ")) committed.push(line.slice(10));
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return { child, committed, stderr: () => stderr };
}

function exited(child: ChildProcess) {
  return new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
}

async function waitFor(condition: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("Timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("embedded database on disk", () => {
  it("keeps every acknowledged row after kill -9, and the next start takes over the stale lock", async () => {
    const dataDir = newDataDir();
    for (let round = 0; round < 2; round++) {
      const writer = startWriter(dataDir);
      await waitFor(() => writer.committed.length >= 30 + round * 10, 60_000).catch(() => {
        throw new Error(`The writer made no progress: ${writer.stderr()}`);
      });
      writer.child.kill("SIGKILL");
      await exited(writer.child);
      const acknowledged = [...writer.committed];

      const handle = await openDatabase({ kind: "pglite", dataDir, lockOwner: "the test" });
      try {
        const ids = new Set(
          (await handle.db.select({ id: adminUsers.id }).from(adminUsers)).map((row) => row.id),
        );
        const missing = acknowledged.filter((id) => !ids.has(id));
        expect(missing).toEqual([]);
      } finally {
        await handle.close();
      }
    }
  });

  it("refuses a second process on a data folder in use, with one clear line", async () => {
    const dataDir = newDataDir();
    const handle = await openDatabase({ kind: "pglite", dataDir, lockOwner: "the Capital Grown server" });
    try {
      const writer = startWriter(dataDir);
      const code = await exited(writer.child);
      expect(code).not.toBe(0);
      expect(writer.committed).toEqual([]);
      expect(writer.stderr()).toContain(`The data folder ${dataDir} is in use by the Capital Grown server`);
      await expect(openDatabase({ kind: "pglite", dataDir })).rejects.toBeInstanceOf(DataDirLockedError);
    } finally {
      await handle.close();
    }
    // Released on close: the folder opens again.
    const again = await openDatabase({ kind: "pglite", dataDir });
    await again.close();
  });
});
