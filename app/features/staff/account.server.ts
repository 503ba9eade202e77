/**
 * One's own account at /admin/account (issue 16 item 2): the active sessions with their device and
 * last request, signing out the others, and changing the password (the current one required; every
 * other session ends).
 */
import { and, desc, eq, gt, ne } from "drizzle-orm";
import type { Executor } from "#app/db/client.server.ts";
import { adminSessions, adminUsers } from "#app/db/schema.ts";
import { hashPassword, verifyPassword } from "#app/features/admin-auth/passwords.server.ts";
import { SESSION_IDLE_MS } from "#app/features/admin-auth/sessions.server.ts";
import { type AuditActor, type AuditOrigin, recordAudit } from "./audit.server.ts";
import { deviceName } from "./format.ts";

export type AccountSession = {
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
      device: deviceName(row.userAgent),
      ipAddress: row.ipAddress,
      createdAt: row.createdAt,
      lastSeenAt: row.lastSeenAt,
      current: row.tokenHash === session.tokenHash,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

async function endOtherSessions(executor: Executor, session: { userId: string; tokenHash: string }) {
  const ended = await executor
    .delete(adminSessions)
    .where(and(eq(adminSessions.userId, session.userId), ne(adminSessions.tokenHash, session.tokenHash)))
    .returning({ userId: adminSessions.userId });
  return ended.length;
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
