/**
 * The code before an order (P-36, record 054). When the Limits setting asks for it, the checkout
 * sends a 6-digit code to the order's phone by SMS (or, without SMS, to its e-mail) and places the
 * order only with it: 5 tries, 10 minutes, codes sent within the address's and the contact's hourly
 * budgets. A contact verified on a device stays so there for 30 days (a signed cookie holding a
 * keyed hash of the contact, never the contact itself).
 */
import { createHash, createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { createCookie } from "react-router";
import { db, type Executor } from "#app/db/client.server.ts";
import { contactVerifications, emailOutbox, orders } from "#app/db/schema.ts";
import { consumeBudget } from "#app/features/abuse/rate-limits.server.ts";
import type { AuditBy } from "#app/features/audit/audit.server.ts";
import { wakeEmailWorker } from "#app/features/email/email-outbox.server.ts";
import { smsConfigured } from "#app/features/email/sms.server.ts";
import { verificationCodeText } from "#app/features/orders/order-texts.ts";
import { readStoreSetting, saveStoreSetting } from "#app/features/settings/store-settings.server.ts";
import { cookieSecret } from "#app/utils/cookie-secret.server.ts";
import { config } from "#app/utils/env.server.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import { formatPhone } from "#app/utils/phone.ts";
import {
  CODE_LENGTH,
  CODE_MINUTES,
  CODE_TRIES,
  VERIFICATION_MODES,
  VERIFIED_DAYS,
  type VerificationMode,
} from "./contact-verification.ts";

export const VERIFICATION_SETTING_KEY = "contact-verification";

export async function readVerificationMode(executor?: Executor): Promise<VerificationMode> {
  const value = await readStoreSetting(VERIFICATION_SETTING_KEY, executor);
  return VERIFICATION_MODES.includes(value as VerificationMode) ? (value as VerificationMode) : "off";
}

/** Saved by the owner or a manager at Limits, audited with the value before and after. */
export async function saveVerificationMode(
  mode: VerificationMode,
  options: { audit?: AuditBy; now?: Date } = {},
) {
  await saveStoreSetting(VERIFICATION_SETTING_KEY, mode, {
    action: "settings.contact_verification_changed",
    before: async (tx) => readVerificationMode(tx),
    ...options,
  });
}

/** What a checkout is verified by: its phone when the shop sends texts, otherwise its e-mail. */
export type CheckoutContact = { contact: string; channel: "sms" | "email"; shownAs: string };

export function contactOf(order: { phone: string; email: string }): CheckoutContact {
  if (smsConfigured()) return { contact: order.phone, channel: "sms", shownAs: formatPhone(order.phone) };
  const email = order.email.trim().toLowerCase();
  return { contact: email, channel: "email", shownAs: email };
}

/** Whether this order needs a code under `mode` (before the device's cookie is considered). */
export async function codeRequired(mode: VerificationMode, phone: string, executor?: Executor) {
  if (mode === "off") return false;
  if (mode === "every-order") return true;
  // New customers: a phone that has had no order delivered yet.
  const database = executor ?? (await db());
  const [row] = await database
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        sql`regexp_replace(${orders.phone}, '\\D', '', 'g') = ${phone.replace(/\D/g, "")}`,
        eq(orders.status, "delivered"),
      ),
    )
    .limit(1);
  return row === undefined;
}

function codeHash(id: string, code: string) {
  return createHash("sha256").update(`${id}:${code}`).digest("hex");
}

export type CodeSent =
  | { ok: true; to: string; channel: "sms" | "email" }
  | { ok: false; retryAfterSeconds: number };

/**
 * Sends a new code to the checkout's contact, within the client address's and the contact's
 * hourly budgets. The code's row and its text (or e-mail) are written in one transaction; earlier
 * codes for the contact stop working.
 */
export async function sendCode(
  who: CheckoutContact,
  options: { clientAddress: string; now?: Date },
): Promise<CodeSent> {
  const now = options.now ?? new Date();
  for (const [name, key] of [
    ["contactCodes", options.clientAddress],
    ["contactCodesPerContact", `contact:${who.contact}`],
  ] as const) {
    const budget = await consumeBudget(name, key);
    if (!budget.ok) return { ok: false, retryAfterSeconds: budget.retryAfterSeconds };
  }
  const code = String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, "0");
  const id = crypto.randomUUID();
  const store = config().STORE_NAME;
  const text = verificationCodeText(store, code);
  const database = await db();
  await database.transaction(async (tx) => {
    await tx
      .update(contactVerifications)
      .set({ expiresAt: now })
      .where(and(eq(contactVerifications.contact, who.contact), gt(contactVerifications.expiresAt, now)));
    await tx.insert(contactVerifications).values({
      id,
      contact: who.contact,
      channel: who.channel,
      codeHash: codeHash(id, code),
      expiresAt: new Date(now.getTime() + CODE_MINUTES * 60_000),
      createdAt: now,
    });
    await tx.insert(emailOutbox).values({
      kind: "checkout-code",
      channel: who.channel,
      toAddress: who.contact,
      subject: who.channel === "email" ? `${store}: your code is ${code}` : "",
      textBody: text,
      htmlBody: who.channel === "email" ? `<p>${escapeHtml(text)}</p>` : "",
      nextAttemptAt: now,
      createdAt: now,
    });
  });
  wakeEmailWorker();
  return { ok: true, to: who.shownAs, channel: who.channel };
}

function escapeHtml(text: string) {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export type CodeCheck =
  | { ok: true }
  | { ok: false; problem: "wrong"; triesLeft: number }
  | { ok: false; problem: "used" | "expired" };

/**
 * Checks `code` against the contact's live code. Each wrong try is counted under the row's lock
 * (one statement), so parallel guesses cannot get past the 5 tries.
 */
export async function checkCode(
  contact: string,
  code: string,
  options: { now?: Date } = {},
): Promise<CodeCheck> {
  const now = options.now ?? new Date();
  const database = await db();
  const [live] = await database
    .select()
    .from(contactVerifications)
    .where(
      and(
        eq(contactVerifications.contact, contact),
        gt(contactVerifications.expiresAt, now),
        isNull(contactVerifications.verifiedAt),
      ),
    )
    .orderBy(desc(contactVerifications.createdAt))
    .limit(1);
  if (!live) return { ok: false, problem: "expired" };
  const [tried] = await database
    .update(contactVerifications)
    .set({ attempts: sql`${contactVerifications.attempts} + 1` })
    .where(and(eq(contactVerifications.id, live.id), lt(contactVerifications.attempts, CODE_TRIES)))
    .returning({ attempts: contactVerifications.attempts });
  if (!tried) return { ok: false, problem: "used" };
  const expected = Buffer.from(live.codeHash);
  const given = Buffer.from(codeHash(live.id, code));
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    const triesLeft = CODE_TRIES - tried.attempts;
    return triesLeft > 0 ? { ok: false, problem: "wrong", triesLeft } : { ok: false, problem: "used" };
  }
  const [verified] = await database
    .update(contactVerifications)
    .set({ verifiedAt: now })
    .where(and(eq(contactVerifications.id, live.id), isNull(contactVerifications.verifiedAt)))
    .returning({ id: contactVerifications.id });
  return verified ? { ok: true } : { ok: false, problem: "expired" };
}

/** Codes are kept a day after they expire (a shopper's question about one), then deleted. */
export async function deleteOldCodes(now = new Date()) {
  const database = await db();
  await database
    .delete(contactVerifications)
    .where(lt(contactVerifications.expiresAt, new Date(now.getTime() - 24 * 60 * 60_000)));
}

/** Deletes old codes every hour (an idempotent delete: every instance may run it). */
export function startOldCodesJob(intervalMs = 60 * 60_000) {
  const run = () =>
    deleteOldCodes().catch((error: unknown) =>
      log.warn("Could not delete old checkout codes", { error: errorMessage(error) }),
    );
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** The device's verified contacts: keyed hashes with their expiry, newest first, at most 5. */
type VerifiedEntry = { h: string; e: number };
const MAX_VERIFIED_ON_DEVICE = 5;

function contactKey(contact: string) {
  return createHmac("sha256", cookieSecret())
    .update(`verified-contact:${contact}`)
    .digest("base64url")
    .slice(0, 32);
}

let verifiedCookie: ReturnType<typeof createCookie> | undefined;

function cookie() {
  verifiedCookie ??= createCookie("cg_verified", {
    // "/": the page posts to /checkout.data, which a cookie on "/checkout" would not reach.
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: config().secureCookies,
    maxAge: VERIFIED_DAYS * 24 * 60 * 60,
    secrets: [cookieSecret()],
  });
  return verifiedCookie;
}

async function entriesOf(cookieHeader: string | null): Promise<VerifiedEntry[]> {
  const value = (await cookie()
    .parse(cookieHeader)
    .catch(() => null)) as unknown;
  if (!Array.isArray(value)) return [];
  return value.filter(
    (entry): entry is VerifiedEntry =>
      typeof entry === "object" &&
      entry !== null &&
      typeof entry.h === "string" &&
      typeof entry.e === "number",
  );
}

/** Whether `contact` was verified on this device (its cookie) in the last 30 days. */
export async function verifiedOnDevice(cookieHeader: string | null, contact: string, now = new Date()) {
  const key = contactKey(contact);
  return (await entriesOf(cookieHeader)).some((entry) => entry.h === key && entry.e > now.getTime());
}

/** The Set-Cookie value that adds `contact` to the device's verified contacts for 30 days. */
export async function rememberVerified(cookieHeader: string | null, contact: string, now = new Date()) {
  const key = contactKey(contact);
  const kept = (await entriesOf(cookieHeader)).filter((entry) => entry.h !== key && entry.e > now.getTime());
  const entries = [{ h: key, e: now.getTime() + VERIFIED_DAYS * 24 * 60 * 60_000 }, ...kept].slice(
    0,
    MAX_VERIFIED_ON_DEVICE,
  );
  return cookie().serialize(entries);
}
