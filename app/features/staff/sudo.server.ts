/**
 * Sensitive changes ask again ("sudo mode", record 037): setting up the second factor (again),
 * new recovery codes, turning the second factor off and changing the password need a session that
 * proved its password and a current code (or a recovery code) within the last SUDO_WINDOW_MS — at
 * its sign-in, or by a re-check here. A stolen session cookie alone cannot take the account over.
 */
import { eq } from "drizzle-orm";
import type { Executor } from "#app/db/client.server.ts";
import { adminSessions, adminUsers } from "#app/db/schema.ts";
import { consumeBudget, resetBudget, waitPhrase } from "#app/features/abuse/rate-limits.server.ts";
import { type AuditActor, type AuditOrigin, actorOf, recordAudit } from "#app/features/audit/audit.server.ts";
import type { IdPhotoKeyring } from "#app/features/keyring/id-photo-crypto.server.ts";
import { settleSignInAttempt } from "./login-throttle.server.ts";
import { verifyPassword } from "./passwords.server.ts";
import type { AdminSession } from "./sessions.server.ts";
import { checkSecondFactor } from "./totp.server.ts";

/** How long a re-check (or the sign-in) lets a session make sensitive changes. */
export const SUDO_WINDOW_MS = 10 * 60_000;

export const CONFIRM_FIRST = "Confirm it's you first: enter your password (and a code, when asked) below.";
export const CONFIRM_REFUSED = "The password or the code is not right.";

/** Until when `session` may make sensitive changes, or null when it must be re-checked first. */
export function sudoUntil(session: Pick<AdminSession, "reauthenticatedAt">, now = new Date()): Date | null {
  if (!session.reauthenticatedAt) return null;
  const until = new Date(session.reauthenticatedAt.getTime() + SUDO_WINDOW_MS);
  return until.getTime() > now.getTime() ? until : null;
}

export function inSudoMode(session: Pick<AdminSession, "reauthenticatedAt">, now = new Date()) {
  return sudoUntil(session, now) !== null;
}

export type ConfirmAccessResult =
  | { ok: true }
  | { ok: false; refused: "too-many-tries" | "wrong-password-or-code"; error: string };

/**
 * The re-check: the account's password and, when it has a second factor, a current code or an
 * unused recovery code (each accepted once, as at sign-in). Tries are budgeted per account (the
 * sign-in's 5 per 15 minutes) and a wrong one counts as a failed sign-in of the account, so a
 * stolen session cannot guess the password. A right one opens the window for this session only.
 */
export async function confirmAccess(
  executor: Executor,
  keyring: IdPhotoKeyring,
  input: {
    session: AdminSession;
    password: string;
    code: string;
    actor?: AuditActor;
    origin: AuditOrigin;
    now?: Date;
  },
): Promise<ConfirmAccessResult> {
  const now = input.now ?? new Date();
  const { session } = input;
  const budget = await consumeBudget("reauthentication", session.userId);
  if (!budget.ok) {
    return {
      ok: false,
      refused: "too-many-tries",
      error: `Too many tries. Please wait ${waitPhrase(budget.retryAfterSeconds)} and try again.`,
    };
  }
  const [user] = await executor
    .select({ passwordHash: adminUsers.passwordHash, totpEnabledAt: adminUsers.totpEnabledAt })
    .from(adminUsers)
    .where(eq(adminUsers.id, session.userId));
  const passwordRight = Boolean(user) && (await verifyPassword(user?.passwordHash ?? "", input.password));
  // The code is spent only after the password was right: a wrong password burns no recovery code.
  const check =
    passwordRight && user?.totpEnabledAt
      ? await checkSecondFactor(executor, keyring, session.userId, input.code, now)
      : null;
  const actor = input.actor ?? actorOf(session);
  if (!passwordRight || (check && !check.ok)) {
    await settleSignInAttempt({
      email: session.email,
      ipAddress: input.origin.ipAddress ?? "",
      succeeded: false,
    });
    await recordAudit(executor, { userId: null, email: null, role: null }, input.origin, {
      action: "sign_in.failed",
      details: { email: session.email, step: "confirm access" },
    });
    return { ok: false, refused: "wrong-password-or-code", error: CONFIRM_REFUSED };
  }
  await executor.transaction(async (tx) => {
    await tx
      .update(adminSessions)
      .set({ reauthenticatedAt: now })
      .where(eq(adminSessions.tokenHash, session.tokenHash));
    await recordAudit(tx, actor, input.origin, {
      action: "session.reauthenticated",
      targetType: "staff",
      targetId: session.userId,
      details: { method: check?.ok ? check.kind : "password" },
    });
  });
  await resetBudget("reauthentication", session.userId);
  return { ok: true };
}
