/**
 * Signing a customer in without a password (record 053): a 6-digit code sent to the e-mail
 * address, valid 10 minutes, 5 tries. Asking for a code and checking one each spend the client
 * address's budget (as many as a staff sign-in's, P-30); asking also spends the e-mail address's
 * budget from that client address, so nobody floods one inbox. Each try is spent before the code is
 * checked (one UPDATE), so parallel guesses get 5 in all. The right code makes the account at the
 * first sign-in, joins the guest orders placed with that address (only now, when it is verified),
 * and starts a session.
 *
 * When the shop sends texts, a phone (E.164) may ask for a code too, by text through the outbox's
 * SMS channel, with the same tries, validity and budgets (the phone stands where the e-mail does).
 * A phone only finds an account, never makes one (record 053): the account whose contact phone it
 * is, and which has had an order to that phone delivered; otherwise the customer signs in with
 * the e-mail address first.
 */
import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import { customerSignInCodes, customers, emailOutbox, orders } from "#app/db/schema.ts";
import { consumeBudget, refundBudget, resetBudget } from "#app/features/abuse/rate-limits.server.ts";
import { storeEmailSettings, wakeEmailWorker } from "#app/features/email/email-outbox.server.ts";
import { addressBudgetKey } from "#app/utils/client-address.server.ts";
import { config } from "#app/utils/env.server.ts";
import { CODE_VALID_MINUTES } from "./customer.schema.ts";
import { createCustomerSession } from "./customer-sessions.server.ts";
import { signInCodeEmail } from "./sign-in-code-email.server.tsx";

export { CODE_VALID_MINUTES };
export const MAX_CODE_TRIES = 5;

/** Where a code goes: an e-mail address, or a phone (E.164) when SMS is configured. */
export type SignInContact = { kind: "email"; address: string } | { kind: "phone"; phone: string };

/** The key a contact's open code and its budget are kept under: an e-mail never starts with '+'. */
const contactKey = (contact: SignInContact) => (contact.kind === "email" ? contact.address : contact.phone);

function codeHash(id: string, code: string) {
  return createHash("sha256").update(`${id}:${code}`).digest();
}

const emailKey = (email: string, ipAddress: string) => `${email} ${addressBudgetKey(ipAddress)}`;

/**
 * Queues the code to the contact in the caller's transaction. The one place that picks the channel:
 * an SMS channel (a phone contact) goes here beside the e-mail.
 */
export async function sendSignInCode(tx: Executor, contact: SignInContact, code: string, now: Date) {
  if (contact.kind === "phone") {
    await tx.insert(emailOutbox).values({
      kind: "customer-sign-in-code",
      channel: "sms",
      toAddress: contact.phone,
      subject: "",
      textBody: `${config().STORE_NAME}: your sign-in code is ${code}. It works for ${CODE_VALID_MINUTES} minutes.`,
      htmlBody: "",
      createdAt: now,
      nextAttemptAt: now,
    });
    return;
  }
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

/**
 * Sends a new code to `email`, or to `phone` (E.164; the caller checks that SMS is configured),
 * replacing an open one. The answer never says whether an account exists.
 */
export async function requestSignInCode(
  input: ({ email: string; phone?: undefined } | { phone: string; email?: undefined }) & {
    ipAddress: string;
    now?: Date;
  },
): Promise<CodeRequestResult> {
  const now = input.now ?? new Date();
  const contact: SignInContact =
    input.phone !== undefined
      ? { kind: "phone", phone: input.phone }
      : { kind: "email", address: input.email };
  const key = contactKey(contact);
  const byAddress = await consumeBudget("customerCodeAddress", input.ipAddress);
  if (!byAddress.ok) return { ok: false, retryAfterSeconds: byAddress.retryAfterSeconds };
  const byEmail = await consumeBudget("customerCodeEmail", emailKey(key, input.ipAddress));
  if (!byEmail.ok) return { ok: false, retryAfterSeconds: byEmail.retryAfterSeconds };
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const database = await db();
  await database.transaction(async (tx) => {
    await tx.delete(customerSignInCodes).where(lt(customerSignInCodes.expiresAt, now));
    const id = crypto.randomUUID();
    const values = {
      id,
      email: key,
      codeHash: codeHash(id, code).toString("hex"),
      attempts: 0,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CODE_VALID_MINUTES * 60_000),
    };
    await tx
      .insert(customerSignInCodes)
      .values(values)
      .onConflictDoUpdate({ target: customerSignInCodes.email, set: values });
    await sendSignInCode(tx, contact, code, now);
  });
  wakeEmailWorker();
  return { ok: true };
}

export type CodeCheckResult =
  | { ok: true; customerId: string; token: string; joinedOrders: number; created: boolean }
  | { ok: false; reason: "expired" }
  | { ok: false; reason: "wrong"; attemptsLeft: number }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number }
  /** A right code for a phone no account has as its verified phone: sign in with the e-mail first. */
  | { ok: false; reason: "no-account" };

/**
 * Checks a code; the right one signs in (and, for an e-mail address, makes the account at the
 * first sign-in). Give `email` or `phone`, as the code was asked for.
 */
export async function checkSignInCode(input: {
  email?: string;
  phone?: string;
  code: string;
  ipAddress: string;
  userAgent?: string;
  previousToken?: string;
  now?: Date;
}): Promise<CodeCheckResult> {
  const now = input.now ?? new Date();
  const key = input.phone ?? input.email;
  if (!key) return { ok: false, reason: "expired" };
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
        eq(customerSignInCodes.email, key),
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
    if (input.phone !== undefined) {
      const customerId = await accountOfPhone(tx, input.phone);
      if (!customerId) return "no-account" as const;
      const [account] = await tx
        .select({ email: customers.email })
        .from(customers)
        .where(eq(customers.id, customerId));
      const joinedOrders = await joinGuestOrders(tx, customerId, account?.email ?? "");
      const token = await createCustomerSession(tx, customerId, {
        previousToken: input.previousToken,
        userAgent: input.userAgent,
        now,
      });
      return { customerId, token, joinedOrders, created: false };
    }
    const email = input.email as string;
    const inserted = await tx
      .insert(customers)
      .values({ email, emailVerifiedAt: now, createdAt: now, updatedAt: now })
      .onConflictDoNothing({ target: customers.email })
      .returning({ id: customers.id });
    let customerId = inserted[0]?.id;
    if (!customerId) {
      const [existing] = await tx
        .select({ id: customers.id })
        .from(customers)
        .where(eq(customers.email, email));
      customerId = existing?.id as string;
    }
    const joinedOrders = await joinGuestOrders(tx, customerId, email);
    const token = await createCustomerSession(tx, customerId, {
      previousToken: input.previousToken,
      userAgent: input.userAgent,
      now,
    });
    return { customerId, token, joinedOrders, created: inserted.length > 0 };
  });
  if (!outcome) return { ok: false, reason: "expired" };
  await refundBudget("customerCodeAddress", input.ipAddress);
  await resetBudget("customerCodeEmail", emailKey(key, input.ipAddress));
  if (outcome === "no-account") return { ok: false, reason: "no-account" };
  return { ok: true, ...outcome };
}

/**
 * Orders placed with a verified e-mail address join its account (record 053): at every sign-in (the
 * code proves the address; a passkey or the phone signs in to the account that proved it), and
 * before the account's data is exported or deleted; never for an address only typed at checkout or
 * asked a code for. Page reads join nothing.
 */
export async function joinGuestOrders(executor: Executor, customerId: string, email: string) {
  const joined = await executor
    .update(orders)
    .set({ customerId })
    .where(and(sql`lower(${orders.userEmail}) = ${email}`, isNull(orders.customerId)))
    .returning({ id: orders.id });
  return joined.length;
}

/**
 * The account a proved phone signs in to (record 053): the one whose contact phone it is and which
 * has had an order delivered to that phone (a phone typed under contact details alone proves
 * nothing). None, or more than one: null, and the customer signs in with the e-mail address.
 */
export async function accountOfPhone(executor: Executor, phone: string) {
  const rows = await executor
    .select({ id: customers.id })
    .from(customers)
    .where(
      and(
        eq(customers.phone, phone),
        sql`exists (select 1 from ${orders} where ${orders.phone} = ${phone} and ${orders.status} = 'delivered' and (${or(
          eq(orders.customerId, customers.id),
          sql`lower(${orders.userEmail}) = ${customers.email}`,
        )}))`,
      ),
    )
    .limit(2);
  return rows.length === 1 ? (rows[0]?.id ?? null) : null;
}
