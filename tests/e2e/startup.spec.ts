import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { SOURCE_HASH_FILE, sourceHash } from "../../scripts/source-hash.ts";
import { freePort, startApp } from "../support/app-server.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Runs the production server with extra environment and collects what it printed until it exits. */
function runServer(env: Record<string, string | undefined>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(path.join(ROOT, "node_modules/.bin/node"), [path.join(ROOT, "server.ts")], {
      cwd: ROOT,
      env: {
        ...process.env,
        BUILD_DIR: process.env.E2E_BUILD_DIR,
        HOST: "127.0.0.1",
        DATABASE_URL: undefined,
        ...env,
      } as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

test.describe("starting the server", () => {
  test("a bad PORT stops start-up with one clear line and no stack trace", async () => {
    const result = await runServer({ PORT: "not-a-port" });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'Invalid configuration: PORT must be a whole number from 1 to 65535 (got "not-a-port")',
    );
  });

  test("a bad DATABASE_URL stops start-up with one clear line", async () => {
    const malformed = await runServer({ DATABASE_URL: "mysql://127.0.0.1/shop" });
    expect(malformed.code).toBe(1);
    expect(malformed.stderr.trim()).toBe(
      "Invalid configuration: DATABASE_URL must be a postgres:// or postgresql:// URL",
    );

    const unreachable = await runServer({
      DATABASE_URL: "postgres://postgres@127.0.0.1:1/nowhere",
      PORT: String(await freePort()),
    });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr.trim().split("\n")).toHaveLength(1);
    expect(unreachable.stderr).toContain(
      "Could not start: the database at DATABASE_URL is not usable (connect ECONNREFUSED",
    );
  });

  test("a second server on the data folder in use refuses to start", async () => {
    const result = await runServer({ DATA_DIR: process.env.E2E_DATA_DIR, PORT: String(await freePort()) });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(
      /^Could not start: The data folder .+ is in use by the Capital Grown server \(pid \d+\)/,
    );
  });

  test("SIGTERM finishes in-flight work and exits cleanly, and a restart serves the same data", async () => {
    const buildDir = process.env.E2E_BUILD_DIR as string;
    const first = await startApp({ buildDir, env: { SEED_DEMO: "false" } });
    const health = await fetch(`${first.url}/healthz`);
    expect(health.status).toBe(200);
    const started = Date.now();
    await first.stop();
    expect(first.process.exitCode).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);

    const second = await startApp({ buildDir, dataDir: first.dataDir, env: { SEED_DEMO: "false" } });
    try {
      expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
    } finally {
      await second.stop();
    }
  });

  test("SIGTERM to the pid of `npm start` (as a supervisor or a pidfile sends it) stops the server, exit 0", async () => {
    const buildDir = process.env.E2E_BUILD_DIR as string;
    // The build was made from these sources: `npm start` serves it without building again.
    writeFileSync(path.join(buildDir, SOURCE_HASH_FILE), sourceHash());
    const port = await freePort();
    const dataDir = await mkdtemp(path.join(tmpdir(), "cg-npm-start-"));
    const npm = spawn("npm", ["start", "--silent"], {
      cwd: ROOT,
      env: {
        ...process.env,
        BUILD_DIR: buildDir,
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        DATABASE_URL: undefined,
        SEED_DEMO: "false",
        BACKUP_TIME: "off",
        LOG_LEVEL: "warn",
      } as NodeJS.ProcessEnv,
      detached: true,
      stdio: "ignore",
    });
    const group = npm.pid as number;
    const exited = new Promise<number | null>((resolve) => npm.once("exit", (code) => resolve(code)));
    try {
      await expect
        .poll(
          () =>
            fetch(`http://127.0.0.1:${port}/healthz`).then(
              (r) => r.status,
              () => 0,
            ),
          {
            timeout: 60_000,
          },
        )
        .toBe(200);
      process.kill(group, "SIGTERM");
      expect(await exited).toBe(0);
      // Nothing of the group is left: no orphaned server holding the port or the data folder.
      await expect
        .poll(
          () => {
            try {
              process.kill(-group, 0);
              return "running";
            } catch {
              return "gone";
            }
          },
          { timeout: 15_000 },
        )
        .toBe("gone");
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    } finally {
      try {
        process.kill(-group, "SIGKILL");
      } catch {}
    }
  });

  test("a client's mistake the router answers (a GET to the action-only photo upload) is not logged as a server error", async () => {
    const app = await startApp({
      buildDir: process.env.E2E_BUILD_DIR as string,
      env: { SEED_DEMO: "false" },
    });
    try {
      const response = await fetch(`${app.url}/api/id-photo`);
      expect(response.status).toBe(400);
      // Not a form at all: refused before the app (record 015).
      const notAForm = await fetch(`${app.url}/api/id-photo`, { method: "POST" });
      expect(notAForm.status).toBe(415);
      expect(await notAForm.json()).toEqual({
        error: "Send the form as application/x-www-form-urlencoded or multipart/form-data.",
      });
      const failure = await fetch(`${app.url}/api/id-photo`, {
        method: "POST",
        headers: { "Content-Type": "multipart/form-data; boundary=x" },
        body: "--y\r\nbroken",
      });
      expect(failure.status).toBe(400);
      expect(await failure.json()).toEqual({
        error: "The form could not be read. Please check your details and try again.",
      });
      expect(app.logs()).not.toContain("Unhandled error");
    } finally {
      await app.stop();
    }
  });
});
