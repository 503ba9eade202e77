/**
 * `npm start`: builds the app when the sources changed since the last build, then runs the server
 * (which migrates, seeds and serves).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SOURCE_HASH_FILE, sourceHash } from "./source-hash.ts";

// A production server: Express and React take their production paths (no stacks on pages). Set
// before server.ts is imported: React picks its build when it is first loaded.
process.env.NODE_ENV = "production";

const root = path.resolve(import.meta.dirname, "..");
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
const stampFile = path.join(buildDir, SOURCE_HASH_FILE);

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
