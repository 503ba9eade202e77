/**
 * One's own account at /admin/account: the active sessions with their device and
 * last request, signing out any one of them or all the others, and changing the password (the
 * current one required; every other session ends).
 */
import { and, desc, eq, gt } from "drizzle-orm";
import type { Executor } from "#app/db/client.server.ts";
import { adminSessions, adminUsers } from "#app/db/schema.ts";
import { type AuditActor, type AuditOrigin, recordAudit } from "#app/features/audit/audit.server.ts";
import { deviceName } from "./format.ts";
import { hashPassword, verifyPassword } from "./passwords.server.ts";
import { endSessionsOf, SESSION_IDLE_MS } from "./sessions.server.ts";

export type AccountSession = {
  /** Names the session in a form ('Sign out' on its row): the start of its token's hash, no secret. */
  handle: string;
  device: string;
  ipAddress: string;
  createdAt: Date;
  lastSeenAt: Date;
  current: boolean;
};

export async function listOwnSessions(
  executor: Executor,
  session: { userId: string; tokenHash: string },
  now = new Date(),
): Promise<AccountSession[]> {
  const rows = await executor
    .select({
      tokenHash: adminSessions.tokenHash,
      userAgent: adminSessions.userAgent,
      ipAddress: adminSessions.ipAddress,
      createdAt: adminSessions.createdAt,
      lastSeenAt: adminSessions.lastSeenAt,
    })
    .from(adminSessions)
    .where(
      and(
        eq(adminSessions.userId, session.userId),
        gt(adminSessions.expiresAt, now),
        gt(adminSessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS)),
      ),
    )
    .orderBy(desc(adminSessions.lastSeenAt));
  return rows
    .map((row) => ({
      handle: sessionHandle(row.tokenHash),
      device: deviceName(row.userAgent),
      ipAddress: row.ipAddress,
      createdAt: row.createdAt,
      lastSeenAt: row.lastSeenAt,
      current: row.tokenHash === session.tokenHash,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

function sessionHandle(tokenHash: string) {
  return tokenHash.slice(0, 16);
}

function endOtherSessions(executor: Executor, session: { userId: string; tokenHash: string }) {
  return endSessionsOf(executor, session.userId, session);
}

/**
 * Ends one of the signed-in member's own sessions, named by its handle; never someone else's.
 * Ending the current one is signing out (/admin/logout). Returns whether one ended.
 */
export async function endOwnSession(
  executor: Executor,
  session: { userId: string; tokenHash: string },
  handle: string,
  actor: AuditActor,
  origin: AuditOrigin,
) {
  return executor.transaction(async (tx) => {
    const rows = await tx
      .select({ tokenHash: adminSessions.tokenHash })
      .from(adminSessions)
      .where(eq(adminSessions.userId, session.userId));
    const target = rows.find(
      (row) => sessionHandle(row.tokenHash) === handle && row.tokenHash !== session.tokenHash,
    );
    if (!target) return false;
    await tx.delete(adminSessions).where(eq(adminSessions.tokenHash, target.tokenHash));
    await recordAudit(tx, actor, origin, {
      action: "session.revoked",
      targetType: "staff",
      targetId: session.userId,
      details: { sessions: 1 },
    });
    return true;
  });
}

export async function signOutOtherSessions(
  executor: Executor,
  session: { userId: string; tokenHash: string },
  actor: AuditActor,
  origin: AuditOrigin,
) {
  return executor.transaction(async (tx) => {
    const ended = await endOtherSessions(tx, session);
    if (ended > 0) {
      await recordAudit(tx, actor, origin, {
        action: "session.revoked",
        targetType: "staff",
        targetId: session.userId,
        details: { sessions: ended },
      });
    }
    return ended;
  });
}

export async function changeOwnPassword(
  executor: Executor,
  input: {
    session: { userId: string; tokenHash: string };
    currentPassword: string;
    newPassword: string;
    actor: AuditActor;
    origin: AuditOrigin;
  },
): Promise<{ ok: true; sessionsEnded: number } | { ok: false; error: string }> {
  const [user] = await executor
    .select({ passwordHash: adminUsers.passwordHash })
    .from(adminUsers)
    .where(eq(adminUsers.id, input.session.userId));
  if (!user || !(await verifyPassword(user.passwordHash, input.currentPassword))) {
    return { ok: false, error: "Your current password is not right." };
  }
  const passwordHash = await hashPassword(input.newPassword);
  return executor.transaction(async (tx) => {
    await tx
      .update(adminUsers)
      .set({ passwordHash, updatedAt: new Date() })
      .where(eq(adminUsers.id, input.session.userId));
    const sessionsEnded = await endOtherSessions(tx, input.session);
    await recordAudit(tx, input.actor, input.origin, {
      action: "staff.password_changed",
      targetType: "staff",
      targetId: input.session.userId,
      details: { otherSessionsEnded: sessionsEnded },
    });
    return { ok: true as const, sessionsEnded };
  });
}
