/**
 * `npm start`: builds the app when the sources changed since the last build, then runs the server
 * (which migrates, seeds and serves).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

// A production server: Express and React take their production paths (no stacks on pages). Set
// before server.ts is imported: React picks its build when it is first loaded.
process.env.NODE_ENV = "production";

const root = path.resolve(import.meta.dirname, "..");
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
const stampFile = path.join(buildDir, ".source-hash");
const SOURCES = ["app", "public", "package-lock.json", "vite.config.ts", "react-router.config.ts"];

function* files(entry: string): Generator<string> {
  const full = path.join(root, entry);
  if (!existsSync(full)) return;
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full).sort()) yield* files(path.join(entry, name));
  } else {
    yield entry;
  }
}

function sourceHash() {
  const hash = createHash("sha256");
  for (const source of SOURCES) {
    for (const file of files(source)) {
      hash.update(file);
      hash.update(readFileSync(path.join(root, file)));
    }
  }
  return hash.digest("hex");
}

const wanted = sourceHash();
const built = existsSync(stampFile) ? readFileSync(stampFile, "utf8").trim() : "";
if (wanted !== built || !existsSync(path.join(buildDir, "server/index.js"))) {
  console.log("Building the app (sources changed since the last build)…");
  const result = spawnSync("react-router", ["build"], { cwd: root, stdio: "inherit", shell: false });
  if (result.status !== 0) {
    console.error("The build failed: see the messages above.");
    process.exit(result.status ?? 1);
  }
  writeFileSync(stampFile, wanted);
}

await import("../server.ts");
