import { processEmailBatch, smtpTransport } from "#app/features/email/email-outbox.server.ts";
import { type ReceivedMail, startLoopbackSmtp } from "./loopback-smtp.ts";

/** The text of every part of a received MIME message (each part is UTF-8 in base64, mime.server.ts). */
export function decodedParts(raw: string) {
  return [...raw.matchAll(/Content-Transfer-Encoding: base64\r?\n\r?\n([A-Za-z0-9+/=\r\n]+)/g)]
    .map((part) => Buffer.from((part[1] as string).replace(/\s/g, ""), "base64").toString("utf8"))
    .join("\n");
}

export const INVITATION_TOKEN = /\/admin\/invitation\/([\w-]{43})/;

/**
 * Sends the queued mail over real SMTP to a loopback server and returns what arrived: the only
 * place an invitation's link exists once it is queued (record 036).
 */
export async function sendQueuedMail(): Promise<ReceivedMail[]> {
  const smtp = await startLoopbackSmtp();
  const transport = smtpTransport(`smtp://127.0.0.1:${smtp.port}`);
  try {
    for (let round = 0; round < 20; round += 1) {
      const result = await processEmailBatch({ transport, limit: 50, leaseMs: 60_000 });
      if (result.sent + result.retried + result.failed === 0) break;
    }
  } finally {
    transport.close();
    await smtp.close();
  }
  return smtp.received;
}

/** The invitation tokens e-mailed to `address` in `mails`, oldest first. */
export function invitationTokens(mails: ReceivedMail[], address: string) {
  return mails
    .filter((mail) => mail.to.includes(address))
    .map((mail) => INVITATION_TOKEN.exec(decodedParts(mail.raw))?.[1])
    .filter((token): token is string => Boolean(token));
}
