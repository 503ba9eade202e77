/**
 * Reference endpoints for `npm run bench` (BENCHMARKS.md): static bytes from memory served by this
 * same process, its CPU time, and its request log switched on and off, so every figure is a ratio
 * measured in one run.
 *
 * They exist only in a bench build: `BENCH_BUILD=1 react-router build` (scripts/bench/lib.ts) adds
 * the bare reference page to the route config (app/routes.ts), and the server registers these
 * endpoints only when the build it serves has that page and BENCH_REFERENCE=1 is set. `npm run
 * build` never sets BENCH_BUILD, so no setting of a production server can turn them on.
 */
import type express from "express";
import type { ServerBuild } from "react-router";
import { flushLogs, rootLogger } from "../utils/logger.server.ts";

/** The route id of the bare reference page, present only in a bench build. */
export const BENCH_BARE_ROUTE_ID = "routes/resources/bench-bare";

export function isBenchBuild(build: ServerBuild) {
  return BENCH_BARE_ROUTE_ID in build.routes;
}

export function registerBenchEndpoints(app: express.Express, pageCacheStats: () => unknown) {
  const blobs = new Map<number, Buffer>();
  let served = 0;
  // As lean as serving bytes from memory gets in this stack (no router, no query parser), at the
  // same place in the middleware chain as the page cache: the ceiling a cache hit is compared with.
  app.use((req, res, next) => {
    served++;
    if (!req.url.startsWith("/__bench/static?bytes=")) return next();
    const bytes = Math.min(Math.max(Number.parseInt(req.url.slice(22), 10) || 0, 0), 16 * 1024 * 1024);
    let body = blobs.get(bytes);
    if (!body) {
      body = Buffer.alloc(bytes, "<p>Capital Grown reference bytes</p>\n");
      blobs.set(bytes, body);
    }
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("Cache-Control", "no-cache");
    res.setHeader("Content-Length", body.length);
    res.end(body);
  });
  // The request log's cost is measured in one process, its level switched between runs: two
  // server processes differ by a few per cent per request whatever they log (record 024).
  app.get("/__bench/log-level", (req, res) => {
    const level = req.query.to;
    if (level !== "info" && level !== "silent") {
      res.status(400).json({ error: "to=info or to=silent" });
      return;
    }
    // What the level that ends here cost: its lines written first, then this process's CPU time
    // and the requests it has seen so far (the bench subtracts one switch's figures from the next's).
    flushLogs();
    const { user, system } = process.cpuUsage();
    rootLogger().level = level;
    res.json({ level, cpuMicroseconds: user + system, served });
  });
  app.get("/__bench/stats", (_req, res) => {
    res.json({ cpu: process.cpuUsage(), memory: process.memoryUsage(), pageCache: pageCacheStats() });
  });
}
