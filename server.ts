/**
 * The production web server: security headers, the catalogue page cache, compression, request logs,
 * static files and the React Router request handler, with a graceful shutdown. Run it through
 * `npm start`.
 */
import { randomUUID } from "node:crypto";
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
import { isBenchBuild, registerBenchEndpoints } from "./app/server/bench.server.ts";
import { createNonce, createPlaceholder } from "./app/server/csp-nonce.server.ts";
import { crossSiteGuard, finalErrorHandler, methodGuard } from "./app/server/http-guards.server.ts";
import { PageCache } from "./app/server/page-cache.server.ts";
import { precompressedAssets } from "./app/server/page-cache-assets.server.ts";
import { boundRequests } from "./app/server/request-bounds.server.ts";
import { cataloguePages } from "./app/utils/catalogue-pages.ts";
import { ConfigError, parseConfig } from "./app/utils/env.server.ts";
import { log, rootCauseMessage } from "./app/utils/logger.server.ts";
import { PRIVATE_UMASK } from "./app/utils/private-data-dir.server.ts";

type AppEntry = {
  boot(): Promise<{ database: string }>;
  shutdown(): Promise<void>;
  requestInfoContext: Parameters<RouterContextProvider["set"]>[0];
  catalogVersion: {
    current(): number | undefined;
    unreachableVersion(): number | undefined;
    subscribe(listener: (version: number) => void): () => void;
  };
};

function fail(message: string): never {
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

const app = express();
app.disable("x-powered-by");
// X-Forwarded-For is read only from the proxies TRUST_PROXY names (decision 30): by default nobody.
app.set("trust proxy", settings.TRUST_PROXY);

app.use((req, res, next) => {
  const incoming = req.get("x-request-id");
  const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.locals.requestId = requestId;
  res.setHeader("X-Request-Id", requestId);
  const started = process.hrtime.bigint();
  res.on("finish", () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    log.info(`${req.method} ${req.originalUrl} ${res.statusCode}`, { ms: ms.toFixed(1), requestId });
  });
  next();
});

// --- Nonces, methods, cross-site refusals, last error handler (issue 11 items 5 and 7) ---
/** The CSP of one response: its scripts must carry its nonce (decision 013). */
const [cspBeforeNonce, cspAfterNonce] = [
  "default-src 'self'",
  // blob: shows a picked photo before it is sent (checkout ID, product image in the admin).
  ["img-src 'self' data: blob:", ...settings.IMAGE_HOSTS].join(" "),
  "script-src 'self' 'nonce-{nonce}'",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
]
  .join("; ")
  .split("{nonce}") as [string, string];

app.use((_req, res, next) => {
  const nonce = createNonce();
  res.locals.nonce = nonce;
  res.setHeader("Content-Security-Policy", `${cspBeforeNonce}${nonce}${cspAfterNonce}`);
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

// TRACE, CONNECT, PROPFIND…: 405 with Allow. Any POST from another site's page: 403, on every route.
app.use(methodGuard);
app.use(crossSiteGuard(settings.publicUrl));

// Bounded work per request (decision 015): a POST must be a form (415), and every body has a
// limit by route before it is read (413).
app.use(boundRequests());

/** `nonce`: the response's own, or the page cache's placeholder for a page it stores. */
function loadContext(req: express.Request, res: express.Response, nonce = res.locals.nonce as string) {
  const context = new RouterContextProvider();
  context.set(entry.requestInfoContext, {
    requestId: res.locals.requestId as string,
    clientAddress: req.ip ?? "unknown",
    nonce,
  });
  return context;
}

// Reference endpoints for `npm run bench`: only in a bench build (app/server/bench.server.ts).
if (isBenchBuild(build) && process.env.BENCH_REFERENCE === "1") {
  registerBenchEndpoints(app, () => pageCache?.stats ?? null);
}

const handleRouterRequest = createRouterHandler(build, "production");

// Catalogue pages from memory (see app/server/page-cache.server.ts); PAGE_CACHE=false turns it off.
let pageCache: PageCache | undefined;
if (settings.PAGE_CACHE) {
  const origin = new URL(settings.publicUrl).origin;
  // Cached pages are shared: they are rendered with a placeholder nonce, never sent, that each
  // response replaces with its own (app/server/csp-nonce.server.ts).
  const placeholder = createPlaceholder();
  const cache = new PageCache({
    // Pages whose route module says `handle: { pageCache: true }` (app/utils/catalogue-pages.ts).
    isCataloguePage: cataloguePages(build.routes).isCacheable,
    placeholder,
    nonceFor: (res) => (res as express.Response).locals.nonce as string,
    currentVersion: () => entry.catalogVersion.current(),
    unreachableVersion: () => entry.catalogVersion.unreachableVersion(),
    render(req, res) {
      const request = req as express.Request;
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (value === undefined) continue;
        for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
      }
      // The page is shared by every shopper: render it for the configured origin, never for the
      // request's Host header (a forged Host must not end up in a cached page).
      return handleRouterRequest(
        new Request(new URL(request.originalUrl, origin), { method: "GET", headers }),
        loadContext(request, res as express.Response, placeholder),
      );
    },
  });
  entry.catalogVersion.subscribe(() => cache.clear());
  pageCache = cache;
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
server.on("error", (error: NodeJS.ErrnoException) => {
  fail(
    error.code === "EADDRINUSE"
      ? `Could not start: port ${settings.PORT} is already in use (set PORT to another one)`
      : `Could not start the web server: ${error.message}`,
  );
});

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info(`${signal} received: finishing in-flight requests`);
  const forceClose = setTimeout(() => server.closeAllConnections(), 5_000);
  forceClose.unref();
  server.closeIdleConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await entry.shutdown();
  log.info("Stopped");
  process.exit(0);
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
