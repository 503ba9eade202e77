import { and, eq, sql } from "drizzle-orm";
import { db } from "#app/db/client.server.ts";
import { decodeCursor, encodeCursor, newestFirst } from "#app/db/keyset.ts";
import { emailOutbox } from "#app/db/schema.ts";

export type OutboxEmail = {
  id: string;
  orderId: string | null;
  kind: string;
  toAddress: string;
  subject: string;
  textBody: string;
  status: string;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string;
  sentAt: string | null;
  /** 'smtp' or 'folder' for a sent mail; null before it went (or for mail sent before this was kept). */
  sentVia: string | null;
  createdAt: string;
};

/** The e-mail outbox for admins (P-12): newest first, 50 at a time, failures visible. */
/**
 * An invitation's link signs up whoever opens it first: the outbox shows it hidden, so a manager
 * reading the outbox cannot take an owner's invitation.
 */
export function hideInvitationLinks(text: string) {
  return text.replace(/\/admin\/invitation\/[\w-]+/g, "/admin/invitation/(hidden)");
}

export async function listOutboxEmails(
  options: { cursor?: string | null; status?: string | null; limit?: number } = {},
): Promise<{ emails: OutboxEmail[]; nextCursor: string | null; counts: Record<string, number> }> {
  const database = await db();
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 100);
  const after = decodeCursor(options.cursor);
  const status =
    options.status && ["queued", "sending", "sent", "failed"].includes(options.status)
      ? options.status
      : null;
  const rows = await database
    .select({
      id: emailOutbox.id,
      orderId: emailOutbox.orderId,
      kind: emailOutbox.kind,
      toAddress: emailOutbox.toAddress,
      subject: emailOutbox.subject,
      textBody: emailOutbox.textBody,
      status: emailOutbox.status,
      attempts: emailOutbox.attempts,
      lastError: emailOutbox.lastError,
      nextAttemptAt: emailOutbox.nextAttemptAt,
      sentAt: emailOutbox.sentAt,
      sentVia: emailOutbox.sentVia,
      createdAt: emailOutbox.createdAt,
      createdAtText: sql<string>`${emailOutbox.createdAt}::text`,
    })
    .from(emailOutbox)
    .where(
      and(
        status ? eq(emailOutbox.status, status as (typeof emailOutbox.$inferSelect)["status"]) : undefined,
        after
          ? sql`(${emailOutbox.createdAt}, ${emailOutbox.id}) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(...newestFirst(emailOutbox.createdAt, emailOutbox.id))
    .limit(limit + 1);
  const countRows = await database
    .select({ status: emailOutbox.status, count: sql<number>`count(*)::int` })
    .from(emailOutbox)
    .groupBy(emailOutbox.status);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    emails: page.map(({ createdAtText: _text, ...row }) => ({
      ...row,
      textBody: hideInvitationLinks(row.textBody),
      nextAttemptAt: row.nextAttemptAt.toISOString(),
      sentAt: row.sentAt?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
    })),
    nextCursor: rows.length > limit && last ? encodeCursor(last.createdAtText, last.id) : null,
    counts: Object.fromEntries(countRows.map((row) => [row.status, row.count])),
  };
}
