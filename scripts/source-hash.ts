/**
 * The fingerprint of everything a production build is made from. `npm start` keeps it beside the
 * build (`.source-hash`) and rebuilds only when the sources no longer match it.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const SOURCES = ["app", "public", "package-lock.json", "vite.config.ts", "react-router.config.ts"];

export const SOURCE_HASH_FILE = ".source-hash";

function* files(entry: string): Generator<string> {
  const full = path.join(ROOT, entry);
  if (!existsSync(full)) return;
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full).sort()) yield* files(path.join(entry, name));
  } else {
    yield entry;
  }
}

export function sourceHash() {
  const hash = createHash("sha256");
  for (const source of SOURCES) {
    for (const file of files(source)) {
      hash.update(file);
      hash.update(readFileSync(path.join(ROOT, file)));
    }
  }
  return hash.digest("hex");
}
