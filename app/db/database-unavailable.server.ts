/**
 * Tells "the database cannot be reached or cannot take work right now" (a restart, a failover,
 * maintenance, a dropped connection, a full disk) from every other error, so every route answers
 * 503 with Retry-After instead of a 500, and checkout can say that nothing was placed. The one
 * place that knows these conditions: handleError marks the request (app/entry.server.tsx), the root
 * middleware below and the document render answer it, and checkout asks `isDatabaseUnavailable`.
 * Drizzle wraps driver errors: the whole `cause` chain is checked.
 */
import type { MiddlewareFunction, RouterContextProvider } from "react-router";
import { config } from "#app/utils/env.server.ts";
import { log, rootCauseMessage } from "#app/utils/logger.server.ts";
import { requestInfoContext } from "#app/utils/request-context.ts";

/** Node errors of a lost or refused connection, and of a full disk under the embedded database. */
const SYSTEM_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "ENOSPC",
]);

/**
 * SQLSTATEs of a server going away or refusing work: class 08 (connection exception), 57P01
 * admin_shutdown (pg_terminate_backend, a restart), 57P02 crash_shutdown, 57P03 cannot_connect_now
 * (starting up, shutting down, in recovery), 53100 disk_full, 53200 out_of_memory, 53300
 * too_many_connections (the server's, a role's or a database's connection limit), 25006
 * read_only_sql_transaction (a write that reached a standby during a failover, or a database set
 * read-only for maintenance).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53[123]00|25006)$/;

/**
 * 55000 (object_not_in_prerequisite_state) is also a plain programming error; only with this message
 * is it `ALTER DATABASE … ALLOW_CONNECTIONS false` (maintenance, a failover's fencing).
 */
const NOT_ACCEPTING_CONNECTIONS = /is not currently accepting connections/;

/** node-postgres's and PGlite's own messages for a connection that is gone or never came. */
const DRIVER_MESSAGES = [
  "Connection terminated",
  "not queryable",
  "timeout exceeded when trying to connect",
  "Client was closed",
  "Cannot use a pool after calling end",
  "terminating connection",
  "PGlite is closed",
  "No space left on device",
];

export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth++) {
    if (typeof current !== "object") return false;
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === "string" && (SYSTEM_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
    if (code === "55000" && typeof message === "string" && NOT_ACCEPTING_CONNECTIONS.test(message))
      return true;
    if (typeof message === "string" && DRIVER_MESSAGES.some((text) => message.includes(text))) return true;
    current = cause;
  }
  return false;
}

/**
 * An outage is logged once when it begins and once when it ends (no request has met it for
 * `QUIET_MS`), at warn, with the number of requests answered 503; a long one also every minute.
 * A line per refused request would bury everything else in the log.
 */
const QUIET_MS = 5_000;
const STILL_EVERY_MS = 60_000;
let outage: { since: number; refused: number; reportedAt: number; timer?: NodeJS.Timeout } | undefined;

/** Counts one request answered 503 because of `error`; the first of an outage writes its line. */
export function noteDatabaseUnavailable(error: unknown) {
  const now = Date.now();
  if (!outage) {
    outage = { since: now, refused: 0, reportedAt: now };
    log.warn("The database is unavailable: answering 503 with Retry-After until it is back", {
      error: rootCauseMessage(error),
    });
  }
  outage.refused++;
  if (now - outage.reportedAt >= STILL_EVERY_MS) {
    outage.reportedAt = now;
    log.warn(`The database is still unavailable: ${outage.refused} requests answered 503 so far`, {
      refused: outage.refused,
      seconds: Math.round((now - outage.since) / 1000),
      error: rootCauseMessage(error),
    });
  }
  clearTimeout(outage.timer);
  outage.timer = setTimeout(endOutage, QUIET_MS);
  outage.timer.unref();
}

function endOutage() {
  if (!outage) return;
  const { refused, since } = outage;
  outage = undefined;
  const seconds = Math.round((Date.now() - since - QUIET_MS) / 1000);
  log.warn(`The database outage is over: ${refused} requests were answered 503 over ${seconds} s`, {
    refused,
    seconds,
  });
}

/** Requests whose loader, action or middleware met an unavailable database (marked by handleError). */
const unavailableRequests = new WeakSet<object>();

export function markDatabaseUnavailable(context: Readonly<RouterContextProvider>, error: unknown) {
  if (!unavailableRequests.has(context)) noteDatabaseUnavailable(error);
  unavailableRequests.add(context);
}

export function metDatabaseUnavailable(context: Readonly<RouterContextProvider>) {
  return unavailableRequests.has(context);
}

const UNAVAILABLE_MESSAGE = "The shop can't reach its database just now. Please try again in a minute.";

function outageHeaders(headers: Headers) {
  headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
  headers.set("Cache-Control", "no-store");
  return headers;
}

/**
 * The plain 503 page for a document request marked above (`handleRequest` answers it without
 * rendering React: the root loader may need the database too).
 */
export function databaseUnavailableResponse(
  request: Request,
  context: Readonly<RouterContextProvider>,
  headers: Headers,
) {
  outageHeaders(headers);
  headers.set("Content-Type", "text/html; charset=utf-8");
  const body =
    request.method.toUpperCase() === "HEAD"
      ? null
      : databaseUnavailablePage(
          config().STORE_NAME,
          context.get(requestInfoContext).requestId,
          request.method,
        );
  return new Response(body, { status: 503, headers });
}

/**
 * Root middleware: the answers the document render does not make. A resource route (`/api/…`,
 * exports, media) that met the outage got React Router's bare 500: it becomes a 503 (JSON for a
 * client that does not ask for HTML). A navigation or form post with JavaScript (`*.data`) keeps
 * its encoded error, which the page's error boundary shows, with status 503 and Retry-After.
 */
export const databaseOutageMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const response = await next();
  if (!metDatabaseUnavailable(context) || response.status === 503) return response;
  const headers = outageHeaders(new Headers(response.headers));
  if (headers.get("Content-Type")?.startsWith("text/x-script")) {
    return new Response(response.body, { status: 503, headers });
  }
  await response.body?.cancel();
  headers.delete("Content-Length");
  if (!request.headers.get("Accept")?.includes("text/html")) {
    headers.set("Content-Type", "application/json; charset=utf-8");
    return new Response(JSON.stringify({ error: UNAVAILABLE_MESSAGE }), { status: 503, headers });
  }
  return databaseUnavailableResponse(request, context, headers);
};

/** Seconds a client is asked to wait before trying again. */
export const RETRY_AFTER_SECONDS = 30;

/**
 * The plain page a visitor gets while the database is away: no stack, no details. After a form post
 * it says that nothing was done and that going back keeps what was typed (the browser keeps it).
 */
export function databaseUnavailablePage(storeName: string, requestId?: string, method = "GET") {
  const name = storeName.replace(/[<>&"]/g, "");
  const reference = requestId ? `<p><small>Reference: ${requestId.replace(/[^\w-]/g, "")}</small></p>` : "";
  const what =
    method.toUpperCase() === "POST"
      ? `${name} couldn't take your form just now, and nothing was placed or changed. Please go back (your browser keeps what you typed) and send it again in a minute.`
      : `${name} can't load this page just now. Please try again in a minute.`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${name} will be right back</title>
<style>html{background:#faf8f3}body{font-family:system-ui,sans-serif;max-width:32rem;margin:15vh auto;padding:0 1.25rem;color:#1c2b22;line-height:1.5}h1{font-size:1.5rem;color:#1f4d3a}a{color:#1f4d3a;font-weight:600}</style></head>
<body><h1>We'll be right back</h1><p>${what}</p>${reference}<p><a href="/shop">Back to the shop</a></p></body>
</html>`;
}
