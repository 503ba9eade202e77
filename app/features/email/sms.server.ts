/**
 * The outbox's SMS channel (P-37, record 054): texts go out through Twilio's Messages API, one
 * outbox row each, claimed, leased, retried and marked sent exactly like e-mails. STOP and HELP
 * come back through Twilio's incoming-message webhook, whose signature is checked here.
 *
 * The `twilio` package is not among the project's dependencies: the one call it would make (a
 * form-encoded POST to Messages.json with basic auth) and its webhook check (HMAC-SHA1 of the URL
 * and the sorted parameters, as Twilio documents it) are written here instead.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import { smsOptOuts } from "#app/db/schema.ts";
import { config } from "#app/utils/env.server.ts";

/** Whether texts can be sent at all: all three Twilio settings are there. */
export function smsConfigured() {
  const { TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM } = config();
  return Boolean(TWILIO_ACCOUNT_SID && TWILIO_AUTH_TOKEN && TWILIO_FROM);
}

export type OutgoingText = { id: string; kind: string; to: string; body: string };

/** Where texts go: Twilio, or a stand-in in tests. */
export type TextTransport = { name: string; send(text: OutgoingText): Promise<void> };

/**
 * A refusal that another attempt cannot change (a number that cannot receive texts, a recipient
 * who replied STOP to Twilio itself): the outbox gives the row up at once.
 */
export class Undeliverable extends Error {}

export type TwilioSettings = { accountSid: string; authToken: string; from: string; apiUrl: string };

export function configuredTwilio(): TwilioSettings | null {
  const { TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM, TWILIO_API_URL } = config();
  if (!TWILIO_ACCOUNT_SID || !TWILIO_AUTH_TOKEN || !TWILIO_FROM) return null;
  return {
    accountSid: TWILIO_ACCOUNT_SID,
    authToken: TWILIO_AUTH_TOKEN,
    from: TWILIO_FROM,
    apiUrl: TWILIO_API_URL,
  };
}

/** Texts through Twilio's Messages API (`POST /2010-04-01/Accounts/{sid}/Messages.json`). */
export function twilioTransport(
  settings: TwilioSettings,
  options: { timeoutMs?: number } = {},
): TextTransport {
  const endpoint = new URL(
    `/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`,
    settings.apiUrl,
  );
  const authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString("base64")}`;
  return {
    name: "twilio",
    async send(text) {
      const form = new URLSearchParams({ To: text.to, Body: text.body });
      form.set(settings.from.startsWith("MG") ? "MessagingServiceSid" : "From", settings.from);
      const response = await fetch(endpoint, {
        method: "POST",
        headers: {
          authorization,
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
        },
        body: form,
        signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
      });
      if (response.ok) {
        await response.body?.cancel();
        return;
      }
      const answer = (await response.json().catch(() => ({}))) as { code?: number; message?: string };
      const message = `Twilio answered ${response.status}${answer.code ? ` (${answer.code})` : ""}: ${answer.message ?? response.statusText}`;
      // 4xx other than 429 is about this text (a bad or unsubscribed number): sending it again is no use.
      if (response.status >= 400 && response.status < 500 && response.status !== 429) {
        throw new Undeliverable(message);
      }
      throw new Error(message);
    },
  };
}

export function configuredTextTransport(): TextTransport | null {
  const settings = configuredTwilio();
  return settings ? twilioTransport(settings) : null;
}

/**
 * Twilio's request signature: HMAC-SHA1 with the auth token over the full URL it called followed
 * by each POST parameter's name and value, sorted by name; base64.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>) {
  const data = Object.keys(params)
    .sort()
    .reduce((text, key) => text + key + params[key], url);
  return createHmac("sha1", authToken).update(data, "utf8").digest("base64");
}

export function validTwilioSignature(
  authToken: string,
  signature: string | null,
  url: string,
  params: Record<string, string>,
) {
  if (!signature) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const STOP_WORDS = new Set(["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "OPTOUT"]);
const START_WORDS = new Set(["START", "UNSTOP", "YES", "OPTIN"]);
const HELP_WORDS = new Set(["HELP", "INFO"]);

export type SmsReplyKind = "stop" | "start" | "help" | "other";

export function smsReplyKind(body: string): SmsReplyKind {
  const word = body
    .trim()
    .toUpperCase()
    .replace(/[^A-Z]/g, "");
  if (STOP_WORDS.has(word)) return "stop";
  if (START_WORDS.has(word)) return "start";
  if (HELP_WORDS.has(word)) return "help";
  return "other";
}

/**
 * An incoming text from `phone` (E.164): STOP silences the number, START lets texts through again.
 * Returns the answer to send back, or null for none.
 */
export async function handleIncomingText(phone: string, body: string, now = new Date()) {
  const kind = smsReplyKind(body);
  const { STORE_NAME, STORE_PHONE } = config();
  const database = await db();
  if (kind === "stop") {
    await database
      .insert(smsOptOuts)
      .values({ phone, optedOutAt: now })
      .onConflictDoUpdate({ target: smsOptOuts.phone, set: { optedOutAt: now } });
    return {
      kind,
      reply: `${STORE_NAME}: you will get no more texts from us. Reply START to get them again.`,
    };
  }
  if (kind === "start") {
    await database.delete(smsOptOuts).where(eq(smsOptOuts.phone, phone));
    return { kind, reply: `${STORE_NAME}: texts about your orders are back on. Reply STOP to end them.` };
  }
  if (kind === "help") {
    return {
      kind,
      reply: `${STORE_NAME}: texts about your orders. Call ${STORE_PHONE} for help. Reply STOP to end them.`,
    };
  }
  return { kind, reply: null };
}

export async function isOptedOut(phone: string, executor?: Executor) {
  const database = executor ?? (await db());
  const [row] = await database
    .select({ phone: smsOptOuts.phone })
    .from(smsOptOuts)
    .where(eq(smsOptOuts.phone, phone))
    .limit(1);
  return row !== undefined;
}

/** The answer to Twilio's webhook: TwiML with at most one message. */
export function twimlReply(text: string | null) {
  const escaped = text?.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${escaped ? `<Message>${escaped}</Message>` : ""}</Response>`;
}
