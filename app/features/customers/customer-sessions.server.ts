/**
 * Customer sessions (record 053): as staff's (P-5) an opaque random token in an HttpOnly,
 * SameSite=Lax cookie, only its SHA-256 kept, with a CSRF token, an idle and an absolute time-out;
 * revocable (signing out ends it here, deleting the account ends them all). Its own cookie, sent only
 * to /account and /checkout (and their data URLs): never to a cached catalogue page (whose cache passes any `cg_` cookie)
 * and never to /admin or /driver, whose guard reads the staff cookie alone.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, lt, or } from "drizzle-orm";
import type { Executor } from "#app/db/client.server.ts";
import { customerSessions, customers } from "#app/db/schema.ts";
import { config } from "#app/utils/env.server.ts";

export const CUSTOMER_COOKIE = "cg_customer_session";
/** Signed out after 30 days without a visit… */
export const CUSTOMER_IDLE_MS = 30 * 24 * 60 * 60_000;
/** …and after 90 days whatever happens. */
export const CUSTOMER_ABSOLUTE_MS = 90 * 24 * 60 * 60_000;
const TOUCH_AFTER_MS = 60 * 60_000;

/**
 * A cookie path matches whole segments: `/account` is not sent to React Router's data URL
 * `/account.data` (the account page's client navigations and posts), so that path has its own copy.
 */
export const CUSTOMER_COOKIE_PATHS = ["/account", "/account.data", "/checkout", "/checkout.data"] as const;

export type CustomerSession = {
  customerId: string;
  email: string;
  name: string;
  phone: string;
  csrfToken: string;
  tokenHash: string;
};

export function hashCustomerToken(token: string) {
  return createHash("sha256").update(token).digest("hex");
}

export function readCookie(request: Request, name: string, pattern = /^[A-Za-z0-9_-]{43}$/) {
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) {
      const value = rest.join("=");
      return pattern.test(value) ? value : undefined;
    }
  }
  return undefined;
}

export function readCustomerToken(request: Request) {
  return readCookie(request, CUSTOMER_COOKIE);
}

function attributes(maxAgeSeconds: number, path: string) {
  const parts = [`Path=${path}`, "HttpOnly", "SameSite=Lax", `Max-Age=${maxAgeSeconds}`];
  if (config().secureCookies) parts.push("Secure");
  return parts.join("; ");
}

export function customerSessionCookies(token: string) {
  const maxAge = Math.floor(CUSTOMER_ABSOLUTE_MS / 1000);
  return CUSTOMER_COOKIE_PATHS.map((path) => `${CUSTOMER_COOKIE}=${token}; ${attributes(maxAge, path)}`);
}

export function clearedCustomerSessionCookies() {
  return CUSTOMER_COOKIE_PATHS.map((path) => `${CUSTOMER_COOKIE}=; ${attributes(0, path)}`);
}

export async function createCustomerSession(
  executor: Executor,
  customerId: string,
  options: { previousToken?: string; userAgent?: string; now?: Date } = {},
) {
  const now = options.now ?? new Date();
  const token = randomBytes(32).toString("base64url");
  if (options.previousToken) {
    await executor
      .delete(customerSessions)
      .where(eq(customerSessions.tokenHash, hashCustomerToken(options.previousToken)));
  }
  await executor
    .delete(customerSessions)
    .where(
      and(
        eq(customerSessions.customerId, customerId),
        or(
          lt(customerSessions.expiresAt, now),
          lt(customerSessions.lastSeenAt, new Date(now.getTime() - CUSTOMER_IDLE_MS)),
        ),
      ),
    );
  await executor.insert(customerSessions).values({
    tokenHash: hashCustomerToken(token),
    customerId,
    csrfToken: randomBytes(32).toString("base64url"),
    userAgent: (options.userAgent ?? "").slice(0, 400),
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + CUSTOMER_ABSOLUTE_MS),
  });
  return token;
}

/** A stored session as read with its customer, before its time-outs are applied. */
export type StoredCustomerSession = Omit<CustomerSession, "tokenHash"> & {
  lastSeenAt: Date;
  expiresAt: Date;
};

/** The signed-in customer behind a cookie token, or null (unknown, idle too long, expired). */
export async function findCustomerSession(
  executor: Executor,
  token: string | undefined,
  now = new Date(),
): Promise<CustomerSession | null> {
  if (!token) return null;
  const tokenHash = hashCustomerToken(token);
  const [row] = await executor
    .select({
      customerId: customerSessions.customerId,
      csrfToken: customerSessions.csrfToken,
      lastSeenAt: customerSessions.lastSeenAt,
      expiresAt: customerSessions.expiresAt,
      email: customers.email,
      name: customers.name,
      phone: customers.phone,
    })
    .from(customerSessions)
    .innerJoin(customers, eq(customers.id, customerSessions.customerId))
    .where(eq(customerSessions.tokenHash, tokenHash))
    .limit(1);
  return settleCustomerSession(executor, tokenHash, row ?? null, now);
}

/**
 * A session read by another statement (the checkout reads it with the order's context), with the
 * time-outs applied: an expired or idle one is deleted and null, a live one seen again is touched.
 */
export async function settleCustomerSession(
  executor: Executor,
  tokenHash: string,
  row: StoredCustomerSession | null,
  now = new Date(),
): Promise<CustomerSession | null> {
  if (!row) return null;
  const idleFor = now.getTime() - row.lastSeenAt.getTime();
  if (row.expiresAt.getTime() <= now.getTime() || idleFor > CUSTOMER_IDLE_MS) {
    await executor.delete(customerSessions).where(eq(customerSessions.tokenHash, tokenHash));
    return null;
  }
  if (idleFor > TOUCH_AFTER_MS) {
    await executor
      .update(customerSessions)
      .set({ lastSeenAt: now })
      .where(eq(customerSessions.tokenHash, tokenHash));
  }
  const { lastSeenAt: _seen, expiresAt: _expires, ...session } = row;
  return { ...session, tokenHash };
}

export async function deleteCustomerSession(executor: Executor, token: string | undefined) {
  if (!token) return;
  await executor.delete(customerSessions).where(eq(customerSessions.tokenHash, hashCustomerToken(token)));
}

/** Ends every session of a customer ('Sign out everywhere'); returns how many ended. */
export async function endCustomerSessions(executor: Executor, customerId: string) {
  const ended = await executor
    .delete(customerSessions)
    .where(eq(customerSessions.customerId, customerId))
    .returning({ tokenHash: customerSessions.tokenHash });
  return ended.length;
}

/** How many sessions (browsers) a customer is signed in on. */
export async function countCustomerSessions(executor: Executor, customerId: string) {
  const rows = await executor
    .select({ tokenHash: customerSessions.tokenHash })
    .from(customerSessions)
    .where(eq(customerSessions.customerId, customerId));
  return rows.length;
}
