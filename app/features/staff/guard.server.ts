/**
 * The one admin guard (P-5). `adminGuard` is middleware on app/routes/admin/layout.tsx, so
 * it runs on the server before every loader and action of every route under that layout (pages,
 * `.data` requests and resource routes such as the ID photos); a new admin route placed under the
 * layout cannot forget it. It:
 *   - signs the request in from the session cookie, or answers signed-out visitors with a redirect
 *     to /admin/login (documents and data requests) or 401 (files and other resources);
 *   - reads a post's form once, refusing with 400 a form that names a field twice, and hands that
 *     same form to the action (`adminForm(context)`): the intent it checks is the intent done;
 *   - refuses every mutation (non-GET) that comes from another site or lacks the session's CSRF
 *     token (hidden form field `csrf` or header `X-CSRF-Token`) with 403;
 *   - refuses with 403 every request the signed-in role may not make: the permission of the matched
 *     route's pattern and the post's intent comes from the one table, features/staff/admin-routes.ts
 *     (P-26); a route or intent missing from it is refused for everyone;
 *   - marks every answer `Cache-Control: private, no-store`.
 * Loaders and actions read the admin with `requireAdmin(context)`.
 */
import {
  createContext,
  data,
  type MiddlewareFunction,
  type RouterContextProvider,
  redirect,
} from "react-router";
import { db } from "#app/db/client.server.ts";
import { config } from "#app/utils/env.server.ts";
import { FORM_UNREADABLE, repeatedField, repeatedFieldMessage } from "#app/utils/form-data.server.ts";
import { log } from "#app/utils/logger.server.ts";
import { requestInfoContext } from "#app/utils/request-context.ts";
import { isSameOrigin } from "#app/utils/same-origin.server.ts";
import { adminRouteRule, navigationFor, permissionsFor } from "./admin-routes.ts";
import { can, type Permission } from "./permissions.ts";
import {
  type AdminSession,
  clearedSessionCookies,
  findSession,
  readSessionToken,
} from "./sessions.server.ts";
import { mustEnrolFirst } from "./two-factor.server.ts";

export const CSRF_FIELD = "csrf";
export const CSRF_HEADER = "X-CSRF-Token";
export const NO_STORE = "private, no-store";

// The admin login imports it from here; the server refuses cross-site posts to every route too.
export { isSameOrigin };

export const adminSessionContext = createContext<AdminSession | null>(null);

/** The post's form as the guard read it (null: a GET, or a body the guard does not read). */
const adminFormContext = createContext<FormData | null>(null);

/**
 * The form posted to an admin action: the one the guard read and checked (each field once, the
 * intent allowed for the role). The request's body has been read; actions never read it again.
 */
export function adminForm(context: Readonly<RouterContextProvider>): FormData {
  const form = context.get(adminFormContext);
  if (!form) throw data(FORM_UNREADABLE, { status: 400, headers: { "Cache-Control": NO_STORE } });
  return form;
}

/** The signed-in admin; only callable below the guarded layout (throws if the guard did not run). */
export function requireAdmin(context: Readonly<RouterContextProvider>): AdminSession {
  const session = context.get(adminSessionContext);
  if (!session) throw new Response("Unauthorized", { status: 401, headers: { "Cache-Control": NO_STORE } });
  return session;
}

/**
 * The signed-in admin, when their role grants `permission` (P-26); otherwise a 403 that the
 * admin layout's error boundary shows as 'You don't have access to this page'.
 */
export function requirePermission(
  context: Readonly<RouterContextProvider>,
  permission: Permission,
): AdminSession {
  const session = requireAdmin(context);
  if (!can(session.role, permission)) {
    throw new Response("You don't have access to this page", {
      status: 403,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": NO_STORE },
    });
  }
  return session;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Where an account that must set up its second factor is sent, and all it may open until then. */
export const ENROLMENT_PATH = "/admin/account/two-factor";
const OPEN_BEFORE_ENROLMENT = new Set([ENROLMENT_PATH, "/admin/logout"]);

/** Pages and their `.data` requests get a redirect; images, uploads and other resources a 401. */
function wantsPage(request: Request) {
  const url = new URL(request.url);
  if (url.pathname.endsWith(".data")) return true;
  return (request.headers.get("Accept") ?? "").includes("text/html");
}

type PostedForm = { ok: true; form: FormData | null } | { ok: false; message: string };

/**
 * The post's form, read once (null for a body that is not a form). Only the fields in
 * `multiValueFields` (the route's rule) may come more than once.
 */
async function readPostedForm(request: Request, multiValueFields?: readonly string[]): Promise<PostedForm> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.includes("application/x-www-form-urlencoded") && !type.includes("multipart/form-data"))
    return { ok: true, form: null };
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return { ok: false, message: FORM_UNREADABLE };
  }
  const repeated = repeatedField(form, multiValueFields);
  return repeated === null ? { ok: true, form } : { ok: false, message: repeatedFieldMessage(repeated) };
}

function textField(form: FormData | null, name: string) {
  const value = form?.get(name);
  return typeof value === "string" ? value : null;
}

export const NO_ACCESS = "You don't have access to this page";

/**
 * The 403 of a role without the permission. Pages get it as route error data that the admin
 * layout's error boundary shows with the admin chrome (the admin's own e-mail and navigation,
 * nothing of the page); files and other resources a plain text 403.
 */
export function noAccess(request: Request, session: AdminSession, resource = false): never {
  const headers = { "Cache-Control": NO_STORE };
  if (resource || !wantsPage(request)) {
    throw new Response(NO_ACCESS, {
      status: 403,
      headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  throw data(
    {
      message: NO_ACCESS,
      chrome: {
        email: session.email,
        storeName: config().STORE_NAME,
        csrfToken: session.csrfToken,
        navigation: navigationFor(session.role),
      },
    },
    { status: 403, headers },
  );
}

function timingSafeEqualText(a: string, b: string) {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

function plainText(status: 400 | 403, message: string) {
  return new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": NO_STORE },
  });
}

function forbidden(message: string) {
  return plainText(403, message);
}

export const adminGuard: MiddlewareFunction<Response> = async ({ request, context, pattern }, next) => {
  const database = await db();
  const token = readSessionToken(request);
  const session = await findSession(database, token);
  if (!session) {
    const headers = new Headers({ "Cache-Control": NO_STORE });
    if (token) for (const cookie of clearedSessionCookies()) headers.append("Set-Cookie", cookie);
    if (wantsPage(request)) {
      const url = new URL(request.url);
      const path = url.pathname.replace(/\.data$/, "");
      const to =
        SAFE_METHODS.has(request.method) && path !== "/admin/logout"
          ? `?redirectTo=${encodeURIComponent(path)}`
          : "";
      throw redirect(`/admin/login${to}`, { headers });
    }
    return new Response("Unauthorized", { status: 401, headers });
  }

  // Owners and managers (and drivers, when the owner requires it) open nothing but the enrolment
  // page until their second factor is set up (P-27).
  const path = new URL(request.url).pathname.replace(/\.data$/, "");
  if (!OPEN_BEFORE_ENROLMENT.has(path) && (await mustEnrolFirst(database, session))) {
    if (wantsPage(request)) throw redirect(ENROLMENT_PATH, { headers: { "Cache-Control": NO_STORE } });
    return forbidden("Set up two-factor sign-in first");
  }

  const rule = adminRouteRule(pattern);
  let form: FormData | null = null;
  if (!SAFE_METHODS.has(request.method)) {
    const { requestId } = context.get(requestInfoContext);
    if (!isSameOrigin(request)) {
      log.warn("Refused a cross-site admin request", {
        requestId,
        origin: request.headers.get("Origin") ?? "",
      });
      return forbidden("Cross-site request refused");
    }
    if (!rule?.streamedBody) {
      const posted = await readPostedForm(request, rule?.multiValueFields);
      if (!posted.ok) return plainText(400, posted.message);
      form = posted.form;
    }
    const submitted = request.headers.get(CSRF_HEADER) ?? textField(form, CSRF_FIELD);
    if (!submitted || !timingSafeEqualText(submitted, session.csrfToken)) {
      log.warn("Refused an admin request without a valid CSRF token", { requestId });
      return forbidden("Your session has changed. Please reload the page and try again.");
    }
  }

  const needed = permissionsFor(rule, request.method, textField(form, "intent"));
  if (!needed?.every((permission) => can(session.role, permission))) {
    noAccess(request, session, Boolean(rule?.resource));
  }

  context.set(adminSessionContext, session);
  context.set(adminFormContext, form);
  const response = await next();
  try {
    response.headers.set("Cache-Control", NO_STORE);
  } catch {
    // Immutable headers (a Response.redirect): nothing is cached on a redirect anyway.
  }
  return response;
};
