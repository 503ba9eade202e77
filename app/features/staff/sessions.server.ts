/**
 * Admin sessions (P-5): an opaque random token in an HttpOnly, SameSite=Lax cookie; the
 * database keeps only its SHA-256, with a CSRF token, an idle and an absolute time-out.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, lt, ne, or } from "drizzle-orm";
import type { Executor } from "#app/db/client.server.ts";
import { adminSessions, adminUsers, type StaffRole } from "#app/db/schema.ts";
import { config } from "#app/utils/env.server.ts";

export const SESSION_COOKIE = "cg_admin_session";
/** Signed out after 2 hours without a request… */
export const SESSION_IDLE_MS = 2 * 60 * 60_000;
/** …and after 12 hours whatever happens. */
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60_000;
/** lastSeenAt is written at most once a minute, not on every request. */
const TOUCH_AFTER_MS = 60_000;

export type AdminSession = {
  userId: string;
  email: string;
  role: StaffRole;
  csrfToken: string;
  tokenHash: string;
  /** Whether the account has a confirmed second factor (P-27). */
  twoFactor: boolean;
  /** When this session last proved its password and code: the sign-in or a re-check (record 037). */
  reauthenticatedAt: Date | null;
};

export function hashToken(token: string) {
  return createHash("sha256").update(token).digest("hex");
}

export function readSessionToken(request: Request): string | undefined {
  const header = request.headers.get("Cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === SESSION_COOKIE) {
      const value = rest.join("=");
      return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/**
 * The session cookie is sent to the admin pages and to the driver's run on the phone (`/driver`),
 * never to the storefront: one cookie per path, both holding the same token.
 */
export const SESSION_COOKIE_PATHS = ["/admin", "/driver"] as const;
type SessionCookiePath = (typeof SESSION_COOKIE_PATHS)[number];

function cookieAttributes(maxAgeSeconds: number, path: SessionCookiePath) {
  const parts = [`Path=${path}`, "HttpOnly", "SameSite=Lax", `Max-Age=${maxAgeSeconds}`];
  if (config().secureCookies) parts.push("Secure");
  return parts.join("; ");
}

export function sessionCookie(token: string, path: SessionCookiePath = "/admin") {
  return `${SESSION_COOKIE}=${token}; ${cookieAttributes(Math.floor(SESSION_ABSOLUTE_MS / 1000), path)}`;
}

export function clearedSessionCookie(path: SessionCookiePath = "/admin") {
  return `${SESSION_COOKIE}=; ${cookieAttributes(0, path)}`;
}

/** Set-Cookie values of a new session, one per path. */
export function sessionCookies(token: string) {
  return SESSION_COOKIE_PATHS.map((path) => sessionCookie(token, path));
}

/** Set-Cookie values that end the session in the browser, on every path. */
export function clearedSessionCookies() {
  return SESSION_COOKIE_PATHS.map((path) => clearedSessionCookie(path));
}

/**
 * Starts a new session (a fresh token every sign-in) and ends the one the browser had, if any. The
 * sign-in has just checked the password (and the code, when set up): it counts as a re-check.
 */
export async function createSession(
  executor: Executor,
  userId: string,
  options: { previousToken?: string; userAgent?: string; ipAddress?: string; now?: Date } = {},
) {
  const now = options.now ?? new Date();
  const token = randomBytes(32).toString("base64url");
  const csrfToken = randomBytes(32).toString("base64url");
  if (options.previousToken) {
    await executor.delete(adminSessions).where(eq(adminSessions.tokenHash, hashToken(options.previousToken)));
  }
  // Housekeeping: this user's sessions that can no longer be used.
  await executor
    .delete(adminSessions)
    .where(
      and(
        eq(adminSessions.userId, userId),
        or(
          lt(adminSessions.expiresAt, now),
          lt(adminSessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS)),
        ),
      ),
    );
  await executor.insert(adminSessions).values({
    tokenHash: hashToken(token),
    userId,
    csrfToken,
    userAgent: (options.userAgent ?? "").slice(0, 400),
    ipAddress: (options.ipAddress ?? "").slice(0, 100),
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
    reauthenticatedAt: now,
  });
  return { token, csrfToken };
}

/** The signed-in admin behind a cookie token, or null when it is unknown, idle too long or expired. */
export async function findSession(
  executor: Executor,
  token: string | undefined,
  now = new Date(),
): Promise<AdminSession | null> {
  if (!token) return null;
  const tokenHash = hashToken(token);
  const [row] = await executor
    .select({
      userId: adminSessions.userId,
      csrfToken: adminSessions.csrfToken,
      lastSeenAt: adminSessions.lastSeenAt,
      expiresAt: adminSessions.expiresAt,
      email: adminUsers.email,
      role: adminUsers.role,
      deactivatedAt: adminUsers.deactivatedAt,
      totpEnabledAt: adminUsers.totpEnabledAt,
      reauthenticatedAt: adminSessions.reauthenticatedAt,
    })
    .from(adminSessions)
    .innerJoin(adminUsers, eq(adminUsers.id, adminSessions.userId))
    .where(eq(adminSessions.tokenHash, tokenHash))
    .limit(1);
  if (!row) return null;
  const idleFor = now.getTime() - row.lastSeenAt.getTime();
  if (row.expiresAt.getTime() <= now.getTime() || idleFor > SESSION_IDLE_MS || row.deactivatedAt) {
    await executor.delete(adminSessions).where(eq(adminSessions.tokenHash, tokenHash));
    return null;
  }
  if (idleFor > TOUCH_AFTER_MS) {
    await executor
      .update(adminSessions)
      .set({ lastSeenAt: now })
      .where(eq(adminSessions.tokenHash, tokenHash));
  }
  return {
    userId: row.userId,
    email: row.email,
    role: row.role,
    csrfToken: row.csrfToken,
    tokenHash,
    twoFactor: row.totpEnabledAt !== null,
    reauthenticatedAt: row.reauthenticatedAt,
  };
}

export async function deleteSession(executor: Executor, token: string | undefined) {
  if (!token) return;
  await executor.delete(adminSessions).where(eq(adminSessions.tokenHash, hashToken(token)));
}

/**
 * Ends every session of a staff member at once (an owner changed their role, second factor or
 * password, or deactivated them; or they turned their own second factor off), except `keep`'s.
 * Returns how many ended.
 */
export async function endSessionsOf(executor: Executor, userId: string, keep?: { tokenHash: string }) {
  const ended = await executor
    .delete(adminSessions)
    .where(
      keep
        ? and(eq(adminSessions.userId, userId), ne(adminSessions.tokenHash, keep.tokenHash))
        : eq(adminSessions.userId, userId),
    )
    .returning({ tokenHash: adminSessions.tokenHash });
  return ended.length;
}
