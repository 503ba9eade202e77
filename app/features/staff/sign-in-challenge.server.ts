/**
 * The second step of signing in (P-27): after the right password, an account with a second
 * factor gets a challenge — a random token in a short-lived HttpOnly cookie, only its SHA-256 in
 * `admin_sign_in_challenges` — and must give a current code or an unused recovery code. Every
 * attempt is spent before the code is checked (one UPDATE), so even parallel guesses get
 * MAX_CODE_ATTEMPTS in all; then the challenge ends and the person signs in again.
 */
import { randomBytes } from "node:crypto";
import { and, eq, gt, lt, or, sql } from "drizzle-orm";
import type { Executor } from "#app/db/client.server.ts";
import { adminSignInChallenges, adminUsers } from "#app/db/schema.ts";
import { type AuditOrigin, actorOf, recordAudit } from "#app/features/audit/audit.server.ts";
import type { IdPhotoKeyring } from "#app/features/keyring/id-photo-crypto.server.ts";
import { config } from "#app/utils/env.server.ts";
import { recordLoginAttempt, settleSignInAttempt } from "./login-throttle.server.ts";
import { hashToken } from "./sessions.server.ts";
import { checkSecondFactor } from "./totp.server.ts";

export const CHALLENGE_COOKIE = "cg_admin_challenge";
export const CHALLENGE_MINUTES = 5;
/** Wrong codes one sign-in attempt may have before it ends. */
export const MAX_CODE_ATTEMPTS = 5;

export async function createSignInChallenge(
  executor: Executor,
  input: { userId: string; redirectTo?: string; now: Date },
) {
  const token = randomBytes(32).toString("base64url");
  // Housekeeping: challenges nobody finished.
  await executor.delete(adminSignInChallenges).where(lt(adminSignInChallenges.expiresAt, input.now));
  await executor.insert(adminSignInChallenges).values({
    tokenHash: hashToken(token),
    userId: input.userId,
    redirectTo: input.redirectTo?.slice(0, 500) ?? null,
    createdAt: input.now,
    expiresAt: new Date(input.now.getTime() + CHALLENGE_MINUTES * 60_000),
  });
  return token;
}

function cookieAttributes(maxAge: number) {
  return ["Path=/admin/login", "HttpOnly", "SameSite=Lax", `Max-Age=${maxAge}`]
    .concat(config().secureCookies ? ["Secure"] : [])
    .join("; ");
}

export function challengeCookie(token: string) {
  return `${CHALLENGE_COOKIE}=${token}; ${cookieAttributes(CHALLENGE_MINUTES * 60)}`;
}

export function clearedChallengeCookie() {
  return `${CHALLENGE_COOKIE}=; ${cookieAttributes(0)}`;
}

export function readChallengeToken(request: Request): string | undefined {
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === CHALLENGE_COOKIE) {
      const value = rest.join("=");
      return /^[\w-]{43}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/** The open challenge's account, or null when the token is unknown, expired or used up. */
export async function findSignInChallenge(executor: Executor, token: string | undefined, now = new Date()) {
  if (!token) return null;
  const [row] = await executor
    .select({ userId: adminSignInChallenges.userId, email: adminUsers.email })
    .from(adminSignInChallenges)
    .innerJoin(adminUsers, eq(adminUsers.id, adminSignInChallenges.userId))
    .where(
      and(
        eq(adminSignInChallenges.tokenHash, hashToken(token)),
        gt(adminSignInChallenges.expiresAt, now),
        lt(adminSignInChallenges.failedCodes, MAX_CODE_ATTEMPTS),
      ),
    );
  return row ?? null;
}

export type SecondStepResult =
  | {
      ok: true;
      user: { id: string; email: string; role: "owner" | "manager" | "driver" };
      method: "totp" | "recovery";
      redirectTo: string | null;
    }
  | { ok: false; reason: "expired" | "locked" }
  | { ok: false; reason: "wrong"; attemptsLeft: number };

/** Checks the code of an open challenge; a right one ends the challenge (the caller signs in). */
export async function answerSignInChallenge(
  executor: Executor,
  keyring: IdPhotoKeyring,
  input: { token: string | undefined; code: string; ipAddress: string; origin: AuditOrigin; now?: Date },
): Promise<SecondStepResult> {
  const now = input.now ?? new Date();
  if (!input.token) return { ok: false, reason: "expired" };
  const tokenHash = hashToken(input.token);
  // Spend one attempt first: no number of parallel requests gets more than MAX_CODE_ATTEMPTS.
  const [spent] = await executor
    .update(adminSignInChallenges)
    .set({ failedCodes: sql`${adminSignInChallenges.failedCodes} + 1` })
    .where(
      and(
        eq(adminSignInChallenges.tokenHash, tokenHash),
        gt(adminSignInChallenges.expiresAt, now),
        lt(adminSignInChallenges.failedCodes, MAX_CODE_ATTEMPTS),
      ),
    )
    .returning({
      userId: adminSignInChallenges.userId,
      attempts: adminSignInChallenges.failedCodes,
      redirectTo: adminSignInChallenges.redirectTo,
    });
  if (!spent) return { ok: false, reason: "expired" };
  const [user] = await executor
    .select({
      id: adminUsers.id,
      email: adminUsers.email,
      role: adminUsers.role,
      deactivatedAt: adminUsers.deactivatedAt,
    })
    .from(adminUsers)
    .where(eq(adminUsers.id, spent.userId));
  if (!user || user.deactivatedAt) {
    await executor.delete(adminSignInChallenges).where(eq(adminSignInChallenges.tokenHash, tokenHash));
    return { ok: false, reason: "expired" };
  }
  const outcome = await executor.transaction(async (tx) => {
    const check = await checkSecondFactor(tx, keyring, user.id, input.code, now);
    if (!check.ok) {
      await recordLoginAttempt(tx, { email: user.email, ipAddress: input.ipAddress, succeeded: false, now });
      await recordAudit(tx, { userId: null, email: null, role: null }, input.origin, {
        action: "sign_in.failed",
        details: { email: user.email, step: "second factor" },
      });
      if (spent.attempts >= MAX_CODE_ATTEMPTS) {
        await tx.delete(adminSignInChallenges).where(eq(adminSignInChallenges.tokenHash, tokenHash));
      }
      return check;
    }
    await tx.delete(adminSignInChallenges).where(eq(adminSignInChallenges.tokenHash, tokenHash));
    if (check.kind === "recovery") {
      await recordAudit(tx, actorOf({ userId: user.id, email: user.email, role: user.role }), input.origin, {
        action: "two_factor.recovery_code_used",
        targetType: "staff",
        targetId: user.id,
      });
    }
    return check;
  });
  if (!outcome.ok) {
    await settleSignInAttempt({ email: user.email, ipAddress: input.ipAddress, succeeded: false });
    if (spent.attempts >= MAX_CODE_ATTEMPTS) return { ok: false, reason: "locked" };
    return { ok: false, reason: "wrong", attemptsLeft: MAX_CODE_ATTEMPTS - spent.attempts };
  }
  return {
    ok: true,
    user: { id: user.id, email: user.email, role: user.role },
    method: outcome.kind,
    redirectTo: spent.redirectTo,
  };
}

/** Ends every open challenge of a user (deactivation, a reset second factor). */
export async function endSignInChallenges(executor: Executor, userId: string) {
  await executor.delete(adminSignInChallenges).where(or(eq(adminSignInChallenges.userId, userId)));
}
