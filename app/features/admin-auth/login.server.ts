/** The admin sign-in: throttle first (decision 30), then one password check whether or not the e-mail exists. */
import type { Executor } from "#app/db/client.server.ts";
import { waitPhrase } from "#app/features/abuse/rate-limits.server.ts";
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

export type SignInResult =
  | { ok: true; token: string; userId: string }
  | { ok: false; reason: "invalid" }
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
    now?: Date;
  },
  dependencies: SignInDependencies = {},
): Promise<SignInResult> {
  const now = input.now ?? new Date();
  const admitted = await admitSignInAttempt({
    email: input.email,
    ipAddress: input.ipAddress,
    isTrusted: async () =>
      (await isKnownDevice(executor, input.knownDeviceToken, input.email, now)) ||
      (await isKnownAddress(executor, input.email, input.ipAddress, now)),
  });
  if (!admitted.allowed)
    return { ok: false, reason: "throttled", retryAfterSeconds: admitted.retryAfterSeconds };

  const user = await findAdminByEmail(executor, input.email);
  const verify = dependencies.verify ?? verifyPassword;
  // An unknown e-mail still costs one argon2 verification: same answer, same time.
  const valid = await verify(user?.passwordHash ?? (await decoyPasswordHash()), input.password);
  const succeeded = Boolean(user) && valid;
  await settleSignInAttempt({ email: input.email, ipAddress: input.ipAddress, succeeded });
  await recordLoginAttempt(executor, { email: input.email, ipAddress: input.ipAddress, succeeded, now });
  if (!succeeded || !user) return { ok: false, reason: "invalid" };
  const { token } = await createSession(executor, user.id, { previousToken: input.previousToken, now });
  // Housekeeping on the rare happy path: old attempts serve no purpose.
  await pruneLoginAttempts(executor, now);
  return { ok: true, token, userId: user.id };
}

/** 'Too many attempts' in words a person can act on. */
export function throttledMessage(retryAfterSeconds: number) {
  return `Too many sign-in attempts. Please wait ${waitPhrase(retryAfterSeconds)} and try again.`;
}
