/**
 * The loopback Twilio for a Vitest file that sends texts through the outbox's SMS channel
 * (record 054). Apart from `loopback-twilio.ts`, which the Playwright stories import too.
 */
import { afterAll, beforeAll } from "vitest";
import { folderTransport, processEmailBatch } from "#app/features/email/email-outbox.server.ts";
import { configuredTwilio, twilioTransport } from "#app/features/email/sms.server.ts";
import { type LoopbackTwilio, startLoopbackTwilio } from "./loopback-twilio.ts";

export const TWILIO_FROM = "+12025550100";

/**
 * Runs the stand-in for the file's tests and points the shop's own TWILIO_* settings at it, as an
 * operator sets them. The returned function gives the stand-in once `beforeAll` has run.
 */
export function loopbackTwilioForTests(accountSid: string, authToken: string): () => LoopbackTwilio {
  let twilio: LoopbackTwilio | undefined;
  beforeAll(async () => {
    twilio = await startLoopbackTwilio(accountSid, authToken);
    process.env.TWILIO_ACCOUNT_SID = accountSid;
    process.env.TWILIO_AUTH_TOKEN = authToken;
    process.env.TWILIO_FROM = TWILIO_FROM;
    process.env.TWILIO_API_URL = twilio.url;
  });
  afterAll(async () => {
    await twilio?.close();
  });
  return () => {
    if (!twilio) throw new Error("the loopback Twilio is not started yet");
    return twilio;
  };
}

/** One pass of the outbox worker: e-mails into `outboxFolder`, texts through the configured Twilio. */
export function sendOutbox(outboxFolder: string, now?: Date) {
  const settings = configuredTwilio();
  if (!settings) throw new Error("Twilio settings missing");
  return processEmailBatch({
    now,
    transport: folderTransport(outboxFolder),
    textTransport: twilioTransport(settings),
    limit: 100,
  });
}
