/**
 * The e-mail outbox (P-12, and record 016 for sending each mail once). Mails are queued in
 * `email_outbox` inside the order transaction, then a worker sends them: through SMTP when SMTP_URL
 * is set, otherwise into `DATA_DIR/outbox/` as .eml files. Failures back off exponentially and a
 * mail server that is down only delays mail.
 *
 * Each mail once: a sender claims a few rows at a time (one statement, FOR UPDATE SKIP LOCKED) with
 * a lease it extends while it still holds them, so a slow SMTP server never lets a lease run out
 * mid-send; each mail is marked sent as soon as the server accepted it; no database transaction is
 * open during an SMTP conversation. The claim's attempt number fences the row: a sender whose lease
 * was taken over can no longer extend or requeue it. Every row has a stable Message-ID, so the one
 * mail in flight when a sender is killed is at worst sent again under the same id.
 */
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { and, asc, eq, inArray, lt, lte, ne, or, sql } from "drizzle-orm";
import nodemailer from "nodemailer";
import { type Database, db } from "#app/db/client.server.ts";
import { emailOutbox } from "#app/db/schema.ts";
import { config } from "#app/utils/env.server.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import { metrics } from "#app/utils/metrics.server.ts";
import type { EmailMessage, StoreEmailSettings } from "./email-layout.server.tsx";
import { composeMime, type MimeMail, mailboxAddress } from "./mime.server.ts";
import { configuredTextTransport, isOptedOut, type TextTransport, Undeliverable } from "./sms.server.ts";

export const MAX_EMAIL_ATTEMPTS = 25;

/** The outbox row of a rendered mail to one address, due at once. */
export function outboxRow(kind: string, toAddress: string, mail: EmailMessage, now: Date) {
  return {
    kind,
    toAddress,
    subject: mail.subject,
    textBody: mail.text,
    htmlBody: mail.html,
    createdAt: now,
    nextAttemptAt: now,
  } satisfies typeof emailOutbox.$inferInsert;
}
const BASE_BACKOFF_MS = 30_000;
const MAX_BACKOFF_MS = 30 * 60_000;
/**
 * A claimed row is someone's for OUTBOX_LEASE_SECONDS (60 s), extended every third of it while its
 * sender holds it; a crashed sender's rows come back after it.
 */
function leaseMs() {
  return config().OUTBOX_LEASE_SECONDS * 1000;
}

export function storeEmailSettings(): StoreEmailSettings {
  const { STORE_NAME, STORE_PHONE, STORE_EMAIL, publicUrl } = config();
  return { storeName: STORE_NAME, storePhone: STORE_PHONE, storeEmail: STORE_EMAIL, publicUrl };
}

/** Delay before attempt `attempts + 1`: 30 s, 1 min, 2 min … capped at 30 min. */
export function backoffMs(attempts: number) {
  return Math.min(BASE_BACKOFF_MS * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS);
}

export type OutgoingMail = {
  id: string;
  kind: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** What `SECRET_PLACEHOLDER` in the bodies stands for; only a transport that delivers puts it in. */
  secret?: string | null;
};

/**
 * Stands in the stored bodies for a secret the mail carries (an invitation's token, record 036):
 * the outbox row, the .eml copies and backups hold this, the secret itself lives in the row's
 * `secret` column only until the mail is sent or given up.
 */
export const SECRET_PLACEHOLDER = "link-not-stored";

/** The mail as it goes out: the secret in place of its placeholder. */
function withSecret(mail: OutgoingMail): OutgoingMail {
  if (!mail.secret) return mail;
  const secret = mail.secret;
  return {
    ...mail,
    text: mail.text.replaceAll(SECRET_PLACEHOLDER, secret),
    html: mail.html.replaceAll(SECRET_PLACEHOLDER, secret),
  };
}

/**
 * Where mail goes: an SMTP server, or a folder. `close` frees connections. `idempotent`: sending one
 * mail twice leaves one copy (the folder overwrites `<id>.eml`), so marks may wait for the batch.
 */
export type MailTransport = {
  name: string;
  idempotent?: boolean;
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
};

/** The same for every attempt at one outbox row: a resend is recognisable as the same mail. */
export function messageId(id: string) {
  const domain = config().STORE_EMAIL.split("@")[1] ?? "capital-grown.outbox";
  return `<${id}.outbox@${domain}>`;
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
      // nodemailer speaks SMTP; the message itself is composed here (mime.server.ts).
      await transporter.sendMail({
        envelope: { from: mailboxAddress(mail.from), to: [mailboxAddress(mail.to)] },
        raw: composeMime(mimeMail(withSecret(mail))),
      });
    },
    close() {
      transporter.close();
    },
  };
}

/** A mail as the MIME composer takes it, under its stable Message-ID (record 016). */
function mimeMail({ id, from, to, subject, text, html }: OutgoingMail): MimeMail {
  return { from, to, subject, text, html, messageId: messageId(id) };
}

/**
 * Writes each mail as `<folder>/<id>.eml` (atomically; a resend overwrites, never duplicates). A
 * file in DATA_DIR is a copy at rest, not a delivery: a secret (an invitation's link) is left out.
 */
export function folderTransport(folder: string): MailTransport {
  let folderReady: Promise<unknown> | undefined;
  return {
    name: "folder",
    idempotent: true,
    async send(mail) {
      folderReady ??= mkdir(folder, { recursive: true });
      await folderReady;
      // Asynchronous writes: the file system work runs beside the requests, not in their thread.
      const file = path.join(folder, `${mail.id}.eml`);
      if (mail.secret) {
        log.warn("An invitation was written to the outbox folder without its link: set SMTP_URL to send it", {
          id: mail.id,
          kind: mail.kind,
        });
      }
      const temporary = `${file}.tmp`;
      await writeFile(temporary, composeMime(mimeMail(mail), "\n"), { mode: 0o600 });
      await rename(temporary, file);
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

/**
 * Claims up to `limit` due rows (queued and due, or sending with an expired lease) for this sender,
 * in one statement. Each claim adds one to `attempts`: the row's fencing token for this sender.
 */
export async function claimDueEmails(options: { now: Date; limit?: number; leaseMs?: number }) {
  const database = await db();
  const leaseUntil = new Date(options.now.getTime() + (options.leaseMs ?? leaseMs()));
  const due = database
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
  return database
    .update(emailOutbox)
    .set({ status: "sending", lockedUntil: leaseUntil, attempts: sql`${emailOutbox.attempts} + 1` })
    .where(
      and(
        inArray(emailOutbox.id, due),
        or(eq(emailOutbox.status, "queued"), eq(emailOutbox.status, "sending")),
      ),
    )
    .returning();
}

type ClaimedRow = Awaited<ReturnType<typeof claimDueEmails>>[number];

/** `(id, attempts) IN (…)`: only rows still held under this sender's claim. */
function heldUnderClaim(rows: ClaimedRow[]) {
  return sql`(${emailOutbox.id}, ${emailOutbox.attempts}) IN (${sql.join(
    rows.map((row) => sql`(${row.id}::uuid, ${row.attempts}::integer)`),
    sql`, `,
  )})`;
}

/**
 * Marks mails sent right after the server accepted each one. Marks that come in while one is being
 * written go together in the next statement (a burst of fast sends costs few statements).
 */
function sentMarker(database: Database, sentVia: string) {
  let waiting: string[] = [];
  let writing: Promise<void> | undefined;
  async function flush() {
    while (waiting.length > 0) {
      const ids = waiting;
      waiting = [];
      try {
        await database
          .update(emailOutbox)
          .set({
            status: "sent",
            sentAt: new Date(),
            sentVia,
            lockedUntil: null,
            lastError: null,
            secret: null,
          })
          .where(and(inArray(emailOutbox.id, ids), ne(emailOutbox.status, "sent")));
      } catch (error) {
        // Sent, but not marked: after its lease the mail goes again, with the same Message-ID.
        log.error("Could not mark e-mails as sent", { count: ids.length, error: errorMessage(error) });
      }
    }
  }
  return {
    mark(...ids: string[]) {
      waiting.push(...ids);
      writing ??= flush().finally(() => {
        writing = undefined;
      });
      return writing;
    },
  };
}

export type BatchResult = { sent: number; retried: number; failed: number };

/**
 * Claims due mail and tries each once, `concurrency` at a time. Returns what happened; never throws
 * for a send failure. Rows not started when `shouldStop` turns true are handed back at once.
 */
export async function processEmailBatch(options: {
  now?: Date;
  transport: MailTransport;
  /** Where the SMS rows go (record 054); without one they are given up (SMS not configured). */
  textTransport?: TextTransport | null;
  limit?: number;
  leaseMs?: number;
  concurrency?: number;
  shouldStop?: () => boolean;
}): Promise<BatchResult> {
  const now = options.now ?? new Date();
  const lease = options.leaseMs ?? leaseMs();
  const database = await db();
  const claimed = await claimDueEmails({ now, limit: options.limit, leaseMs: lease });
  const result: BatchResult = { sent: 0, retried: 0, failed: 0 };
  if (claimed.length === 0) return result;
  const from = fromAddress();
  const marker = sentMarker(database, options.transport.name);
  const textMarker = options.textTransport ? sentMarker(database, options.textTransport.name) : marker;
  const held = new Set(claimed);
  const marks: Promise<void>[] = [];
  // A transport that cannot duplicate (the folder) has its marks written once, after the batch.
  const sentLater: string[] = [];

  // Keeps the lease of every row still held (waiting or being sent) ahead of the clock.
  const startedAt = Date.now();
  let extending: Promise<unknown> | undefined;
  const heartbeat = setInterval(
    () => {
      if (extending || held.size === 0) return;
      const rows = [...held];
      const base = options.now ? now.getTime() + (Date.now() - startedAt) : Date.now();
      extending = database
        .update(emailOutbox)
        .set({ lockedUntil: new Date(base + lease) })
        .where(and(eq(emailOutbox.status, "sending"), heldUnderClaim(rows)))
        .catch((error: unknown) =>
          log.warn("Could not extend an e-mail lease", { error: errorMessage(error) }),
        )
        .finally(() => {
          extending = undefined;
        });
    },
    Math.max(50, Math.floor(lease / 3)),
  );

  const queue = [...claimed];
  /** A text goes only to a number that has not replied STOP, checked as it goes (P-37). */
  async function sendText(row: ClaimedRow) {
    if (!options.textTransport) throw new Undeliverable("SMS is not configured (TWILIO_* settings)");
    if (await isOptedOut(row.toAddress, database)) throw new Undeliverable("The number replied STOP");
    await options.textTransport.send({ id: row.id, kind: row.kind, to: row.toAddress, body: row.textBody });
  }
  async function sendOne(row: ClaimedRow) {
    try {
      if (row.channel === "sms") {
        await sendText(row);
        held.delete(row);
        marks.push(textMarker.mark(row.id));
        result.sent += 1;
        return;
      }
      await options.transport.send({
        id: row.id,
        kind: row.kind,
        from,
        to: row.toAddress,
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody,
        secret: row.secret,
      });
      held.delete(row);
      if (options.transport.idempotent) sentLater.push(row.id);
      else marks.push(marker.mark(row.id));
      result.sent += 1;
    } catch (error) {
      held.delete(row);
      metrics().emailSendFailures.inc();
      const message = errorMessage(error).slice(0, 500);
      const gaveUp = row.attempts >= MAX_EMAIL_ATTEMPTS || error instanceof Undeliverable;
      await database
        .update(emailOutbox)
        .set({
          status: gaveUp ? "failed" : "queued",
          lockedUntil: null,
          // Given up: the secret goes too (an invitation is then sent again from Staff).
          ...(gaveUp ? { secret: null } : {}),
          lastError: message,
          nextAttemptAt: new Date(now.getTime() + backoffMs(row.attempts)),
        })
        .where(and(eq(emailOutbox.status, "sending"), heldUnderClaim([row])))
        .catch((writeError: unknown) =>
          log.error("Could not record an e-mail failure", { id: row.id, error: errorMessage(writeError) }),
        );
      const details = { id: row.id, kind: row.kind, attempts: row.attempts, error: message };
      if (gaveUp) {
        result.failed += 1;
        log.error("E-mail failed for good", details);
      } else {
        result.retried += 1;
        log.warn("E-mail not sent yet, will retry", details);
      }
    }
  }
  try {
    await Promise.all(
      Array.from({ length: Math.max(1, options.concurrency ?? 1) }, async () => {
        for (let row = queue.shift(); row; row = queue.shift()) {
          if (options.shouldStop?.()) {
            queue.unshift(row);
            return;
          }
          await sendOne(row);
        }
      }),
    );
  } finally {
    clearInterval(heartbeat);
    await extending;
    if (queue.length > 0) {
      // Stopping: hand back what was never tried, as if it had not been claimed.
      await database
        .update(emailOutbox)
        .set({ status: "queued", lockedUntil: null, attempts: sql`${emailOutbox.attempts} - 1` })
        .where(and(eq(emailOutbox.status, "sending"), heldUnderClaim(queue)))
        .catch(() => {});
    }
    if (sentLater.length > 0) marks.push(marker.mark(...sentLater));
    await Promise.all(marks);
  }
  return result;
}

let wake: (() => void) | undefined;

/** Tells this instance's worker that new mail is queued (others find it on their next poll). */
export function wakeEmailWorker() {
  wake?.();
}

/** Mails one sender claims at a time, shared among its parallel sends (a small batch). */
const CLAIM_SIZE = 10;
const FOLDER_CLAIM_SIZE = 50;
/**
 * After an order the worker waits this long before claiming, so one claim serves a burst of orders
 * instead of one claim (a statement of its own) per order.
 */
export const EMAIL_WAKE_DELAY_MS = 200;

/**
 * Sends queued mail until stopped: shortly after an order, and every `pollMs` otherwise. Runs
 * `concurrency` sends at once (OUTBOX_CONCURRENCY, each on its own SMTP connection); each lane
 * claims its own few rows and comes back for more until the queue is drained.
 */
export function startEmailWorker(
  options: {
    pollMs?: number;
    transport?: MailTransport;
    textTransport?: TextTransport | null;
    concurrency?: number;
  } = {},
) {
  const transport = options.transport ?? configuredTransport();
  const textTransport =
    options.textTransport === undefined ? configuredTextTransport() : options.textTransport;
  const pollMs = options.pollMs ?? 5_000;
  const lanes = Math.max(1, options.concurrency ?? config().OUTBOX_CONCURRENCY);
  // The folder cannot send a mail twice: bigger claims cost fewer statements per order.
  const perClaim = transport.idempotent ? FOLDER_CLAIM_SIZE : Math.max(1, Math.floor(CLAIM_SIZE / lanes));
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
  const lane = async () => {
    while (!stopped) {
      try {
        const result = await processEmailBatch({
          transport,
          textTransport,
          limit: perClaim,
          shouldStop: () => stopped,
        });
        if (result.sent + result.retried + result.failed < perClaim) return;
      } catch (error) {
        log.error("The e-mail worker could not read the outbox", { error: errorMessage(error) });
        return;
      }
    }
  };
  const loop = (async () => {
    while (!stopped) {
      woken = false;
      await Promise.all(Array.from({ length: lanes }, lane));
      if (stopped) break;
      // An order queued mail while this round ran: come back after the short delay.
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
