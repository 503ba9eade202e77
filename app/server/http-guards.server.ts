/**
 * What the web server (server.ts) answers before and after the app (record 013):
 * - methods the shop does not use get 405 with `Allow` (Express and the Fetch API choke on some,
 *   such as TRACE and CONNECT, with a 500);
 * - an absolute-form request target (`GET http://host/path`) for the shop's own host is served as
 *   its path (421 for another host), and a request
 *   without a usable Host (HTTP/1.0 sends none; an empty or malformed one) gets 400: React Router
 *   builds each request's URL from the Host and failed with a 500 on those;
 * - a POST from another site gets 403, whatever route it targets, so a new route cannot forget it;
 * - the final error handler: a plain page with the request id, never a stack or a file path, 4xx
 *   for what is the client's fault (a malformed URL, say) and 500 for a real fault, which alone is
 *   logged as an error with its stack.
 * Expected refusals are logged at info/warn, one line without a stack (cheap to flood, cheap to log).
 */
import type { ErrorRequestHandler, Request, RequestHandler } from "express";
import { log } from "#app/utils/logger.server.ts";
import { isSameOriginHeaders } from "#app/utils/same-origin.server.ts";

export const ALLOWED_METHODS = ["GET", "HEAD", "POST"] as const;
const ALLOW = [...ALLOWED_METHODS, "OPTIONS"].join(", ");
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const TITLES: Record<number, { title: string; message: string }> = {
  400: {
    title: "Bad request",
    message: "The request could not be read. Please check the address and try again.",
  },
  403: {
    title: "Cross-site request refused",
    message: "This form was sent from another site. Please use the shop's own pages.",
  },
  404: { title: "Oops! Page not found", message: "The page you are looking for does not exist." },
  405: { title: "Method not allowed", message: "The shop does not answer this kind of request." },
  413: { title: "Request too large", message: "The request is larger than the shop accepts." },
  421: { title: "Wrong address", message: "The shop answers only requests for its own address." },
  500: {
    title: "Unexpected Application Error!",
    message: "Sorry, something went wrong on our side. Please try again in a moment.",
  },
};

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The calm page every error the app itself does not render gets: no stack, no path, the request id. */
export function errorPageHtml(status: number, requestId: string, ownMessage?: string) {
  const { title, message: defaultMessage } = TITLES[status] ??
    (status >= 500 ? TITLES[500] : TITLES[400]) ?? { title: "", message: "" };
  const message = ownMessage ?? defaultMessage;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>body{margin:0;min-height:100dvh;display:flex;align-items:center;justify-content:center;background:#faf7f0;color:#1f2a24;font:16px/1.5 system-ui,sans-serif;text-align:center}main{max-width:32rem;padding:1.5rem}h1{color:#143a2b;font-size:1.75rem;margin:0 0 .75rem}p{margin:0 0 1rem;color:#4b5a52}a{display:inline-block;margin-top:.5rem;padding:.65rem 1.25rem;border-radius:.375rem;background:#143a2b;color:#fff;font-weight:600;text-decoration:none}small{color:#6b7a72}</style>
</head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>
<p><small>Reference: ${escapeHtml(requestId)}</small></p><a href="/">Return to Home</a></main></body></html>
`;
}

function requestIdOf(res: { locals: Record<string, unknown> }) {
  return typeof res.locals.requestId === "string" ? res.locals.requestId : "-";
}

function sendErrorPage(
  res: Parameters<RequestHandler>[1],
  status: number,
  headers: Record<string, string> = {},
  message?: string,
) {
  const body = errorPageHtml(status, requestIdOf(res), message);
  res.status(status);
  res.set({
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    ...headers,
  });
  res.end(body);
}

/** 405 for methods the shop never uses; OPTIONS gets the list (no CORS: nothing is shared cross-site). */
export const methodGuard: RequestHandler = (req, res, next) => {
  if ((ALLOWED_METHODS as readonly string[]).includes(req.method)) return next();
  if (req.method === "OPTIONS") {
    res.status(204).set({ Allow: ALLOW, "Cache-Control": "no-store" }).end();
    return;
  }
  log.info("Refused a request with an unsupported method", {
    requestId: requestIdOf(res),
    method: req.method,
  });
  sendErrorPage(res, 405, { Allow: ALLOW });
};

const ABSOLUTE_TARGET = /^https?:\/\/([^/?#]*)([^#]*)$/i;

/**
 * An absolute-form request target, which an HTTP/1.1 server must accept (RFC 9112, section 3.2.2).
 * One naming the shop's own host (`publicUrl`'s) is served as its path and query alone, with that
 * host in place of the Host header, as that section says; one naming another host is a request
 * meant for somebody else, answered 421 Misdirected Request (RFC 9110, section 15.5.20) by
 * `hostGuard`. Express's
 * first middleware, so the request log, the guards, the page cache and the router all see an
 * ordinary path. The path is kept as sent (no normalisation); `hostGuard` then judges the host, and
 * refuses any other form of target.
 */
export function originFormTarget(publicUrl: string): RequestHandler {
  const shopHost = new URL(publicUrl).host.toLowerCase();
  return (req, res, next) => {
    const url = req.url;
    if (url.startsWith("/")) return next();
    const absolute = ABSOLUTE_TARGET.exec(url);
    if (absolute) {
      const host = absolute[1] ?? "";
      // Answered by `hostGuard`, once the request has its id.
      if (host !== "" && host.toLowerCase() !== shopHost) res.locals.misdirectedHost = host;
      const rest = absolute[2] ?? "";
      req.url = rest.startsWith("/") ? rest : `/${rest}`;
      req.originalUrl = req.url;
      req.headers.host = host;
    }
    next();
  };
}

export function misdirectedMessage(host: string) {
  return `This is not ${host.slice(0, 100)}: the shop answers only requests for its own address.`;
}

/** A host name, IPv4 address or bracketed IPv6 address, and an optional port. */
const HOST = /^(?:[a-z0-9_](?:[a-z0-9_.-]{0,251}[a-z0-9_])?|\[[0-9a-f:.]{2,45}\])(?::(\d{1,5}))?$/i;

function usableHost(host: string | undefined) {
  if (!host) return false;
  const match = HOST.exec(host);
  return match !== null && (match[1] === undefined || Number(match[1]) <= 65535);
}

export const HOST_MESSAGE = "The request needs a valid Host header: the address of the shop.";

/**
 * 400 for a request React Router could not make a URL of: no Host (HTTP/1.0), an empty or malformed
 * one, a target that is not a path; and, behind a trusted proxy, a malformed X-Forwarded-Host or a
 * protocol other than http and https in X-Forwarded-Proto. The operator endpoints are answered
 * before this guard: a load balancer's HTTP/1.0 health check sends no Host.
 */
export const hostGuard: RequestHandler = (req, res, next) => {
  const misdirectedHost = res.locals.misdirectedHost;
  if (typeof misdirectedHost === "string") {
    log.info("Refused a request for another host", { requestId: requestIdOf(res) });
    sendErrorPage(res, 421, {}, misdirectedMessage(misdirectedHost));
    return;
  }
  if (
    req.url.startsWith("/") &&
    usableHost(req.headers.host) &&
    usableHost(req.host) &&
    (req.protocol === "http" || req.protocol === "https")
  ) {
    return next();
  }
  log.info("Refused a request without a usable Host", {
    requestId: requestIdOf(res),
    method: req.method,
    httpVersion: req.httpVersion,
  });
  sendErrorPage(res, 400, {}, HOST_MESSAGE);
};

/** The origins a request may come from: the public address, and the address it was sent to. */
function ownOrigins(req: Request, publicOrigin: string) {
  return [publicOrigin, `${req.protocol}://${req.get("host") ?? ""}`];
}

/** 403 for any state-changing request another site's page sent (the same test as the admin's). */
export function crossSiteGuard(publicUrl: string): RequestHandler {
  const publicOrigin = new URL(publicUrl).origin;
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const headers = { origin: req.get("origin"), secFetchSite: req.get("sec-fetch-site") };
    if (isSameOriginHeaders(headers, ownOrigins(req, publicOrigin))) return next();
    log.warn("Refused a cross-site request", {
      requestId: requestIdOf(res),
      method: req.method,
      path: req.path,
      origin: headers.origin ?? "",
      site: headers.secFetchSite ?? "",
    });
    const wantsJson = (req.get("accept") ?? "").includes("application/json") && !req.accepts("html");
    if (wantsJson) {
      res.status(403).set("Cache-Control", "no-store").json({ error: TITLES[403]?.title });
      return;
    }
    sendErrorPage(res, 403);
  };
}

function statusOf(error: unknown) {
  if (typeof error !== "object" || error === null) return 500;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  const value = typeof status === "number" ? status : typeof statusCode === "number" ? statusCode : 500;
  return value >= 400 && value < 600 ? value : 500;
}

/** Express's last error handler (it replaces Express's own page, which shows the stack outside production). */
export const finalErrorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const status = statusOf(error);
  const requestId = requestIdOf(res);
  if (status < 500) {
    log.info("Refused a malformed request", {
      requestId,
      method: req.method,
      status,
      reason: error instanceof Error ? error.message : String(error),
    });
  } else {
    log.error("Unhandled error while serving a request", {
      requestId,
      method: req.method,
      url: req.path,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }
  if (res.headersSent) {
    // Part of the answer is on its way: all that can be done is to cut it short.
    res.destroy();
    return;
  }
  for (const name of res.getHeaderNames()) {
    if (name !== "x-request-id" && !SECURITY_HEADERS.has(name)) res.removeHeader(name);
  }
  sendErrorPage(res, status);
};

const SECURITY_HEADERS = new Set([
  "x-content-type-options",
  "x-frame-options",
  "referrer-policy",
  "permissions-policy",
  "cross-origin-opener-policy",
  "content-security-policy",
  "strict-transport-security",
]);
