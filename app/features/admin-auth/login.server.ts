/** The admin sign-in: throttle, then one password check whether or not the e-mail exists. */
import type { Executor } from "#app/db/client.server.ts";
import { findAdminByEmail } from "./admin-users.server.ts";
import { checkLoginThrottle, pruneLoginAttempts, recordLoginAttempt } from "./login-throttle.server.ts";
import { decoyPasswordHash, verifyPassword } from "./passwords.server.ts";
import { createSession } from "./sessions.server.ts";

export type SignInResult =
  | { ok: true; token: string; userId: string }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "locked"; retryAfterMs: number };

export async function signIn(
  executor: Executor,
  input: { email: string; password: string; ipAddress: string; previousToken?: string; now?: Date },
): Promise<SignInResult> {
  const now = input.now ?? new Date();
  const throttle = await checkLoginThrottle(executor, input.email, input.ipAddress, now);
  if (throttle.locked) return { ok: false, reason: "locked", retryAfterMs: throttle.retryAfterMs };

  const user = await findAdminByEmail(executor, input.email);
  // An unknown e-mail still costs one argon2 verification: same answer, same time.
  const valid = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), input.password);
  const succeeded = Boolean(user) && valid;
  await recordLoginAttempt(executor, { email: input.email, ipAddress: input.ipAddress, succeeded, now });
  if (!succeeded || !user) return { ok: false, reason: "invalid" };
  const { token } = await createSession(executor, user.id, { previousToken: input.previousToken, now });
  // Housekeeping on the rare happy path: attempts older than a day serve no purpose.
  await pruneLoginAttempts(executor, now);
  return { ok: true, token, userId: user.id };
}

/** 'Too many attempts' in words a person can act on. */
export function lockedMessage(retryAfterMs: number) {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return `Too many failed sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`;
}
