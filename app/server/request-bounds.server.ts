/**
 * Bounded work per request before the app sees it (issue 11, decision record 015): only GET, HEAD
 * and POST; a POST must be a form (urlencoded or multipart), or it is answered 415; and every body
 * has a byte limit, by route, enforced before it is read: a declared `Content-Length` over it is
 * answered 413 at once, and a streamed (chunked) body is cut off the moment it passes the limit.
 * New routes get the default limit; a route that takes more is listed in BODY_LIMITS.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { IMAGE_MESSAGES, MAX_PRODUCT_IMAGE_BODY_BYTES } from "#app/features/catalog/product.schema.ts";
import { ID_IMAGE_MESSAGES } from "#app/features/checkout/checkout.schema.ts";
import { MAX_CHECKOUT_BODY_BYTES } from "#app/features/checkout/limits.ts";

/** Sign-in and every other form: far above any real form of the shop, far below harm. */
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;
/** The admin product form: a 5,000-character description and 20 sizes, as JSON in a form field. */
const PRODUCT_FORM_BODY_LIMIT_BYTES = 256 * 1024;

export const ALLOWED_METHODS = ["GET", "HEAD", "POST"] as const;
const ALLOWED = new Set<string>(ALLOWED_METHODS);
const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

export const BOUNDS_MESSAGES = {
  method: "This address does not take that method.",
  contentType: "Send the form as application/x-www-form-urlencoded or multipart/form-data.",
  tooLarge: "The request is too large.",
} as const;

type BodyRule = {
  maxBytes: number;
  /** What a refused client is told, in the route's own words. */
  tooLargeMessage: string;
  /**
   * The route itself refuses a declared length over the limit before reading, with its own page
   * (the checkout keeps the spec's message beside the ID field, also without JavaScript); the
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

function wantsJson(req: IncomingMessage) {
  const route = routePath(req.url ?? "/");
  return route.startsWith("/api/") || /\.data(\?|$)/.test(req.url ?? "");
}

/**
 * Answers a refusal in a few plain bytes and closes the connection, so a body still on its way is
 * not read (Node would otherwise drain it to keep the connection).
 */
function refuse(req: IncomingMessage, res: ServerResponse, status: number, message: string) {
  if (res.headersSent) return;
  const json = wantsJson(req);
  const body = json ? JSON.stringify({ error: message }) : `${message}\n`;
  res.statusCode = status;
  res.setHeader("Content-Type", json ? "application/json" : "text/plain; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.setHeader("Connection", "close");
  res.end(req.method === "HEAD" ? undefined : body);
}

/**
 * Counts a body's bytes as they arrive from the socket, before any reader sees them. Past
 * `maxBytes` nothing more is taken from the socket; the client is answered 413 unless the route
 * answers itself (`answer: false`), and the reader, if any, gets an error instead of a short body
 * it could take for a whole one.
 */
function limitStreamedBody(
  req: IncomingMessage,
  res: ServerResponse,
  options: { maxBytes: number; message: string; answer: boolean },
) {
  let received = 0;
  let cutOff = false;
  const push = req.push.bind(req);
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (cutOff) return false;
    if (chunk !== null && chunk !== undefined) {
      received += (chunk as Buffer).length;
      if (received > options.maxBytes) {
        cutOff = true;
        if (options.answer) refuse(req, res, 413, options.message);
        const error = new BodyTooLargeError(options.maxBytes);
        if (res.writableFinished) req.destroy(error);
        else res.once("finish", () => req.destroy(error));
        return false;
      }
    }
    return push(chunk, encoding);
  };
}

/** The middleware (Express or plain Node `(req, res, next)`). */
export function boundRequests() {
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const method = req.method ?? "GET";
    if (!ALLOWED.has(method)) {
      res.setHeader("Allow", ALLOWED_METHODS.join(", "));
      return refuse(req, res, 405, BOUNDS_MESSAGES.method);
    }
    if (method === "POST" && !isFormContentType(req.headers["content-type"])) {
      return refuse(req, res, 415, BOUNDS_MESSAGES.contentType);
    }
    const declared = req.headers["content-length"];
    if (declared === undefined && req.headers["transfer-encoding"] === undefined) return next();
    const rule = bodyRuleFor(req.url ?? "/");
    if (declared !== undefined && Number(declared) > rule.maxBytes) {
      if (!rule.routeRefusesDeclaredLength) return refuse(req, res, 413, rule.tooLargeMessage);
      // The route answers without reading; not one byte of the body is taken meanwhile.
      limitStreamedBody(req, res, { maxBytes: 0, message: rule.tooLargeMessage, answer: false });
      return next();
    }
    limitStreamedBody(req, res, { maxBytes: rule.maxBytes, message: rule.tooLargeMessage, answer: true });
    next();
  };
}
