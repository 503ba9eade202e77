import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempFolders } from "#tests/support/temp-folders.ts";
import { acquireDataDirLock, DataDirLockedError } from "./data-dir-lock.server.ts";

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
});
const newDataDir = tempFolders("cg-lock-");

function processStart(pid: number) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
}

function writeLock(dataDir: string, pid: number, start = processStart(pid)) {
  writeFileSync(
    path.join(dataDir, "capital-grown.lock"),
    JSON.stringify({
      pid,
      owner: "the Capital Grown server",
      startedAt: "2026-11-23T00:00:00Z",
      processStart: start,
    }),
  );
}

/** A process that has exited but is not reaped yet: what a killed server is until its parent waits. */
async function zombiePid(): Promise<number> {
  const parent = spawn("sh", ["-c", "sleep 0 & echo $!; exec sleep 30"], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  children.push(parent);
  const pid = await new Promise<number>((resolve) =>
    parent.stdout?.once("data", (chunk) => resolve(Number(String(chunk)))),
  );
  for (let i = 0; i < 100 && !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z "); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return pid;
}

function liveProcess() {
  const child = spawn("sleep", ["30"], { stdio: "ignore" });
  children.push(child);
  return child.pid as number;
}

describe.skipIf(process.platform !== "linux")("the data-folder lock", () => {
  it("takes over at once from a killed holder its parent has not reaped yet", async () => {
    const dataDir = newDataDir();
    const pid = await zombiePid();
    writeLock(dataDir, pid);
    const release = await acquireDataDirLock(dataDir, "the test");
    expect(JSON.parse(readFileSync(path.join(dataDir, "capital-grown.lock"), "utf8")).pid).toBe(process.pid);
    release();
  });

  it("refuses a live holder at once, naming its pid", async () => {
    const dataDir = newDataDir();
    const pid = liveProcess();
    writeLock(dataDir, pid);
    const started = Date.now();
    const error = await acquireDataDirLock(dataDir, "the test").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as Error).message).toBe(
      `The data folder ${dataDir} is in use by the Capital Grown server (pid ${pid}); stop it first or use another DATA_DIR.`,
    );
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("takes over from a pid that now belongs to another process", async () => {
    const dataDir = newDataDir();
    writeLock(dataDir, liveProcess(), "1");
    const release = await acquireDataDirLock(dataDir, "the test");
    release();
  });
});
