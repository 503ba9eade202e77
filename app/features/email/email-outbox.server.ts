/**
 * The e-mail outbox (decision 12). Mails are queued in `email_outbox` inside the order
 * transaction, then a worker sends them: through SMTP when SMTP_URL is set, otherwise into
 * `DATA_DIR/outbox/` as .eml files. Rows are claimed with FOR UPDATE SKIP LOCKED and a lease, so
 * several app instances never send the same row at once; failures back off exponentially and a
 * mail server that is down only delays mail.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { and, asc, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import nodemailer from "nodemailer";
import { db } from "#app/db/client.server.ts";
import { emailOutbox } from "#app/db/schema.ts";
import { config } from "#app/utils/env.server.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import {
  customerConfirmationEmail,
  type OrderEmailData,
  type StoreEmailSettings,
  shopNotificationEmail,
} from "./order-emails.ts";

export const MAX_EMAIL_ATTEMPTS = 25;
const BASE_BACKOFF_MS = 30_000;
const MAX_BACKOFF_MS = 30 * 60_000;
/** A claimed row is someone's for this long; a crashed sender's rows come back after it. */
export const EMAIL_LEASE_MS = 2 * 60_000;

export function storeEmailSettings(): StoreEmailSettings {
  const { STORE_NAME, STORE_PHONE, STORE_EMAIL, publicUrl } = config();
  return { storeName: STORE_NAME, storePhone: STORE_PHONE, storeEmail: STORE_EMAIL, publicUrl };
}

/** Delay before attempt `attempts + 1`: 30 s, 1 min, 2 min … capped at 30 min. */
export function backoffMs(attempts: number) {
  return Math.min(BASE_BACKOFF_MS * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS);
}

export type OrderEmailRow = {
  kind: "order-confirmation" | "order-notification";
  toAddress: string;
  subject: string;
  textBody: string;
  htmlBody: string;
};

/** The customer confirmation and the shop notification of an order, ready to queue. */
export function orderEmailRows(
  data: OrderEmailData,
  options: { settings?: StoreEmailSettings; shopAddress?: string } = {},
): OrderEmailRow[] {
  const settings = options.settings ?? storeEmailSettings();
  const shopAddress = options.shopAddress ?? config().ordersEmail;
  const customer = customerConfirmationEmail(data, settings);
  const shop = shopNotificationEmail(data, settings);
  return [
    {
      kind: "order-confirmation",
      toAddress: data.userEmail,
      subject: customer.subject,
      textBody: customer.text,
      htmlBody: customer.html,
    },
    {
      kind: "order-notification",
      toAddress: shopAddress,
      subject: shop.subject,
      textBody: shop.text,
      htmlBody: shop.html,
    },
  ];
}

export type OutgoingMail = {
  id: string;
  kind: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
};

/** Where mail goes: an SMTP server, or a folder. `close` frees connections. */
export type MailTransport = { name: string; send(mail: OutgoingMail): Promise<void>; close(): void };

function messageId(id: string) {
  return `<${id}@capital-grown.outbox>`;
}

export function smtpTransport(url: string, options: { timeoutMs?: number } = {}): MailTransport {
  const timeout = options.timeoutMs ?? 20_000;
  const transporter = nodemailer.createTransport(url, {});
  transporter.options = {
    ...transporter.options,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout * 2,
  } as typeof transporter.options;
  return {
    name: "smtp",
    async send(mail) {
      await transporter.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: messageId(mail.id),
      });
    },
    close() {
      transporter.close();
    },
  };
}

/** Writes each mail as `<folder>/<id>.eml` (atomically; a resend overwrites, never duplicates). */
export function folderTransport(folder: string): MailTransport {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    name: "folder",
    async send(mail) {
      mkdirSync(folder, { recursive: true });
      const info = await composer.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: messageId(mail.id),
      });
      const file = path.join(folder, `${mail.id}.eml`);
      const temporary = `${file}.tmp`;
      writeFileSync(temporary, info.message as Buffer, { mode: 0o600 });
      renameSync(temporary, file);
    },
    close() {},
  };
}

export function outboxFolder() {
  return path.join(config().dataDir, "outbox");
}

export function configuredTransport(): MailTransport {
  const { SMTP_URL } = config();
  return SMTP_URL ? smtpTransport(SMTP_URL) : folderTransport(outboxFolder());
}

function fromAddress() {
  const { STORE_NAME, STORE_EMAIL } = config();
  return `"${STORE_NAME.replaceAll('"', "")}" <${STORE_EMAIL}>`;
}

/** Claims up to `limit` due rows (queued and due, or sending with an expired lease) for this sender. */
export async function claimDueEmails(options: { now: Date; limit?: number; leaseMs?: number }) {
  const database = await db();
  const leaseUntil = new Date(options.now.getTime() + (options.leaseMs ?? EMAIL_LEASE_MS));
  return database.transaction(async (tx) => {
    const due = await tx
      .select({ id: emailOutbox.id })
      .from(emailOutbox)
      .where(
        or(
          and(eq(emailOutbox.status, "queued"), lte(emailOutbox.nextAttemptAt, options.now)),
          and(eq(emailOutbox.status, "sending"), lt(emailOutbox.lockedUntil, options.now)),
        ),
      )
      .orderBy(asc(emailOutbox.nextAttemptAt))
      .limit(options.limit ?? 10)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(emailOutbox)
      .set({ status: "sending", lockedUntil: leaseUntil, attempts: sql`${emailOutbox.attempts} + 1` })
      .where(
        inArray(
          emailOutbox.id,
          due.map((row) => row.id),
        ),
      )
      .returning();
  });
}

export type BatchResult = { sent: number; retried: number; failed: number };

/** Claims due mail and tries each once. Returns what happened; never throws for a send failure. */
export async function processEmailBatch(options: {
  now?: Date;
  transport: MailTransport;
  limit?: number;
}): Promise<BatchResult> {
  const now = options.now ?? new Date();
  const database = await db();
  const claimed = await claimDueEmails({ now, limit: options.limit });
  const result: BatchResult = { sent: 0, retried: 0, failed: 0 };
  const from = fromAddress();
  // Marked sent in one statement after the batch: a crash before it re-sends this batch once its
  // lease is over (at least once, as a crash between a send and its own update always could).
  const sentIds: string[] = [];
  for (const row of claimed) {
    try {
      await options.transport.send({
        id: row.id,
        kind: row.kind,
        from,
        to: row.toAddress,
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody,
      });
      sentIds.push(row.id);
      result.sent += 1;
    } catch (error) {
      const message = errorMessage(error).slice(0, 500);
      const gaveUp = row.attempts >= MAX_EMAIL_ATTEMPTS;
      await database
        .update(emailOutbox)
        .set({
          status: gaveUp ? "failed" : "queued",
          lockedUntil: null,
          lastError: message,
          nextAttemptAt: new Date(now.getTime() + backoffMs(row.attempts)),
        })
        .where(eq(emailOutbox.id, row.id));
      if (gaveUp) {
        result.failed += 1;
        log.error("E-mail failed for good", {
          id: row.id,
          kind: row.kind,
          attempts: row.attempts,
          error: message,
        });
      } else {
        result.retried += 1;
        log.warn("E-mail not sent yet, will retry", {
          id: row.id,
          kind: row.kind,
          attempts: row.attempts,
          error: message,
        });
      }
    }
  }
  if (sentIds.length > 0) {
    await database
      .update(emailOutbox)
      .set({ status: "sent", sentAt: now, lockedUntil: null, lastError: null })
      .where(inArray(emailOutbox.id, sentIds));
  }
  return result;
}

let wake: (() => void) | undefined;

/** Tells this instance's worker that new mail is queued (others find it on their next poll). */
export function wakeEmailWorker() {
  wake?.();
}

/** Up to this many mails per claim. */
const WORKER_BATCH = 50;
/**
 * After an order the worker waits this long before claiming, so one claim serves a burst of orders
 * instead of one claim (a transaction of its own) per order.
 */
export const EMAIL_WAKE_DELAY_MS = 200;

/**
 * Sends queued mail until stopped: shortly after an order, and every `pollMs` otherwise. A full
 * batch is followed by the next at once; a partial one means the queue is drained.
 */
export function startEmailWorker(options: { pollMs?: number; transport?: MailTransport } = {}) {
  const transport = options.transport ?? configuredTransport();
  const pollMs = options.pollMs ?? 5_000;
  let stopped = false;
  let woken = false;
  let timer: NodeJS.Timeout | undefined;
  let sleeping: (() => void) | undefined;
  let sleepUntil = 0;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      sleeping = resolve;
      sleepUntil = Date.now() + ms;
      timer = setTimeout(resolve, ms);
    });
  const loop = (async () => {
    while (!stopped) {
      woken = false;
      let full = false;
      try {
        const result = await processEmailBatch({ transport, limit: WORKER_BATCH });
        full = result.sent + result.retried + result.failed >= WORKER_BATCH;
      } catch (error) {
        log.error("The e-mail worker could not read the outbox", { error: errorMessage(error) });
      }
      if (stopped) break;
      if (full) continue;
      // An order queued mail while this batch ran: come back after the short delay.
      await sleep(woken ? EMAIL_WAKE_DELAY_MS : pollMs);
      sleeping = undefined;
    }
  })();
  wake = () => {
    woken = true;
    const wakeAt = Date.now() + EMAIL_WAKE_DELAY_MS;
    if (sleeping && sleepUntil > wakeAt) {
      clearTimeout(timer);
      sleepUntil = wakeAt;
      timer = setTimeout(sleeping, EMAIL_WAKE_DELAY_MS);
    }
  };
  log.info(`E-mail worker started (${transport.name === "smtp" ? "SMTP" : `writing to ${outboxFolder()}`})`);
  return async () => {
    stopped = true;
    wake = undefined;
    clearTimeout(timer);
    sleeping?.();
    await loop;
    transport.close();
  };
}
