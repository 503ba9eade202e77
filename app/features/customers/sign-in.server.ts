/**
 * Signing a customer in without a password (record 053): a 6-digit code sent to the e-mail
 * address, valid 10 minutes, 5 tries. Asking for a code and checking one each spend the client
 * address's budget (as many as a staff sign-in's, P-30); asking also spends the e-mail address's
 * budget from that client address, so nobody floods one inbox. Each try is spent before the code is
 * checked (one UPDATE), so parallel guesses get 5 in all. The right code makes the account at the
 * first sign-in, joins the guest orders placed with that address (only now, when it is verified),
 * and starts a session.
 */
import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import { customerSignInCodes, customers, emailOutbox, orders } from "#app/db/schema.ts";
import { consumeBudget, refundBudget, resetBudget } from "#app/features/abuse/rate-limits.server.ts";
import { storeEmailSettings, wakeEmailWorker } from "#app/features/email/email-outbox.server.ts";
import { addressBudgetKey } from "#app/utils/client-address.server.ts";
import { CODE_VALID_MINUTES } from "./customer.schema.ts";
import { createCustomerSession } from "./customer-sessions.server.ts";
import { signInCodeEmail } from "./sign-in-code-email.server.tsx";

export { CODE_VALID_MINUTES };
export const MAX_CODE_TRIES = 5;

/** Where a code goes: an e-mail address here; a phone joins when SMS is configured. */
export type SignInContact = { kind: "email"; address: string };

function codeHash(id: string, code: string) {
  return createHash("sha256").update(`${id}:${code}`).digest();
}

const emailKey = (email: string, ipAddress: string) => `${email} ${addressBudgetKey(ipAddress)}`;

/**
 * Queues the code to the contact in the caller's transaction. The one place that picks the channel:
 * an SMS channel (a phone contact) goes here beside the e-mail.
 */
export async function sendSignInCode(tx: Executor, contact: SignInContact, code: string, now: Date) {
  const store = storeEmailSettings();
  const mail = await signInCodeEmail({ code, validMinutes: CODE_VALID_MINUTES }, store);
  await tx.insert(emailOutbox).values({
    kind: "customer-sign-in-code",
    toAddress: contact.address,
    subject: mail.subject,
    textBody: mail.text,
    htmlBody: mail.html,
    createdAt: now,
    nextAttemptAt: now,
  });
}

export type CodeRequestResult = { ok: true } | { ok: false; retryAfterSeconds: number };

/** Sends a new code to `email` (replacing an open one). The answer never says whether an account exists. */
export async function requestSignInCode(input: {
  email: string;
  ipAddress: string;
  now?: Date;
}): Promise<CodeRequestResult> {
  const now = input.now ?? new Date();
  const byAddress = await consumeBudget("customerCodeAddress", input.ipAddress);
  if (!byAddress.ok) return { ok: false, retryAfterSeconds: byAddress.retryAfterSeconds };
  const byEmail = await consumeBudget("customerCodeEmail", emailKey(input.email, input.ipAddress));
  if (!byEmail.ok) return { ok: false, retryAfterSeconds: byEmail.retryAfterSeconds };
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const database = await db();
  await database.transaction(async (tx) => {
    await tx.delete(customerSignInCodes).where(lt(customerSignInCodes.expiresAt, now));
    const id = crypto.randomUUID();
    const values = {
      id,
      email: input.email,
      codeHash: codeHash(id, code).toString("hex"),
      attempts: 0,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CODE_VALID_MINUTES * 60_000),
    };
    await tx
      .insert(customerSignInCodes)
      .values(values)
      .onConflictDoUpdate({ target: customerSignInCodes.email, set: values });
    await sendSignInCode(tx, { kind: "email", address: input.email }, code, now);
  });
  wakeEmailWorker();
  return { ok: true };
}

export type CodeCheckResult =
  | { ok: true; customerId: string; token: string; joinedOrders: number; created: boolean }
  | { ok: false; reason: "expired" }
  | { ok: false; reason: "wrong"; attemptsLeft: number }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number };

/** Checks a code; the right one signs in (and makes the account at the first sign-in). */
export async function checkSignInCode(input: {
  email: string;
  code: string;
  ipAddress: string;
  userAgent?: string;
  previousToken?: string;
  now?: Date;
}): Promise<CodeCheckResult> {
  const now = input.now ?? new Date();
  const byAddress = await consumeBudget("customerCodeAddress", input.ipAddress);
  if (!byAddress.ok)
    return { ok: false, reason: "throttled", retryAfterSeconds: byAddress.retryAfterSeconds };
  const database = await db();
  // Spend one try first: no number of parallel requests gets more than MAX_CODE_TRIES.
  const [spent] = await database
    .update(customerSignInCodes)
    .set({ attempts: sql`${customerSignInCodes.attempts} + 1` })
    .where(
      and(
        eq(customerSignInCodes.email, input.email),
        gt(customerSignInCodes.expiresAt, now),
        lt(customerSignInCodes.attempts, MAX_CODE_TRIES),
      ),
    )
    .returning({
      id: customerSignInCodes.id,
      codeHash: customerSignInCodes.codeHash,
      attempts: customerSignInCodes.attempts,
    });
  if (!spent) return { ok: false, reason: "expired" };
  const right = timingSafeEqual(Buffer.from(spent.codeHash, "hex"), codeHash(spent.id, input.code));
  if (!right) {
    if (spent.attempts >= MAX_CODE_TRIES) {
      await database.delete(customerSignInCodes).where(eq(customerSignInCodes.id, spent.id));
      return { ok: false, reason: "expired" };
    }
    return { ok: false, reason: "wrong", attemptsLeft: MAX_CODE_TRIES - spent.attempts };
  }
  const outcome = await database.transaction(async (tx) => {
    const used = await tx
      .delete(customerSignInCodes)
      .where(eq(customerSignInCodes.id, spent.id))
      .returning({ id: customerSignInCodes.id });
    // A parallel request with the same right code signed in first: this one ends here.
    if (used.length === 0) return null;
    const inserted = await tx
      .insert(customers)
      .values({ email: input.email, emailVerifiedAt: now, createdAt: now, updatedAt: now })
      .onConflictDoNothing({ target: customers.email })
      .returning({ id: customers.id });
    let customerId = inserted[0]?.id;
    if (!customerId) {
      const [existing] = await tx
        .select({ id: customers.id })
        .from(customers)
        .where(eq(customers.email, input.email));
      customerId = existing?.id as string;
    }
    const joinedOrders = await joinGuestOrders(tx, customerId, input.email);
    const token = await createCustomerSession(tx, customerId, {
      previousToken: input.previousToken,
      userAgent: input.userAgent,
      now,
    });
    return { customerId, token, joinedOrders, created: inserted.length > 0 };
  });
  if (!outcome) return { ok: false, reason: "expired" };
  await refundBudget("customerCodeAddress", input.ipAddress);
  await resetBudget("customerCodeEmail", emailKey(input.email, input.ipAddress));
  return { ok: true, ...outcome };
}

/**
 * Orders placed with a verified e-mail address join its account (record 053): at the sign-in that
 * proves the address, and whenever the account's orders are read afterwards; never for an address
 * only typed at checkout or asked a code for.
 */
export async function joinGuestOrders(executor: Executor, customerId: string, email: string) {
  const joined = await executor
    .update(orders)
    .set({ customerId })
    .where(and(sql`lower(${orders.userEmail}) = ${email}`, isNull(orders.customerId)))
    .returning({ id: orders.id });
  return joined.length;
}
