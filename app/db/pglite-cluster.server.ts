import {
  closeSync,
  createReadStream,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { createGunzip } from "node:zlib";

/**
 * PGlite runs PostgreSQL in WebAssembly memory, which grows and never shrinks, with PostgreSQL's
 * defaults: 128 MB of shared buffers, all of it written at start (about 130 MB of the process's RSS
 * whatever the size of the shop). A shop's hot data fits in far less, and the data files it reads
 * stay in the operating system's page cache, outside the process.
 */
export const PGLITE_SETTINGS = ["shared_buffers=16MB", "maintenance_work_mem=16MB", "temp_buffers=2MB"];

/**
 * A new, empty PostgreSQL cluster made by PGlite's initdb with PGLITE_SETTINGS, shipped with the
 * app (`npm run db:pglite-cluster` makes it again). PGlite's own initdb runs a second PostgreSQL in
 * memory beside the server's and copies its files through memory: about 400 MB more at a first
 * start than at a restart (record 040). Unpacked from disk to disk, a new data folder costs what
 * a restart costs, and its migrations.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
// Beside this module when it runs from the sources; from the production build (bundled into
// build/server/assets), in the app's folder.
const clusterFolder =
  [path.join(here, "pglite-cluster"), path.resolve(process.cwd(), "app/db/pglite-cluster")].find((folder) =>
    existsSync(path.join(folder, "empty-cluster.json")),
  ) ?? path.join(here, "pglite-cluster");
export const EMPTY_CLUSTER_FILE = path.join(clusterFolder, "empty-cluster.tar.gz");
export const EMPTY_CLUSTER_INFO = path.join(clusterFolder, "empty-cluster.json");

export type EmptyClusterInfo = { pglite: string; settings: string[] };

/** The installed PGlite's version: a cluster only opens with the PostgreSQL build that made it. */
export function installedPgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  let folder = path.dirname(entry);
  while (!existsSync(path.join(folder, "package.json")) && folder !== path.dirname(folder)) {
    folder = path.dirname(folder);
  }
  return (JSON.parse(readFileSync(path.join(folder, "package.json"), "utf8")) as { version: string }).version;
}

/** Why the shipped cluster cannot be used here, or null when it can. */
export function shippedClusterMismatch(): string | null {
  if (!existsSync(EMPTY_CLUSTER_FILE) || !existsSync(EMPTY_CLUSTER_INFO)) return "no shipped cluster";
  const info = JSON.parse(readFileSync(EMPTY_CLUSTER_INFO, "utf8")) as EmptyClusterInfo;
  const installed = installedPgliteVersion();
  if (info.pglite !== installed) return `made by PGlite ${info.pglite}, ${installed} installed`;
  if (JSON.stringify(info.settings) !== JSON.stringify(PGLITE_SETTINGS)) return "made with other settings";
  return null;
}

function isEmptyFolder(folder: string) {
  return !existsSync(folder) || readdirSync(folder).length === 0;
}

/**
 * Unpacks the shipped empty cluster into `pgdata` when that folder is missing or empty; returns
 * false (PGlite then runs its own initdb) when it holds something or the shipped cluster does not
 * fit the installed PGlite. The files are unpacked beside it and renamed into place: a start
 * interrupted halfway leaves no half cluster behind.
 */
export async function unpackEmptyCluster(pgdata: string): Promise<boolean> {
  if (!isEmptyFolder(pgdata) || shippedClusterMismatch() !== null) return false;
  const unpacking = `${pgdata}.unpacking`;
  rmSync(unpacking, { recursive: true, force: true });
  mkdirSync(unpacking, { recursive: true, mode: 0o700 });
  await pipeline(
    createReadStream(EMPTY_CLUSTER_FILE, { highWaterMark: 256 * 1024 }),
    createGunzip(),
    tarExtractor(unpacking),
  );
  rmSync(pgdata, { recursive: true, force: true });
  renameSync(unpacking, pgdata);
  return true;
}

const BLOCK = 512;

/**
 * Writes a tar stream's folders and regular files under `target`, a block at a time (ustar and the
 * old format: what PGlite's `dumpDataDir` writes). Folders 0700, files 0600, whatever the archive
 * says; links and anything outside `target` are refused.
 */
function tarExtractor(target: string) {
  return async (source: AsyncIterable<Buffer>) => {
    let pending: Buffer = Buffer.alloc(0);
    let fd: number | null = null;
    let left = 0;
    let padding = 0;
    let ended = false;
    const resolveInside = (name: string) => {
      const relative = path.normalize(name.replace(/^\/+/, ""));
      if (relative.startsWith("..") || path.isAbsolute(relative))
        throw new Error(`tar entry outside the folder: ${name}`);
      return path.join(target, relative);
    };
    for await (const chunk of source) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      let at = 0;
      while (!ended) {
        if (fd !== null || left > 0) {
          const take = Math.min(left, pending.length - at);
          if (take === 0) break;
          if (fd !== null) writeSync(fd, pending, at, take);
          at += take;
          left -= take;
          if (left > 0) break;
          if (fd !== null) closeSync(fd);
          fd = null;
          left = padding;
          padding = 0;
          if (left > 0) continue;
        }
        if (pending.length - at < BLOCK) break;
        const header = pending.subarray(at, at + BLOCK);
        at += BLOCK;
        if (header.every((byte) => byte === 0)) {
          ended = true;
          break;
        }
        const text = (from: number, length: number) =>
          header
            .subarray(from, from + length)
            .toString("utf8")
            .replace(/\0.*$/s, "");
        const prefix = text(257, 6).startsWith("ustar") ? text(345, 155) : "";
        const name = prefix ? `${prefix}/${text(0, 100)}` : text(0, 100);
        const size = Number.parseInt(text(124, 12).trim() || "0", 8);
        const type = text(156, 1) || "0";
        const destination = resolveInside(name);
        if (type === "5") {
          mkdirSync(destination, { recursive: true, mode: 0o700 });
        } else if (type === "0") {
          mkdirSync(path.dirname(destination), { recursive: true, mode: 0o700 });
          fd = openSync(destination, "w", 0o600);
        } else {
          throw new Error(`unexpected tar entry ${name} (type ${type})`);
        }
        left = size;
        padding = (BLOCK - (size % BLOCK)) % BLOCK;
        if (fd !== null && size === 0) {
          closeSync(fd);
          fd = null;
        }
      }
      pending = pending.subarray(at);
    }
    if (fd !== null) closeSync(fd);
    if (left > 0) throw new Error("tar archive cut short");
  };
}
