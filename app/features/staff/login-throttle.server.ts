/**
 * Sign-in throttling that slows attackers down without locking the owner out (P-30; it
 * replaces P-5's lock-out, which anyone could turn against the owner).
 *
 * Before any password is checked, each attempt spends, atomically (`rate-limiter-flexible`):
 * 1. its client address's budget (SIGN_IN_ATTEMPTS_PER_ADDRESS per 15 minutes, any accounts);
 * 2. its account-and-address budget (SIGN_IN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS per 15 minutes), so
 *    40 parallel guesses from one address cost at most 5 password checks;
 * 3. when the account has had more than FREE_FAILURES failures in the last hour, whatever the
 *    addresses: one attempt per delay that doubles with every further failure (1 s up to
 *    MAX_DELAY_SECONDS). A known device (a cookie from an earlier sign-in) or an address this
 *    account signed in from before skips this step, so the owner still gets in.
 * A known device of the account (its signed cookie) spends neither 1 nor 2 but its own account's
 * known-device budget (SIGN_IN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS per 15 minutes, whatever the
 * address): someone sharing the owner's address cannot spend the owner's way in.
 * A success clears its account's counters and gives the address the point it spent back.
 */
import { and, eq, gt, lt, or } from "drizzle-orm";
import type { Executor } from "#app/db/client.server.ts";
import { loginAttempts } from "#app/db/schema.ts";
import {
  budgetUsed,
  consumeBudget,
  refundBudget,
  resetBudget,
} from "#app/features/abuse/rate-limits.server.ts";
import { addressBudgetKey } from "#app/utils/client-address.server.ts";
import { normaliseEmail } from "./admin-users.server.ts";

/** Failed sign-ins an account may have in an hour before attempts on it are spaced out. */
export const FREE_FAILURES = 5;
/** The longest wait between two attempts on an attacked account from an unknown device. */
export const MAX_DELAY_SECONDS = 5 * 60;
/** How long an address that signed in successfully stays 'known' for that account. */
const KNOWN_ADDRESS_DAYS = 30;
const DAY_MS = 24 * 60 * 60_000;

export type ThrottleDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const pairKey = (email: string, ipAddress: string) =>
  `${normaliseEmail(email)} ${addressBudgetKey(ipAddress)}`;

/** The wait imposed on an account after `failures` recent failed sign-ins. */
export function delayAfterFailures(failures: number) {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(2 ** (failures - FREE_FAILURES), MAX_DELAY_SECONDS);
}

/** Spends this attempt's budgets; the password may be checked only when it answers allowed. */
export async function admitSignInAttempt(attempt: {
  email: string;
  ipAddress: string;
  /**
   * Whether this is a known device or address of the account (not slowed down by attacks from
   * elsewhere); asked only when the account is being slowed down.
   */
  isTrusted: () => Promise<boolean>;
  /** Whether the browser holds a valid known-device cookie of this account. */
  knownDevice?: boolean;
}): Promise<ThrottleDecision> {
  const account = normaliseEmail(attempt.email);
  if (attempt.knownDevice) {
    const byDevice = await consumeBudget("signInKnownDevice", account);
    if (!byDevice.ok) return { allowed: false, retryAfterSeconds: byDevice.retryAfterSeconds };
    return { allowed: true };
  }
  const byAddress = await consumeBudget("signInAddress", attempt.ipAddress);
  if (!byAddress.ok) return { allowed: false, retryAfterSeconds: byAddress.retryAfterSeconds };
  const byPair = await consumeBudget("signInAccountAndAddress", pairKey(account, attempt.ipAddress));
  if (!byPair.ok) return { allowed: false, retryAfterSeconds: byPair.retryAfterSeconds };
  const delay = delayAfterFailures(await budgetUsed("signInAccountFailures", account));
  if (delay === 0 || (await attempt.isTrusted())) return { allowed: true };
  // One attempt per delay for everyone else: the first to take the gate goes, the others wait.
  const gate = await consumeBudget("signInAccountGate", account, { durationSeconds: delay });
  return gate.ok ? { allowed: true } : { allowed: false, retryAfterSeconds: gate.retryAfterSeconds };
}

/** After the password check: failures slow the account down; a success clears its address's count. */
export async function settleSignInAttempt(attempt: {
  email: string;
  ipAddress: string;
  succeeded: boolean;
  /** Admitted as a known device: the address's budgets were not spent. */
  knownDevice?: boolean;
}) {
  const account = normaliseEmail(attempt.email);
  if (!attempt.succeeded) {
    await consumeBudget("signInAccountFailures", account);
    return;
  }
  if (attempt.knownDevice) {
    await resetBudget("signInKnownDevice", account);
    return;
  }
  await resetBudget("signInAccountAndAddress", pairKey(account, attempt.ipAddress));
  await refundBudget("signInAddress", attempt.ipAddress);
}

/** Whether this account signed in successfully from this address in the last 30 days. */
export async function isKnownAddress(executor: Executor, email: string, ipAddress: string, now = new Date()) {
  const [row] = await executor
    .select({ id: loginAttempts.id })
    .from(loginAttempts)
    .where(
      and(
        eq(loginAttempts.email, normaliseEmail(email)),
        eq(loginAttempts.ipAddress, ipAddress),
        eq(loginAttempts.succeeded, true),
        gt(loginAttempts.createdAt, new Date(now.getTime() - KNOWN_ADDRESS_DAYS * DAY_MS)),
      ),
    )
    .limit(1);
  return Boolean(row);
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

/** Failures are kept a day (for the record), successes 30 days (they make an address known). */
export async function pruneLoginAttempts(executor: Executor, now = new Date()) {
  await executor
    .delete(loginAttempts)
    .where(
      or(
        and(
          eq(loginAttempts.succeeded, false),
          lt(loginAttempts.createdAt, new Date(now.getTime() - DAY_MS)),
        ),
        lt(loginAttempts.createdAt, new Date(now.getTime() - KNOWN_ADDRESS_DAYS * DAY_MS)),
      ),
    );
}
