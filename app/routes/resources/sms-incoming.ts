import {
  configuredTwilio,
  handleIncomingText,
  twimlReply,
  validTwilioSignature,
} from "#app/features/email/sms.server.ts";
import { config } from "#app/utils/env.server.ts";
import { log } from "#app/utils/logger.server.ts";
import { normalizePhone } from "#app/utils/phone.server.ts";
import type { Route } from "./+types/sms-incoming";

/** The path Twilio's incoming-message webhook is pointed at (README, record 054). */
export const SMS_WEBHOOK_PATH = "/api/sms/incoming";

const MAX_BODY_BYTES = 16 * 1024;

/**
 * Twilio's webhook for texts sent to the shop's number (P-37): STOP silences the sender, START lets
 * texts through again, HELP gets the shop's phone. Only a request signed with the auth token counts;
 * the signature covers the public URL Twilio called and every parameter.
 */
export async function action({ request }: Route.ActionArgs) {
  const twilio = configuredTwilio();
  if (!twilio) return new Response("Not found", { status: 404 });
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > MAX_BODY_BYTES) return new Response("Too large", { status: 413 });
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) return new Response("Too large", { status: 413 });
  const params = Object.fromEntries(new URLSearchParams(text));
  const url = `${config().publicUrl}${SMS_WEBHOOK_PATH}`;
  if (
    !(await validTwilioSignature(twilio.authToken, request.headers.get("x-twilio-signature"), url, params))
  ) {
    log.warn("Refused an SMS webhook call without a valid Twilio signature");
    return new Response("Forbidden", { status: 403 });
  }
  const phone = normalizePhone(params.From ?? "");
  const answer = phone ? await handleIncomingText(phone, params.Body ?? "") : { kind: "other", reply: null };
  if (answer.kind !== "other") log.info("SMS reply recorded", { kind: answer.kind });
  return new Response(twimlReply(answer.reply), {
    headers: { "Content-Type": "text/xml; charset=utf-8", "Cache-Control": "no-store" },
  });
}

export function loader() {
  return new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });
}
