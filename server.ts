/**
 * The production web server: security headers, the catalogue page cache, compression, request logs,
 * static files and the React Router request handler, with a graceful shutdown. Run it through
 * `npm start`.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import net from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import {
  createRequestHandler as createRouterHandler,
  RouterContextProvider,
  type ServerBuild,
} from "react-router";
import { databaseUnavailablePage, RETRY_AFTER_SECONDS } from "./app/db/database-unavailable.server.ts";
import { isBenchBuild, registerBenchEndpoints } from "./app/server/bench.server.ts";
import { capConnections } from "./app/server/connection-cap.server.ts";
import { createNonce, hashPolicy, noncePolicy } from "./app/server/content-security-policy.server.ts";
import {
  crossSiteGuard,
  finalErrorHandler,
  hostGuard,
  methodGuard,
  originFormTarget,
} from "./app/server/http-guards.server.ts";
import { releaseMemoryWhenIdle } from "./app/server/idle-memory.server.ts";
import { metricsAccess } from "./app/server/ops-endpoints.server.ts";
import { PageCache } from "./app/server/page-cache.server.ts";
import { precompressedAssets } from "./app/server/page-cache-assets.server.ts";
import type { Readiness } from "./app/server/readiness.server.ts";
import { boundRequests } from "./app/server/request-bounds.server.ts";
import { routePatterns } from "./app/server/route-pattern.server.ts";
import { cataloguePages } from "./app/utils/catalogue-pages.ts";
import { ConfigError, parseConfig } from "./app/utils/env.server.ts";
import { flushLogs, log, logRequest, rootCauseMessage, withRequestId } from "./app/utils/logger.server.ts";
import { metrics } from "./app/utils/metrics.server.ts";
import { PRIVATE_UMASK } from "./app/utils/private-data-dir.server.ts";

type AppEntry = {
  boot(): Promise<{ database: string }>;
  shutdown(): Promise<void>;
  readiness(): Promise<Readiness>;
  /** Why this instance takes no writes (a newer version migrated the database), or undefined. */
  writesRefused(): string | undefined;
  requestInfoContext: Parameters<RouterContextProvider["set"]>[0];
  catalogVersion: {
    current(): number | undefined;
    unreachableVersion(): number | undefined;
    subscribe(listener: (version: number) => void): () => void;
  };
};

function fail(message: string): never {
  flushLogs();
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

// Everything this process writes (the embedded database, keys, e-mails, backups) is private.
process.umask(PRIVATE_UMASK);

let settings: ReturnType<typeof parseConfig>;
try {
  settings = parseConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}

const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
const build = (await import(pathToFileURL(path.join(buildDir, "server/index.js")).href)) as ServerBuild;
const entry = build.entry.module as unknown as AppEntry;

let database: string;
try {
  ({ database } = await entry.boot());
} catch (error) {
  const detail = rootCauseMessage(error);
  fail(
    settings.DATABASE_URL && !(error as { refusesStart?: boolean }).refusesStart
      ? `Could not start: the database at DATABASE_URL is not usable (${detail})`
      : `Could not start: ${detail}`,
  );
}

const REQUEST_ID = /^[\w-]{1,64}$/;
let stopping = false;

const app = express();
app.disable("x-powered-by");
// X-Forwarded-For is read only from the proxies TRUST_PROXY names (P-30): by default nobody.
app.set("trust proxy", settings.TRUST_PROXY);
// `GET http://host/path HTTP/1.1`: served as `/path` from here on (http-guards.server.ts).
app.use(originFormTarget(settings.publicUrl));

// --- Request ids, the request log, the duration histogram (record 018) ---
const routeOf = routePatterns(build.routes);
const OPS_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);
const requestDuration = metrics().requestDuration;
const ROUTE = Symbol("route pattern");
type LoggedRequest = IncomingMessage & { [ROUTE]?: string };

/** The route pattern (never the URL: it can hold an order's token), computed once per request. */
function routeOfRequest(req: LoggedRequest) {
  let route = req[ROUTE];
  if (route === undefined) {
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    route = routeOf(query === -1 ? url : url.slice(0, query));
    req[ROUTE] = route;
  }
  return route;
}

function levelOf(route: string, status: number) {
  // 503 is a refusal the shop chose (not ready, stopping, the database away: that outage has its
  // own warn line with a count), not an error of this request.
  if (status >= 500 && status !== 503) return "error";
  return OPS_PATHS.has(route) ? "debug" : "info";
}

// One line per request, written when its response is done (or its connection lost), and one
// duration observation: the same listener, one clock reading at each end (record 024).
app.use((req, res, next) => {
  const incoming = req.headers["x-request-id"];
  const requestId = typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  const request = req as unknown as LoggedRequest;
  res.locals.requestId = requestId;
  res.setHeader("X-Request-Id", requestId);
  // While shutting down, no connection is kept for another request.
  if (stopping) res.setHeader("Connection", "close");
  const started = performance.now();
  res.on("close", () => {
    const ms = performance.now() - started;
    const route = routeOfRequest(request);
    const status = res.statusCode;
    const finished = res.writableFinished;
    if (finished) requestDuration.observe({ route, status }, ms / 1000);
    const cache = res.getHeader("x-cache");
    logRequest(
      levelOf(route, status),
      requestId,
      req.method,
      route,
      status,
      ms,
      typeof cache === "string" ? cache : undefined,
      !finished,
    );
  });
  withRequestId(requestId, next);
});

// --- Endpoints for operators: before every guard, limit and cache ---
/** Liveness: the process answers. No database query, so a database outage never restarts it. */
app.get("/healthz", (_req, res) => {
  res.setHeader("Cache-Control", "no-store");
  res.json({ status: "ok" });
});
/**
 * Readiness: 200 only when this instance can take orders (the database answers and takes writes,
 * DATA_DIR has room, migrations, LISTEN) and is not stopping.
 */
app.get("/readyz", async (_req, res) => {
  const state = stopping
    ? {
        ready: false,
        database: false,
        listen: false,
        migrations: true,
        writes: false,
        disk: true,
        diskFreeMb: null,
      }
    : await entry.readiness();
  res.setHeader("Cache-Control", "no-store");
  if (!state.ready) res.setHeader("Retry-After", "5");
  res.status(state.ready ? 200 : 503).json({
    status: stopping ? "stopping" : state.ready ? "ready" : "unavailable",
    database: state.database ? "reachable" : "unreachable",
    listen: state.listen ? "connected" : "disconnected",
    migrations: state.migrations ? "applied" : "unknown",
    writes: state.writes ? "ok" : "failing",
    disk: state.disk ? "ok" : "low",
    diskFreeMb: state.diskFreeMb,
    // docs/decisions/038-rolling-upgrades.md: what the operator is to do is in the message.
    ...(state.schemaNewer
      ? { schema: "newer than this build: stop this instance", message: state.schemaNewer }
      : {}),
  });
});
/** Prometheus metrics: loopback peers (not forwarded), or `Authorization: Bearer $METRICS_TOKEN`. */
const trustedProxy = app.get("trust proxy fn") as (address: string, hop: number) => boolean;
const isProxyPeer = (address: string) => trustedProxy(address, 0);
app.get("/metrics", async (req, res, next) => {
  const access = metricsAccess(req, settings.METRICS_TOKEN, isProxyPeer);
  res.setHeader("Cache-Control", "no-store");
  if (access === "unauthorized") {
    res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
    res.status(401).type("text/plain").send("Unauthorized\n");
    return;
  }
  if (access === "hidden") return next();
  try {
    const { contentType, body } = await metrics().scrape();
    res.setHeader("Content-Type", contentType);
    res.send(body);
  } catch (error) {
    next(error);
  }
});

// --- Nonces, methods, cross-site refusals, last error handler ---
/** The CSP of one response: its scripts must carry its nonce (record 013). */
const cspWithNonce = noncePolicy(settings.IMAGE_HOSTS);

app.use((_req, res, next) => {
  const nonce = createNonce();
  res.locals.nonce = nonce;
  res.setHeader("Content-Security-Policy", cspWithNonce(nonce));
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  if (settings.secureCookies) {
    res.setHeader("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  }
  next();
});

// TRACE, CONNECT, PROPFIND…: 405 with Allow. No usable Host: 400. Any POST from another site's
// page: 403, on every route.
app.use(methodGuard);
app.use(hostGuard);
app.use(crossSiteGuard(settings.publicUrl));

// Bounded work per request (record 015): a POST must be a form (415), and every body has a
// limit by route before it is read (413).
app.use(boundRequests());

/** `nonce`: the response's own, or none for a page the page cache renders (its bytes are shared). */
function loadContext(req: express.Request, res: express.Response, nonce = res.locals.nonce as string) {
  const context = new RouterContextProvider();
  context.set(entry.requestInfoContext, {
    requestId: res.locals.requestId as string,
    clientAddress: req.ip ?? "unknown",
    nonce,
  });
  return context;
}

// Once a newer version has migrated the database, this instance takes no writes (record 038).
const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
app.use((req, res, next) => {
  const refused = READ_METHODS.has(req.method) ? undefined : entry.writesRefused();
  if (!refused) return next();
  res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
  res.setHeader("Cache-Control", "no-store");
  res
    .status(503)
    .type("html")
    .send(databaseUnavailablePage(settings.STORE_NAME, res.locals.requestId as string));
});

// Reference endpoints for `npm run bench`: only in a bench build (app/server/bench.server.ts).
if (isBenchBuild(build) && process.env.BENCH_REFERENCE === "1") {
  registerBenchEndpoints(app, () => pageCache?.stats ?? null);
}

const handleRouterRequest = createRouterHandler(build, "production");

// Catalogue pages from memory (see app/server/page-cache.server.ts); PAGE_CACHE=false turns it off.
let pageCache: PageCache | undefined;
if (settings.PAGE_CACHE) {
  const origin = new URL(settings.publicUrl).origin;
  // Cached pages are shared: rendered without a nonce, they name the hashes of their own inline
  // scripts instead (app/server/content-security-policy.server.ts).
  const cache = new PageCache({
    policyFor: (html) => hashPolicy(settings.IMAGE_HOSTS, html),
    // Pages whose route module says `handle: { pageCache: true }`, and the query parameters each
    // reads (app/utils/catalogue-pages.ts).
    pageParams: cataloguePages(build.routes).pageParams,
    currentVersion: () => entry.catalogVersion.current(),
    unreachableVersion: () => entry.catalogVersion.unreachableVersion(),
    render(req, res, url) {
      const request = req as express.Request;
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (value === undefined) continue;
        for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
      }
      // The page is shared by every shopper: render it for the configured origin, never for the
      // request's Host header (a forged Host must not end up in a cached page), and for its key,
      // without the parameters the page does not read (a shopper's utm_source, say).
      return handleRouterRequest(
        new Request(`${origin}${url}`, { method: "GET", headers }),
        loadContext(request, res as express.Response, ""),
      );
    },
  });
  entry.catalogVersion.subscribe(() => cache.clear());
  pageCache = cache;
  metrics().probes.pageCache = () => cache.stats;
  app.use(cache.handle);
}

// Build assets in brotli (quality 11) from memory when the browser accepts it; gzip otherwise.
app.use("/assets", precompressedAssets(path.join(buildDir, "client/assets")).handle);

// Only GET/HEAD: a post's answer is a redirect or a few hundred bytes of action data, where a zlib
// stream per request costs more CPU than the bytes it saves.
app.use(
  compression({
    filter: (req, res) => (req.method === "GET" || req.method === "HEAD") && compression.filter(req, res),
  }),
);

// Fingerprinted build output never changes under its name: cache it for a year.
app.use(
  "/assets",
  express.static(path.join(buildDir, "client/assets"), { immutable: true, maxAge: "1y", index: false }),
);
app.use(express.static(path.join(buildDir, "client"), { maxAge: "1h", index: false }));

app.all(
  "/{*path}",
  createRequestHandler({
    build,
    mode: "production",
    getLoadContext: loadContext,
  }),
);

// Last: errors from Express itself (a malformed URL) and from the app get a plain page, no stack.
app.use(finalErrorHandler);

const server = app.listen(settings.PORT, settings.HOST, () => {
  const shown = settings.HOST === "0.0.0.0" || settings.HOST === "::" ? "localhost" : settings.HOST;
  log.info(`${settings.STORE_NAME} is serving http://${shown}:${settings.PORT} on ${database}`);
});
// At most MAX_CONNECTIONS client connections, the longest-idle closed first when near it, so the
// database, files and logs always have file descriptors (app/server/connection-cap.server.ts).
capConnections(server, settings.MAX_CONNECTIONS);
// V8's heap back to the system once the server rests after a busy spell (record 040). Not on the
// embedded database: that collection also drops PGlite's compiled WebAssembly, and compiling it
// again (PostgreSQL's parser on the optimizing compiler) costs far more memory than it gives back.
const idleMemory = settings.DATABASE_URL ? releaseMemoryWhenIdle() : undefined;
if (idleMemory) server.on("request", (_req, res) => idleMemory.onRequest(res));
server.on("error", (error: NodeJS.ErrnoException) => {
  fail(
    error.code === "EADDRINUSE"
      ? `Could not start: port ${settings.PORT} is already in use (set PORT to another one)`
      : `Could not start the web server: ${error.message}`,
  );
});

/** Graceful shutdown: readiness 503 at once, no new connections, in-flight
 * requests get up to 10 s, then background jobs (the mail being sent) finish and the database
 * closes (PGlite flushes and gives back the data-folder lock). */
const SHUTDOWN_GRACE_MS = 10_000;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info(`${signal} received: finishing in-flight requests`);
  // Stop listening, but not through http.Server#close, which also ends every connection without a
  // request parsed at that instant. On a busy server a shopper's request can be sent yet unread:
  // its connection still in the accept queue, or accepted but not read. So the listening socket
  // closes 100 ms later, after the event loop has polled twice more (accepting and reading what had
  // arrived), and
  // idle keep-alive connections are ended each time only after a poll has read what came in.
  // Responses sent while stopping say Connection: close, so their connections end with them.
  const afterPoll = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
  await new Promise((resolve) => setTimeout(resolve, 100));
  await afterPoll();
  const closed = new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve()));
  const sweep = () => setImmediate(() => server.closeIdleConnections());
  let idle: NodeJS.Timeout | undefined;
  const firstSweep = setTimeout(() => {
    sweep();
    idle = setInterval(sweep, 250);
  }, 500);
  const forceClose = setTimeout(() => {
    log.warn(`Requests still running after ${SHUTDOWN_GRACE_MS / 1000} s: closing their connections`);
    server.closeAllConnections();
  }, SHUTDOWN_GRACE_MS);
  await closed;
  clearTimeout(firstSweep);
  clearInterval(idle);
  clearTimeout(forceClose);
  try {
    await entry.shutdown();
    log.info("Stopped");
  } catch (error) {
    log.error("Could not shut down cleanly", { error: rootCauseMessage(error) });
    flushLogs();
    process.exit(1);
  }
  flushLogs();
  process.exit(0);
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
