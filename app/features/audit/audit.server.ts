/**
 * The audit log's one writer (P-27). Callers pass the transaction of the change they record,
 * so the event and the change commit or roll back together. `details` is a small JSON of what
 * changed (old and new price, old and new status); it must never carry an ID photo, a password, a
 * TOTP secret, a session token or a customer's address (the order id stands for the customer).
 * The insert takes the hash chain's lock until the transaction ends (record 036): record the event
 * after the change's other writes, so no other lock is taken while it is held.
 */
import type { RouterContextProvider } from "react-router";
import { db, type Executor } from "#app/db/client.server.ts";
import { auditEvents, type StaffRole } from "#app/db/schema.ts";
import { requestInfoContext } from "#app/utils/request-context.ts";

export type AuditActor = { userId: string | null; email: string | null; role: StaffRole | null };

/** Where the request came from: the client's address (P-30) and the request id of its log line. */
export type AuditOrigin = { ipAddress: string | null; requestId: string | null };

export type AuditEntry = {
  action: string;
  targetType?: string;
  targetId?: string;
  details?: Record<string, unknown>;
};

/** The actor of a signed-in request: the admin session has the same fields. */
export function actorOf(session: { userId: string; email: string; role: StaffRole }): AuditActor {
  return { userId: session.userId, email: session.email, role: session.role };
}

export function originOf(context: Readonly<RouterContextProvider>): AuditOrigin {
  const { clientAddress, requestId } = context.get(requestInfoContext);
  return { ipAddress: clientAddress, requestId };
}

/** A command-line tool's origin (`npm run admin:reset-2fa`): no address, no request. */
export const COMMAND_LINE_ORIGIN: AuditOrigin = { ipAddress: null, requestId: null };

export async function recordAudit(
  executor: Executor,
  actor: AuditActor,
  origin: AuditOrigin,
  entry: AuditEntry,
) {
  await executor.insert(auditEvents).values({
    actorId: actor.userId,
    actorEmail: actor.email,
    actorRole: actor.role,
    action: entry.action,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    details: entry.details ?? null,
    ipAddress: origin.ipAddress,
    requestId: origin.requestId,
  });
}

/** Who records a change, and from where: passed down to the feature function that makes it. */
export type AuditBy = { actor: AuditActor; origin: AuditOrigin };

/** The signed-in admin of this request as the author of the changes it makes. */
export function auditBy(
  session: { userId: string; email: string; role: StaffRole },
  context: Readonly<RouterContextProvider>,
): AuditBy {
  return { actor: actorOf(session), origin: originOf(context) };
}

/** `recordAudit` when the change has an author to record (the shop's own jobs have none). */
export async function recordAuditBy(executor: Executor, by: AuditBy | undefined, entry: AuditEntry) {
  if (by) await recordAudit(executor, by.actor, by.origin, entry);
}

/**
 * An event with no change of its own to share a transaction with (a CSV export, a read of the
 * audit log): written on its own, before the answer goes out.
 */
export async function recordAuditAlone(by: AuditBy, entry: AuditEntry) {
  const database = await db();
  await database.transaction((tx) => recordAudit(tx, by.actor, by.origin, entry));
}
