import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { emailOutbox, smsOptOuts } from "#app/db/schema.ts";
import { placeOrder } from "#app/features/checkout/place-order.server.ts";
import { setOrderStatus } from "#app/features/orders/admin-orders.server.ts";
import { action as incomingSms } from "#app/routes/resources/sms-incoming.ts";
import { config } from "#app/utils/env.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import {
  insertTestProduct,
  MONDAY_MORNING,
  oneOf,
  placeOrderInput,
} from "#tests/support/checkout-test-helpers.server.ts";
import { twilioSignature } from "#tests/support/loopback-twilio.ts";
import {
  loopbackTwilioForTests,
  sendOutbox,
  TWILIO_FROM,
} from "#tests/support/loopback-twilio-setup.server.ts";

const ACCOUNT_SID = `AC${"0123456789abcdef".repeat(2)}`;
const AUTH_TOKEN = "loopback-auth-token-0123456789";

const twilio = loopbackTwilioForTests(ACCOUNT_SID, AUTH_TOKEN);

let phoneCounter = 10;
/** A number of its own for each test and database (the open-orders limit counts per phone). */
function newPhone() {
  phoneCounter += 1;
  return `+120255501${String(phoneCounter).padStart(2, "0")}`;
}

/** Twilio's webhook call for a text `body` from `from`, signed with `token`. */
function webhookCall(from: string, body: string, token = AUTH_TOKEN) {
  const params = { AccountSid: ACCOUNT_SID, From: from, To: TWILIO_FROM, Body: body, MessageSid: "SM1" };
  const url = `${config().publicUrl}/api/sms/incoming`;
  return new Request(url, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-twilio-signature": twilioSignature(token, url, params),
    },
    body: new URLSearchParams(params),
  });
}

// biome-ignore lint/suspicious/noExplicitAny: the route's args beyond the request are not read.
const callWebhook = (request: Request) => incomingSms({ request } as any) as Promise<Response>;

describeEachDatabase("SMS updates through the outbox", (database) => {
  const sendAll = (now?: Date) => sendOutbox("/tmp/cg-sms-test-outbox", now);

  /** An order to `phone` from a shopper who ticked 'Text me updates' (unless `smsOptIn` says not). */
  async function placeOrderTo(phone: string, fields: { smsOptIn?: boolean; timeSlot?: string } = {}) {
    const product = await insertTestProduct(database().db, { priceCents: 9000 });
    const placed = await placeOrder(placeOrderInput(oneOf(product), { phone, smsOptIn: true, ...fields }), {
      now: MONDAY_MORNING,
    });
    if (!placed.ok) throw new Error(`not placed: ${placed.reason}`);
    return placed.order;
  }

  /** The order's rows of the outbox's SMS channel. */
  const textRowsOf = (orderId: string) =>
    database()
      .db.select()
      .from(emailOutbox)
      .where(eq(emailOutbox.orderId, orderId))
      .then((rows) => rows.filter((row) => row.channel === "sms"));

  /** One pass of the outbox while the stand-in answers every text with `status`. */
  async function sendAllWhileTwilioAnswers(status: number) {
    twilio().failWith = status;
    try {
      await sendAll();
    } finally {
      twilio().failWith = null;
    }
  }

  const textsTo = (phone: string) => twilio().received.filter((text) => text.to === phone);

  it("texts a shopper who opted in once, through Twilio's Messages API, and never twice", async () => {
    const phone = newPhone();
    const order = await placeOrderTo(phone, { timeSlot: "2:00 PM-4:00 PM" });
    const before = twilio().received.length;
    await sendAll();
    await sendAll();
    const mine = twilio()
      .received.slice(before)
      .filter((text) => text.to === phone);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.from).toBe(TWILIO_FROM);
    // Sent by the twilio library's client (its User-Agent), pointed at the stand-in by TWILIO_API_URL.
    expect(mine[0]?.userAgent).toMatch(/^twilio-node\/6\./);
    expect(mine[0]?.body).toMatch(/^Capital Grown: we got order [0-9A-F]{8} for .*, 2–4 PM\. .*Reply STOP/);
    const [row] = await textRowsOf(order.id);
    expect(row).toMatchObject({ status: "sent", sentVia: "twilio", toAddress: phone, attempts: 1 });

    await setOrderStatus(order.id, "confirmed");
    await setOrderStatus(order.id, "out_for_delivery");
    await sendAll();
    const after = twilio()
      .received.slice(before)
      .filter((text) => text.to === phone);
    // Confirmed goes by e-mail only; on the way comes as a text, in the spec's words.
    expect(after.map((text) => text.body)).toEqual([
      mine[0]?.body,
      "Capital Grown: Your driver is on the way — arriving 2–4 PM.",
    ]);
  });

  it("sends no text to a shopper who did not tick the box", async () => {
    const phone = newPhone();
    await placeOrderTo(phone, { smsOptIn: false });
    await sendAll();
    expect(textsTo(phone)).toEqual([]);
  });

  it("after a STOP through the signed webhook, the next text is not sent", async () => {
    const phone = newPhone();
    const order = await placeOrderTo(phone);
    await sendAll();
    expect(textsTo(phone)).toHaveLength(1);

    const answer = await callWebhook(webhookCall(phone, " stop "));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("text/xml");
    expect(await answer.text()).toContain("you will get no more texts from us");

    await setOrderStatus(order.id, "cancelled", { cancelReason: "Out of stock" });
    const result = await sendAll();
    expect(result.failed).toBeGreaterThanOrEqual(1);
    expect(textsTo(phone)).toHaveLength(1);
    const texts = await textRowsOf(order.id);
    expect(texts.find((row) => row.kind === "sms-order-cancelled")).toMatchObject({
      status: "failed",
      lastError: "The number replied STOP",
    });

    // START lets texts through again.
    expect((await callWebhook(webhookCall(phone, "START"))).status).toBe(200);
    const left = await database().db.select().from(smsOptOuts).where(eq(smsOptOuts.phone, phone));
    expect(left).toEqual([]);
  });

  it("refuses a webhook call whose signature was not made with the auth token", async () => {
    const phone = newPhone();
    const forged = await callWebhook(webhookCall(phone, "STOP", "not-the-auth-token-0123456789"));
    expect(forged.status).toBe(403);
    // A signature made for other parameters does not carry over either.
    const tampered = webhookCall(phone, "HELP");
    const body = new URLSearchParams(await tampered.text());
    body.set("Body", "STOP");
    const moved = await callWebhook(
      new Request(tampered.url, { method: "POST", headers: tampered.headers, body }),
    );
    expect(moved.status).toBe(403);
    const rows = await database().db.select().from(smsOptOuts).where(eq(smsOptOuts.phone, phone));
    expect(rows).toEqual([]);
    const help = await callWebhook(webhookCall(phone, "HELP"));
    expect(await help.text()).toContain("Call (202) 555-0142 for help");
  });

  it("gives a text up at once when Twilio refuses the number (a 4xx other than 429)", async () => {
    const order = await placeOrderTo(newPhone());
    await sendAllWhileTwilioAnswers(400);
    const [given] = await textRowsOf(order.id);
    expect(given).toMatchObject({ status: "failed", attempts: 1 });
    expect(given?.lastError).toContain("Twilio answered 400 (20500)");
  });

  it("retries a text Twilio could not take now, like a mail", async () => {
    const phone = newPhone();
    const order = await placeOrderTo(phone);
    await sendAllWhileTwilioAnswers(503);
    const [queued] = await textRowsOf(order.id);
    expect(queued).toMatchObject({ status: "queued", attempts: 1 });
    expect(queued?.lastError).toContain("Twilio answered 503");
    await sendAll(new Date(Date.now() + 10 * 60_000));
    expect(textsTo(phone)).toHaveLength(1);
  });
});
