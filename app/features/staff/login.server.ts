/**
 * The admin sign-in: throttle first (P-30), then one password check whether or not the
 * e-mail exists. An account with a second factor (P-27) gets a sign-in challenge instead of
 * a session: the throttle counts the attempt as settled only when the code is right too.
 */
import type { Executor } from "#app/db/client.server.ts";
import type { StaffRole } from "#app/db/schema.ts";
import { waitPhrase } from "#app/features/abuse/rate-limits.server.ts";
import { type AuditOrigin, actorOf, recordAudit } from "#app/features/audit/audit.server.ts";
import { findAdminByEmail } from "./admin-users.server.ts";
import { isKnownDevice } from "./known-device.server.ts";
import {
  admitSignInAttempt,
  isKnownAddress,
  pruneLoginAttempts,
  recordLoginAttempt,
  settleSignInAttempt,
} from "./login-throttle.server.ts";
import { decoyPasswordHash, verifyPassword } from "./passwords.server.ts";
import { createSession } from "./sessions.server.ts";
import { createSignInChallenge } from "./sign-in-challenge.server.ts";

export type SignInResult =
  | { ok: true; token: string; userId: string; role: StaffRole }
  | { ok: false; reason: "invalid" }
  /** The password was right; the code of the second factor is asked next (the challenge's cookie). */
  | { ok: false; reason: "second-factor"; challengeToken: string }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number };

export type SignInDependencies = {
  /** The argon2id check (tests count how often it runs). */
  verify?: (passwordHash: string, password: string) => Promise<boolean>;
};

export async function signIn(
  executor: Executor,
  input: {
    email: string;
    password: string;
    ipAddress: string;
    previousToken?: string;
    /** The browser's known-device cookie, if it sent one. */
    knownDeviceToken?: string | null;
    /** The browser's User-Agent, shown on /admin/account. */
    userAgent?: string;
    /** Where the path after signing in leads (kept across the second step). */
    redirectTo?: string;
    requestId?: string | null;
    now?: Date;
  },
  dependencies: SignInDependencies = {},
): Promise<SignInResult> {
  const now = input.now ?? new Date();
  const knownDevice = await isKnownDevice(executor, input.knownDeviceToken, input.email, now);
  const admitted = await admitSignInAttempt({
    email: input.email,
    ipAddress: input.ipAddress,
    knownDevice,
    isTrusted: async () => knownDevice || (await isKnownAddress(executor, input.email, input.ipAddress, now)),
  });
  if (!admitted.allowed)
    return { ok: false, reason: "throttled", retryAfterSeconds: admitted.retryAfterSeconds };

  const user = await findAdminByEmail(executor, input.email);
  const verify = dependencies.verify ?? verifyPassword;
  // An unknown e-mail still costs one argon2 verification: same answer, same time.
  const valid = await verify(user?.passwordHash ?? (await decoyPasswordHash()), input.password);
  const succeeded = Boolean(user) && valid && !user?.deactivatedAt;
  const origin: AuditOrigin = { ipAddress: input.ipAddress, requestId: input.requestId ?? null };
  if (!succeeded || !user) {
    await settleSignInAttempt({ email: input.email, ipAddress: input.ipAddress, succeeded: false });
    await executor.transaction(async (tx) => {
      await recordLoginAttempt(tx, { email: input.email, ipAddress: input.ipAddress, succeeded: false, now });
      await recordAudit(tx, { userId: null, email: null, role: null }, origin, {
        action: "sign_in.failed",
        details: { email: input.email.trim().toLowerCase().slice(0, 320) },
      });
    });
    return { ok: false, reason: "invalid" };
  }
  if (user.totpEnabledAt) {
    // The attempt stays counted against the address until the code is right too.
    const challengeToken = await createSignInChallenge(executor, {
      userId: user.id,
      redirectTo: input.redirectTo,
      now,
    });
    return { ok: false, reason: "second-factor", challengeToken };
  }
  const token = await completeSignIn(executor, {
    user,
    ipAddress: input.ipAddress,
    userAgent: input.userAgent,
    previousToken: input.previousToken,
    origin,
    method: "password",
    knownDevice,
    now,
  });
  return { ok: true, token, userId: user.id, role: user.role };
}

/**
 * The last step of every sign-in: settles the throttle, records the attempt and the audit event,
 * and starts the session (in one transaction). `method` says how the second step was passed.
 */
export async function completeSignIn(
  executor: Executor,
  input: {
    user: { id: string; email: string; role: "owner" | "manager" | "driver" };
    ipAddress: string;
    userAgent?: string;
    previousToken?: string;
    origin: AuditOrigin;
    method: "password" | "totp" | "recovery";
    /** Admitted as a known device of the account (P-30): its address spent nothing. */
    knownDevice?: boolean;
    now: Date;
  },
) {
  const { user, now } = input;
  await settleSignInAttempt({
    email: user.email,
    ipAddress: input.ipAddress,
    succeeded: true,
    knownDevice: input.knownDevice,
  });
  const token = await executor.transaction(async (tx) => {
    await recordLoginAttempt(tx, { email: user.email, ipAddress: input.ipAddress, succeeded: true, now });
    const session = await createSession(tx, user.id, {
      previousToken: input.previousToken,
      userAgent: input.userAgent,
      ipAddress: input.ipAddress,
      now,
    });
    await recordAudit(tx, actorOf({ userId: user.id, email: user.email, role: user.role }), input.origin, {
      action: "sign_in.succeeded",
      targetType: "staff",
      targetId: user.id,
      details: { method: input.method },
    });
    return session.token;
  });
  // Housekeeping on the rare happy path: old attempts serve no purpose.
  await pruneLoginAttempts(executor, now);
  return token;
}

/** 'Too many attempts' in words a person can act on. */
export function throttledMessage(retryAfterSeconds: number) {
  return `Too many sign-in attempts. Please wait ${waitPhrase(retryAfterSeconds)} and try again.`;
}
