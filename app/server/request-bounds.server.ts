/**
 * Bounded work per request before the app sees it (record 015): only GET, HEAD
 * and POST; a POST must be a form (urlencoded or multipart), or it is answered 415; and every body
 * has a byte limit, by route, enforced before it is read: a declared `Content-Length` over it is
 * answered 413 at once, and a streamed (chunked) body is cut off the moment it passes the limit.
 * New routes get the default limit; a route that takes more is listed in BODY_LIMITS.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { MAX_CSV_BYTES } from "#app/features/catalog/catalog-csv.ts";
import { IMAGE_MESSAGES, MAX_PRODUCT_IMAGE_BODY_BYTES } from "#app/features/catalog/product.schema.ts";
import { MAX_CHECKOUT_BODY_BYTES } from "#app/features/checkout/limits.ts";
import { ID_IMAGE_MESSAGES } from "#app/features/media/id-image.ts";
import { MAX_SYNC_BODY_BYTES } from "#app/features/orders/driver-sync.ts";

/** Sign-in and every other form: far above any real form of the shop, far below harm. */
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;
/** The admin product form: a 5,000-character description and 20 sizes, as JSON in a form field. */
const PRODUCT_FORM_BODY_LIMIT_BYTES = 256 * 1024;

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

export const BOUNDS_MESSAGES = {
  contentType: "Send the form as application/x-www-form-urlencoded or multipart/form-data.",
  tooLarge: "The request is too large.",
} as const;

type BodyRule = {
  maxBytes: number;
  /** What a refused client is told, in the route's own words. */
  tooLargeMessage: string;
  /**
   * The route itself refuses a declared length over the limit before reading, with its own page
   * (the checkout keeps the first shop's message beside the ID field, also without JavaScript); the
   * middleware still cuts off a streamed body that passes the limit.
   */
  routeRefusesDeclaredLength?: true;
};

const BODY_LIMITS: Array<{ path: RegExp; rule: BodyRule }> = [
  {
    path: /^\/(checkout|api\/id-photo)$/,
    rule: {
      maxBytes: MAX_CHECKOUT_BODY_BYTES,
      tooLargeMessage: ID_IMAGE_MESSAGES.tooLarge,
      routeRefusesDeclaredLength: true,
    },
  },
  {
    path: /^\/admin\/products\/upload-image$/,
    rule: {
      maxBytes: MAX_PRODUCT_IMAGE_BODY_BYTES,
      tooLargeMessage: IMAGE_MESSAGES.tooLarge.description,
      routeRefusesDeclaredLength: true,
    },
  },
  {
    // The catalogue CSV (record 027): the file, then the same text again with 'Import N products'.
    path: /^\/admin\/products\/import$/,
    rule: {
      maxBytes: MAX_CSV_BYTES + 64 * 1024,
      tooLargeMessage: "The CSV file is too large (at most 8 MB).",
    },
  },
  {
    // 'Delivered' on the phone carries the customer's signature, a PNG data URL of up to 400,000
    // characters (driver-actions.schema.ts), form-encoded (record 051).
    path: /^\/driver$/,
    rule: { maxBytes: 512 * 1024, tooLargeMessage: BOUNDS_MESSAGES.tooLarge },
  },
  {
    // The driver's phone sending its queue (record 050): deliveries carry their signatures.
    path: /^\/driver\/sync$/,
    rule: { maxBytes: MAX_SYNC_BODY_BYTES, tooLargeMessage: BOUNDS_MESSAGES.tooLarge },
  },
  {
    path: /^\/admin\/products\/(new|edit\/[^/]+)$/,
    rule: { maxBytes: PRODUCT_FORM_BODY_LIMIT_BYTES, tooLargeMessage: BOUNDS_MESSAGES.tooLarge },
  },
];

const DEFAULT_RULE: BodyRule = {
  maxBytes: DEFAULT_BODY_LIMIT_BYTES,
  tooLargeMessage: BOUNDS_MESSAGES.tooLarge,
};

/** The route a path reaches, as the router sees it: any case, no trailing slash, no `.data`. */
function routePath(url: string) {
  const pathname = url.split("?", 1)[0] ?? "/";
  return (
    pathname
      .toLowerCase()
      .replace(/\.data$/, "")
      .replace(/(.)\/+$/, "$1") || "/"
  );
}

export function bodyRuleFor(url: string): BodyRule {
  const route = routePath(url);
  return BODY_LIMITS.find((entry) => entry.path.test(route))?.rule ?? DEFAULT_RULE;
}

export function isFormContentType(header: string | undefined) {
  const type = header?.split(";", 1)[0]?.trim().toLowerCase();
  return type !== undefined && FORM_TYPES.has(type);
}

/** Thrown into a body the app is reading when the client sent more than its limit. */
export class BodyTooLargeError extends Error {
  override readonly name = "BodyTooLargeError";
  constructor(limit: number) {
    super(`The request body passed its limit of ${limit} bytes`);
  }
}

/**
 * After a refusal, the client may still be sending: its bytes are taken and dropped for a moment
 * (at most LINGER_BYTES, LINGER_MS) so it can read the answer, then the connection is closed.
 * Closing at once would reset it, and a client still writing often loses the answer with it.
 */
const LINGER_BYTES = 1024 * 1024;
const LINGER_MS = 1_000;

function wantsJson(req: IncomingMessage) {
  const route = routePath(req.url ?? "/");
  return route.startsWith("/api/") || /\.data(\?|$)/.test(req.url ?? "");
}

/** Answers a refusal in a few plain bytes. */
function refuse(req: IncomingMessage, res: ServerResponse, status: number, message: string) {
  if (res.headersSent) return;
  const json = wantsJson(req);
  const body = json ? JSON.stringify({ error: message }) : `${message}\n`;
  res.statusCode = status;
  res.setHeader("Content-Type", json ? "application/json" : "text/plain; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.end(req.method === "HEAD" ? undefined : body);
}

/**
 * Counts a body's bytes as the HTTP parser takes them from the socket, before any reader sees
 * them. Past `maxBytes` nothing more reaches the reader: the client is answered 413 (unless the
 * route answers itself), and the reader, if any, gets a BodyTooLargeError instead of a short body
 * it could take for a whole one. The rest is dropped while lingering, then the connection closed.
 * A body still arriving when the answer has gone out (a refusal before reading) is dropped the
 * same way, so the connection stays usable for the client's next request.
 */
function limitBody(
  req: IncomingMessage,
  res: ServerResponse,
  options: { maxBytes: number; onOverflow?: () => void },
) {
  let received = 0;
  let dropping = false;
  let dropped = 0;
  let dropAllowance = LINGER_BYTES;
  let ended = false;
  let linger: NodeJS.Timeout | undefined;
  const startDropping = () => {
    dropping = true;
    // Checked after this turn's I/O (setImmediate): after a busy second the rest of the body may
    // be waiting in the socket, and closing then would reset a connection that is fine.
    linger = setTimeout(() => setImmediate(() => ended || req.socket.destroy()), LINGER_MS);
    linger.unref();
    req.socket.once("close", () => clearTimeout(linger));
  };
  const push = req.push.bind(req);
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (chunk === null || chunk === undefined) {
      // The whole request arrived after all: the connection is fine for the next one.
      ended = true;
      clearTimeout(linger);
      return push(chunk, encoding);
    }
    const size = (chunk as Buffer).length;
    received += size;
    if (!dropping && received <= options.maxBytes) return push(chunk, encoding);
    if (!dropping) {
      options.onOverflow?.();
      // The reader (React Router's body stream listens from the start) stops with an error.
      if (req.listenerCount("error") > 0) req.emit("error", new BodyTooLargeError(options.maxBytes));
      startDropping();
    }
    dropped += size;
    if (dropped > dropAllowance) req.socket.destroy();
    return true;
  };
  res.once("finish", () => {
    if (req.complete || dropping) return;
    // A body within its limit is taken to its end (it was allowed anyway), so the client, which
    // may already have sent it all, can go on using the connection.
    dropAllowance = Math.max(LINGER_BYTES, options.maxBytes - received);
    startDropping();
    // As Node's own drain does: nobody needs these bytes now (a reader handed them on could fail
    // and destroy the connection).
    req.removeAllListeners("data");
    req.resume();
  });
}

/** The middleware (Express or plain Node `(req, res, next)`). */
export function boundRequests() {
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const declared = req.headers["content-length"];
    const hasBody =
      declared !== undefined ? Number(declared) > 0 : req.headers["transfer-encoding"] !== undefined;
    const refuseBefore = (status: number, message: string) => {
      // Not one byte of the body is read for this request.
      if (hasBody) limitBody(req, res, { maxBytes: 0 });
      refuse(req, res, status, message);
    };
    // Methods other than GET, HEAD and POST never get here: `methodGuard` (http-guards.server.ts)
    // answers them 405 first.
    if (req.method === "POST" && !isFormContentType(req.headers["content-type"])) {
      return refuseBefore(415, BOUNDS_MESSAGES.contentType);
    }
    if (!hasBody) return next();
    const rule = bodyRuleFor(req.url ?? "/");
    if (declared !== undefined && Number(declared) > rule.maxBytes) {
      if (!rule.routeRefusesDeclaredLength) return refuseBefore(413, rule.tooLargeMessage);
      // The route answers without reading; not one byte of the body is taken meanwhile.
      limitBody(req, res, { maxBytes: 0 });
      return next();
    }
    limitBody(req, res, {
      maxBytes: rule.maxBytes,
      onOverflow: () => refuse(req, res, 413, rule.tooLargeMessage),
    });
    next();
  };
}
