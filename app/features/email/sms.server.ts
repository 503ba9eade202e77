/**
 * The outbox's SMS channel (P-37, record 054): texts go out through Twilio's Messages API, one
 * outbox row each, claimed, leased, retried and marked sent exactly like e-mails. STOP and HELP
 * come back through Twilio's incoming-message webhook, whose signature is checked here.
 *
 * Both go through the `twilio` library, loaded only once texts are configured: a shop without
 * texts never loads it, and a shop with them loads it at its first text or webhook call, not at
 * start-up (record 054).
 */
import { eq } from "drizzle-orm";
import type { Twilio } from "twilio";
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

/** The library, loaded on first use (its REST client, axios and the rest weigh on start-up). */
function twilioLibrary() {
  return import("twilio").then((module) => module.default);
}

/** A Twilio client; its REST domain is pointed at `apiUrl` (the stand-in in tests). */
async function twilioClient(settings: TwilioSettings, timeoutMs: number): Promise<Twilio> {
  const twilio = await twilioLibrary();
  // The outbox retries with its own backoff (record 016); the library's retries would stack on it.
  const client = twilio(settings.accountSid, settings.authToken, { timeout: timeoutMs, autoRetry: false });
  // Every REST call is built from its domain's baseUrl; region and edge (TWILIO_REGION and
  // TWILIO_EDGE, which the library reads from the environment) only rename a twilio.com host.
  client.api.baseUrl = settings.apiUrl;
  return client;
}

/** Texts through Twilio's Messages API, with the library's `messages.create`. */
export function twilioTransport(
  settings: TwilioSettings,
  options: { timeoutMs?: number } = {},
): TextTransport {
  let client: Promise<Twilio> | undefined;
  return {
    name: "twilio",
    async send(text) {
      client ??= twilioClient(settings, options.timeoutMs ?? 20_000);
      const sender = settings.from.startsWith("MG")
        ? { messagingServiceSid: settings.from }
        : { from: settings.from };
      try {
        await (await client).messages.create({ to: text.to, body: text.body, ...sender });
      } catch (error) {
        // Anything but Twilio's own answer (no connection, a timeout) is worth another attempt.
        const { RestException } = await twilioLibrary();
        if (!(error instanceof RestException)) throw error;
        const message = `Twilio answered ${error.status}${error.code ? ` (${error.code})` : ""}: ${error.message}`;
        // 4xx other than 429 is about this text (a bad or unsubscribed number): sending it again is no use.
        if (error.status >= 400 && error.status < 500 && error.status !== 429) {
          throw new Undeliverable(message);
        }
        throw new Error(message);
      }
    },
  };
}

export function configuredTextTransport(): TextTransport | null {
  const settings = configuredTwilio();
  return settings ? twilioTransport(settings) : null;
}

/**
 * Whether a webhook call carries Twilio's signature (`X-Twilio-Signature`) for `url` and its
 * POST parameters, made with the auth token; the library's `validateRequest` checks it.
 */
export async function validTwilioSignature(
  authToken: string,
  signature: string | null,
  url: string,
  params: Record<string, string>,
) {
  if (!signature) return false;
  const twilio = await twilioLibrary();
  return twilio.validateRequest(authToken, signature, url, params);
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
