/**
 * Brotli (quality 11) bodies of the fingerprinted build assets, compressed once in the background at
 * start and served from memory to browsers that accept brotli: smaller than the on-the-fly gzip of
 * the compression middleware (fewer bytes on a phone's network) and no per-request compression work.
 * Until a file is ready, and for clients without brotli, requests fall through to express.static.
 */
import { readdir, readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { brotliText, preferredEncoding } from "./page-cache.server.ts";

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
};

export function precompressedAssets(assetsDir: string) {
  const bodies = new Map<string, { body: Buffer; type: string }>();

  async function compressAll() {
    let names: string[];
    try {
      names = await readdir(assetsDir);
    } catch {
      return;
    }
    // One at a time: a background chore that must not crowd out requests at start.
    for (const name of names) {
      const type = TYPES[path.extname(name)];
      if (!type) continue;
      const raw = await readFile(path.join(assetsDir, name));
      if (raw.length < 1024) continue;
      const body = await brotliText(raw, 11);
      bodies.set(`/${name}`, { body, type });
    }
  }
  const ready = compressAll();

  /** Middleware mounted at the assets URL prefix (req.url is the file name below it). */
  function handle(req: IncomingMessage, res: ServerResponse, next: () => void) {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const entry = bodies.get((req.url ?? "").split("?")[0] ?? "");
    if (!entry || preferredEncoding(req.headers["accept-encoding"] as string | undefined) !== "br")
      return next();
    res.setHeader("Content-Type", entry.type);
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.setHeader("Content-Encoding", "br");
    res.setHeader("Vary", "Accept-Encoding");
    res.setHeader("Content-Length", entry.body.length);
    res.end(req.method === "HEAD" ? undefined : entry.body);
  }
  return { handle, ready };
}
