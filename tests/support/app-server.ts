import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const NODE = path.join(ROOT, "node_modules/.bin/node");
/** Node's flags for the server, as `npm start`, `npm run serve` and the Dockerfile pass them (record 040). */
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=16"];
/**
 * glibc's allocator as `npm start`, `npm run serve` and the Dockerfile set it (record 015): two
 * malloc arenas, and every block of 64 KB or more (a socket read's buffer) mapped on its own, so
 * memory goes back after a burst. Read at process start: only a child process can be given it.
 */
export const SERVER_MALLOC_ENV = { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "65536" };

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

/** Builds the production bundle into a folder of its own (parallel runs never share `build/`). */
export function buildApp(buildDir: string, env: Record<string, string> = {}) {
  mkdirSync(path.dirname(buildDir), { recursive: true });
  rmSync(buildDir, { recursive: true, force: true });
  const result = spawnSync(path.join(ROOT, "node_modules/.bin/react-router"), ["build"], {
    cwd: ROOT,
    env: { ...process.env, BUILD_DIR: buildDir, NODE_ENV: "production", ...env },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`Build failed:\n${result.stdout}\n${result.stderr}`);
}

/**
 * Per-address budgets (P-29) high enough that a load or story test, whose every request
 * comes from 127.0.0.1, never meets them: raised through the configuration, as an operator would.
 * Tests that check a budget start their app without these. Likewise each delivery slot's default
 * capacity (P-22): load and story tests place far more than 8 orders in one slot; the
 * capacity stories start their own server and set capacities at /admin/settings/delivery.
 */
export const LOAD_TEST_BUDGETS = {
  DELIVERY_SLOT_CAPACITY: "100000000",
  ORDERS_PER_HOUR: "100000000",
  ID_UPLOADS_PER_HOUR: "100000000",
  CART_PRICES_PER_MINUTE: "100000000",
  SEARCHES_PER_MINUTE: "100000000",
};

export type RunningApp = {
  url: string;
  dataDir: string;
  process: ChildProcess;
  stop(): Promise<void>;
  logs(): string;
};

/**
 * Starts the built server on a free loopback port with a fresh data folder (or `dataDir`), in its
 * own process group, and waits until /healthz answers.
 */
export async function startApp(options: {
  buildDir: string;
  env?: Record<string, string | undefined>;
  dataDir?: string;
  startTimeoutMs?: number;
  /**
   * Where the server's output goes: into this file, as `npm start > shop.log` would (the log's
   * cost is then the server's alone), instead of a pipe this process reads.
   */
  outputFile?: string;
  /** Called with the server's pid as soon as it is spawned (the memory bench samples it from then). */
  onSpawn?: (pid: number) => void;
  /**
   * The host of PUBLIC_URL (default 127.0.0.1): `localhost` for a story with passkeys, which need a
   * domain as the relying party (WebAuthn refuses an IP address). The server still listens on 127.0.0.1.
   */
  publicHost?: string;
}): Promise<RunningApp> {
  const port = await freePort();
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), "cg-e2e-data-"));
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATABASE_URL: undefined,
    NODE_ENV: "production",
    BUILD_DIR: options.buildDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://${options.publicHost ?? "127.0.0.1"}:${port}`,
    LOG_LEVEL: "warn",
    ...SERVER_MALLOC_ENV,
    // No daily backup (and its restore check) from every short-lived test server: the backup
    // stories ask for theirs (npm run db:backup) or set BACKUP_TIME.
    BACKUP_TIME: "off",
    // Nor a low-stock digest mail in the outbox of every test server at opening time (record 028).
    LOW_STOCK_DIGEST_TIME: "off",
    // Nor an audit digest to the owners (record 036).
    AUDIT_DIGEST_TIME: "off",
    ...options.env,
  };
  let output = "";
  const outputFd = options.outputFile ? openSync(options.outputFile, "a") : undefined;
  const child = spawn(NODE, [...SERVER_NODE_FLAGS, path.join(ROOT, "server.ts")], {
    cwd: ROOT,
    env: env as NodeJS.ProcessEnv,
    detached: true,
    stdio: outputFd === undefined ? ["ignore", "pipe", "pipe"] : ["ignore", outputFd, outputFd],
  });
  if (outputFd !== undefined) closeSync(outputFd);
  if (child.pid) options.onSpawn?.(child.pid);
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 90_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The app exited during start:\n${output}`);
    if (Date.now() > deadline) throw new Error(`The app did not start in time:\n${output}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  return {
    url,
    dataDir,
    process: child,
    logs: () => (options.outputFile ? readFileSync(options.outputFile, "utf8") : output),
    async stop() {
      if (child.exitCode !== null || !child.pid) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid, "SIGTERM");
      const timer = setTimeout(() => {
        if (child.pid && child.exitCode === null) process.kill(-child.pid, "SIGKILL");
      }, 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
