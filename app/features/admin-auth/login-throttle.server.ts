/**
 * Brute-force protection for the admin sign-in (decision 5): after 5 failed attempts for one
 * account or from one address within 15 minutes, further attempts are refused, right password or
 * not, until the oldest of those failures is 15 minutes old.
 */
import { and, desc, eq, gt, lt, type SQL } from "drizzle-orm";
import type { Executor } from "#app/db/client.server.ts";
import { loginAttempts } from "#app/db/schema.ts";
import { normaliseEmail } from "./admin-users.server.ts";

export const MAX_FAILED_ATTEMPTS = 5;
export const THROTTLE_WINDOW_MS = 15 * 60_000;

export type ThrottleState = { locked: false } | { locked: true; retryAfterMs: number };

/** Whether this e-mail or this address has used up its failed attempts. */
export async function checkLoginThrottle(
  executor: Executor,
  email: string,
  ipAddress: string,
  now = new Date(),
): Promise<ThrottleState> {
  const since = new Date(now.getTime() - THROTTLE_WINDOW_MS);
  const byEmail = await recentFailures(executor, eq(loginAttempts.email, normaliseEmail(email)), since);
  const byAddress = await recentFailures(executor, eq(loginAttempts.ipAddress, ipAddress), since);
  let unlockAt = 0;
  for (const failures of [byEmail, byAddress]) {
    if (failures.length >= MAX_FAILED_ATTEMPTS) {
      // The fifth most recent failure has to age out of the window before the next try.
      const fifth = failures[MAX_FAILED_ATTEMPTS - 1] as Date;
      unlockAt = Math.max(unlockAt, fifth.getTime() + THROTTLE_WINDOW_MS);
    }
  }
  return unlockAt > now.getTime()
    ? { locked: true, retryAfterMs: unlockAt - now.getTime() }
    : { locked: false };
}

async function recentFailures(executor: Executor, who: SQL, since: Date) {
  const rows = await executor
    .select({ createdAt: loginAttempts.createdAt })
    .from(loginAttempts)
    .where(and(who, eq(loginAttempts.succeeded, false), gt(loginAttempts.createdAt, since)))
    .orderBy(desc(loginAttempts.createdAt))
    .limit(MAX_FAILED_ATTEMPTS);
  return rows.map((row) => row.createdAt);
}

export async function recordLoginAttempt(
  executor: Executor,
  attempt: { email: string; ipAddress: string; succeeded: boolean; now?: Date },
) {
  await executor.insert(loginAttempts).values({
    email: normaliseEmail(attempt.email).slice(0, 320),
    ipAddress: attempt.ipAddress.slice(0, 100),
    succeeded: attempt.succeeded,
    createdAt: attempt.now ?? new Date(),
  });
}

/** Old attempts are of no use after the window: keep the table small. */
export async function pruneLoginAttempts(executor: Executor, now = new Date()) {
  await executor
    .delete(loginAttempts)
    .where(lt(loginAttempts.createdAt, new Date(now.getTime() - 24 * 60 * 60_000)));
}
