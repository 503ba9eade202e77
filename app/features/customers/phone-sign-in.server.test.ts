/**
 * Signing in with a phone (record 053): when the shop sends texts, a phone gets its 6-digit code
 * by text through the outbox's SMS channel (received here by the loopback Twilio), with the
 * e-mail's tries and validity, and signs in only to the account whose phone it is and which has
 * had an order to that phone delivered.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { customers, emailOutbox, orders } from "#app/db/schema.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { wrongCodeFor } from "#tests/support/customer-accounts.ts";
import { loopbackTwilioForTests, sendOutbox } from "#tests/support/loopback-twilio-setup.server.ts";
import { insertOrderRow } from "#tests/support/order-rows.ts";
import { findCustomerSession } from "./customer-sessions.server.ts";
import { checkSignInCode, MAX_CODE_TRIES, requestSignInCode } from "./sign-in.server.ts";

const ACCOUNT_SID = `AC${"fedcba9876543210".repeat(2)}`;
const AUTH_TOKEN = "loopback-auth-token-phone-sign-in";

const twilio = loopbackTwilioForTests(ACCOUNT_SID, AUTH_TOKEN);

let count = 0;
const nextAddress = () => `10.31.${Math.floor(++count / 200)}.${count % 200}`;
const newPhone = () => `+1202555${String(2000 + ++count).padStart(4, "0")}`;

describeEachDatabase("signing in with a phone", (database) => {
  const sendAll = () => sendOutbox("/tmp/cg-phone-sign-in-outbox");

  /** The code in the last text the loopback Twilio received for `phone`. */
  async function codeTextedTo(phone: string) {
    await sendAll();
    const texts = twilio().received.filter((text) => text.to === phone);
    const code = /\b(\d{6})\b/.exec(texts.at(-1)?.body ?? "")?.[1];
    if (!code) throw new Error(`no code texted to ${phone}`);
    return { code, texts: texts.length };
  }

  /** An account with `phone` as its contact phone, and (unless told) an order to it delivered. */
  async function accountWithPhone(phone: string, delivered = true) {
    const { db } = database();
    const email = `phone-${randomUUID().slice(0, 8)}@example.com`;
    const [account] = await db
      .insert(customers)
      .values({ email, phone, emailVerifiedAt: new Date() })
      .returning({ id: customers.id });
    if (!account) throw new Error("no account");
    const order = await insertOrderRow(db, {
      customerName: "Pat Phone",
      deliveryDate: "2026-11-02",
      status: delivered ? "delivered" : "confirmed",
      idPhotoId: null,
    });
    await db.update(orders).set({ phone, customerId: account.id }).where(eq(orders.id, order.id));
    return { id: account.id, email };
  }

  it("texts the code once through Twilio and signs in to the account whose verified phone it is", async () => {
    const phone = newPhone();
    const account = await accountWithPhone(phone);
    const ipAddress = nextAddress();
    expect(await requestSignInCode({ phone, ipAddress })).toEqual({ ok: true });
    const { code, texts } = await codeTextedTo(phone);
    await sendAll();
    expect(twilio().received.filter((text) => text.to === phone)).toHaveLength(texts);
    expect(texts).toBe(1);
    expect(twilio().received.filter((text) => text.to === phone)[0]?.body).toBe(
      `Capital Grown: your sign-in code is ${code}. It works for 10 minutes.`,
    );
    // Through the SMS channel, never an e-mail to the phone.
    const rows = await database()
      .db.select({ channel: emailOutbox.channel, status: emailOutbox.status })
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, phone));
    expect(rows).toEqual([{ channel: "sms", status: "sent" }]);

    const wrong = wrongCodeFor(code);
    expect(await checkSignInCode({ phone, code: wrong, ipAddress })).toEqual({
      ok: false,
      reason: "wrong",
      attemptsLeft: MAX_CODE_TRIES - 1,
    });
    const right = await checkSignInCode({ phone, code, ipAddress });
    if (!right.ok) throw new Error(`not signed in: ${right.reason}`);
    expect(right).toMatchObject({ customerId: account.id, created: false });
    expect((await findCustomerSession(database().db, right.token))?.email).toBe(account.email);
    // Used once.
    expect(await checkSignInCode({ phone, code, ipAddress })).toEqual({ ok: false, reason: "expired" });
  });

  it("ends a phone's code after 5 tries, and after 10 minutes", async () => {
    const phone = newPhone();
    await accountWithPhone(phone);
    const ipAddress = nextAddress();
    await requestSignInCode({ phone, ipAddress });
    const { code } = await codeTextedTo(phone);
    const wrong = wrongCodeFor(code);
    const answers = await Promise.all(
      Array.from({ length: 7 }, () => checkSignInCode({ phone, code: wrong, ipAddress })),
    );
    expect(answers.filter((answer) => !answer.ok && answer.reason === "wrong")).toHaveLength(
      MAX_CODE_TRIES - 1,
    );
    expect(await checkSignInCode({ phone, code, ipAddress })).toEqual({ ok: false, reason: "expired" });

    const sentAt = new Date(Date.now() - 11 * 60_000);
    await requestSignInCode({ phone, ipAddress: nextAddress(), now: sentAt });
    const late = await codeTextedTo(phone);
    expect(await checkSignInCode({ phone, code: late.code, ipAddress: nextAddress() })).toEqual({
      ok: false,
      reason: "expired",
    });
  });

  it("makes no account for a phone: a phone no account has proved asks for the e-mail first", async () => {
    const { db } = database();
    // A phone only typed under contact details, with no order delivered to it, proves nothing.
    const typedOnly = newPhone();
    const account = await accountWithPhone(typedOnly, false);
    const stranger = newPhone();
    for (const phone of [typedOnly, stranger]) {
      const ipAddress = nextAddress();
      await requestSignInCode({ phone, ipAddress });
      const { code } = await codeTextedTo(phone);
      expect(await checkSignInCode({ phone, code, ipAddress })).toEqual({ ok: false, reason: "no-account" });
      // The right code is spent all the same.
      expect(await checkSignInCode({ phone, code, ipAddress })).toEqual({ ok: false, reason: "expired" });
    }
    expect(
      await db.select({ id: customers.id }).from(customers).where(eq(customers.phone, stranger)),
    ).toEqual([]);
    expect(
      await db.select({ id: customers.id }).from(customers).where(eq(customers.phone, typedOnly)),
    ).toEqual([{ id: account.id }]);
  });

  it("spends the phone's code budget like an e-mail's", async () => {
    const phone = newPhone();
    const ipAddress = nextAddress();
    const answers = [];
    for (let index = 0; index < 12; index += 1) answers.push(await requestSignInCode({ phone, ipAddress }));
    expect(answers.some((answer) => !answer.ok)).toBe(true);
  });
});
