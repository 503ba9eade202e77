/**
 * Staff management (owners only): the list, invitations (a single-use link valid
 * 48 hours, only its SHA-256 stored), role changes, deactivation and an owner's reset of another
 * member's second factor. The shop always keeps one active owner: the last one can be neither
 * demoted nor deactivated, and nobody deactivates themself. Every change is audited in its own
 * transaction.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, asc, desc, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { Executor, Transaction } from "#app/db/client.server.ts";
import {
  adminRecoveryCodes,
  adminUsers,
  emailOutbox,
  type StaffRole,
  staffInvitations,
} from "#app/db/schema.ts";
import { type AuditActor, type AuditOrigin, recordAudit } from "#app/features/audit/audit.server.ts";
import {
  outboxRow,
  SECRET_PLACEHOLDER,
  storeEmailSettings,
  wakeEmailWorker,
} from "#app/features/email/email-outbox.server.ts";
import { config } from "#app/utils/env.server.ts";
import { findAdminByEmail, normaliseEmail } from "./admin-users.server.ts";
import { hashPassword } from "./passwords.server.ts";
import { endSessionsOf } from "./sessions.server.ts";
import { endSignInChallenges } from "./sign-in-challenge.server.ts";
import { staffInvitationEmail } from "./staff-invitation-email.server.tsx";
import { resetTwoFactor } from "./two-factor.server.ts";

export const INVITATION_HOURS = 48;

export type StaffMember = {
  id: string;
  email: string;
  firstName: string;
  role: StaffRole;
  twoFactor: boolean;
  deactivatedAt: Date | null;
};

export type PendingInvitation = {
  id: string;
  email: string;
  firstName: string;
  role: StaffRole;
  expiresAt: Date;
  expired: boolean;
};

export async function listStaff(executor: Executor, now = new Date()) {
  const members: StaffMember[] = (
    await executor
      .select({
        id: adminUsers.id,
        email: adminUsers.email,
        firstName: adminUsers.firstName,
        role: adminUsers.role,
        totpEnabledAt: adminUsers.totpEnabledAt,
        deactivatedAt: adminUsers.deactivatedAt,
      })
      .from(adminUsers)
      .orderBy(sql`${adminUsers.deactivatedAt} IS NOT NULL`, asc(adminUsers.email))
  ).map(({ totpEnabledAt, ...member }) => ({ ...member, twoFactor: totpEnabledAt !== null }));
  const invitations: PendingInvitation[] = (
    await executor
      .select({
        id: staffInvitations.id,
        email: staffInvitations.email,
        firstName: staffInvitations.firstName,
        role: staffInvitations.role,
        expiresAt: staffInvitations.expiresAt,
      })
      .from(staffInvitations)
      .where(and(isNull(staffInvitations.acceptedAt), isNull(staffInvitations.revokedAt)))
      .orderBy(desc(staffInvitations.createdAt))
  ).map((invitation) => ({ ...invitation, expired: invitation.expiresAt <= now }));
  return { members, invitations };
}

export function hashInvitationToken(token: string) {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * `link`: an invitation's link, given to the owner in the answer alone when no mail server can
 * deliver it (it is never stored: record 036), to hand over themselves.
 */
export type StaffChange = { ok: true; message: string; link?: string } | { ok: false; error: string };

async function queueInvitation(
  tx: Transaction,
  invitation: { email: string; firstName: string; role: StaffRole },
  token: string,
  now: Date,
) {
  const store = storeEmailSettings();
  const mail = await staffInvitationEmail(
    {
      firstName: invitation.firstName,
      role: invitation.role,
      // The token never enters the stored bodies: the outbox puts it in as the mail is sent (record 036).
      link: `${store.publicUrl}/admin/invitation/${SECRET_PLACEHOLDER}`,
      validHours: INVITATION_HOURS,
    },
    store,
  );
  await tx
    .insert(emailOutbox)
    .values({ ...outboxRow("staff-invitation", invitation.email, mail, now), secret: token });
}

/**
 * Without SMTP_URL the outbox writes mail to a folder, and an invitation's link is never written
 * anywhere at rest (record 036): the owner gets the link once, in this answer, to pass on.
 */
function sentOrShown(email: string, token: string, sentMessage: string): StaffChange {
  if (config().SMTP_URL) return { ok: true, message: sentMessage };
  return {
    ok: true,
    message: `The invitation for ${email} is saved, but no mail server is set up (SMTP_URL), so its link cannot be e-mailed. Copy the link below and give it to them yourself: it is shown only now.`,
    link: `${storeEmailSettings().publicUrl}/admin/invitation/${token}`,
  };
}

function newToken() {
  return randomBytes(32).toString("base64url");
}

const expiry = (now: Date) => new Date(now.getTime() + INVITATION_HOURS * 3_600_000);

export async function inviteStaff(
  executor: Executor,
  input: {
    email: string;
    firstName: string;
    role: StaffRole;
    actor: AuditActor;
    origin: AuditOrigin;
    now?: Date;
  },
): Promise<StaffChange> {
  const now = input.now ?? new Date();
  const email = normaliseEmail(input.email);
  const existing = await findAdminByEmail(executor, email);
  if (existing && !existing.deactivatedAt) return { ok: false, error: `${email} is already on the staff.` };
  const token = newToken();
  await executor.transaction(async (tx) => {
    // A new invitation replaces any earlier one to the same address.
    await tx
      .update(staffInvitations)
      .set({ revokedAt: now })
      .where(
        and(
          eq(sql`lower(${staffInvitations.email})`, email),
          isNull(staffInvitations.acceptedAt),
          isNull(staffInvitations.revokedAt),
        ),
      );
    const [created] = await tx
      .insert(staffInvitations)
      .values({
        tokenHash: hashInvitationToken(token),
        email,
        role: input.role,
        firstName: input.firstName,
        invitedBy: input.actor.userId,
        expiresAt: expiry(now),
        createdAt: now,
      })
      .returning({ id: staffInvitations.id });
    await queueInvitation(tx, { email, firstName: input.firstName, role: input.role }, token, now);
    await recordAudit(tx, input.actor, input.origin, {
      action: "staff.invited",
      targetType: "invitation",
      targetId: created?.id,
      details: { email, role: input.role },
    });
  });
  wakeEmailWorker();
  return sentOrShown(email, token, `Invitation sent to ${email}.`);
}

/** The invitation while it is pending: neither accepted nor withdrawn. */
function isPendingInvitation(invitationId: string) {
  return and(
    eq(staffInvitations.id, invitationId),
    isNull(staffInvitations.acceptedAt),
    isNull(staffInvitations.revokedAt),
  );
}

/** A pending invitation's resending or withdrawal, in the audit log. */
async function auditInvitation(
  tx: Transaction,
  input: { actor: AuditActor; origin: AuditOrigin },
  action: "staff.invitation_resent" | "staff.invitation_revoked",
  invitation: { id: string; email: string; role: StaffRole },
) {
  await recordAudit(tx, input.actor, input.origin, {
    action,
    targetType: "invitation",
    targetId: invitation.id,
    details: { email: invitation.email, role: invitation.role },
  });
}

/** A new link for a pending invitation; the old link stops working. */
export async function resendInvitation(
  executor: Executor,
  input: { invitationId: string; actor: AuditActor; origin: AuditOrigin; now?: Date },
): Promise<StaffChange> {
  const now = input.now ?? new Date();
  const token = newToken();
  const sent = await executor.transaction(async (tx) => {
    const [invitation] = await tx
      .update(staffInvitations)
      .set({ tokenHash: hashInvitationToken(token), expiresAt: expiry(now) })
      .where(isPendingInvitation(input.invitationId))
      .returning();
    if (!invitation) return null;
    await queueInvitation(tx, invitation, token, now);
    await auditInvitation(tx, input, "staff.invitation_resent", invitation);
    return invitation.email;
  });
  if (!sent) return { ok: false, error: "This invitation was already accepted or withdrawn." };
  wakeEmailWorker();
  return sentOrShown(sent, token, `A new invitation link was sent to ${sent}.`);
}

/** Withdraws a pending invitation: its link stops working at once. */
export async function revokeInvitation(
  executor: Executor,
  input: { invitationId: string; actor: AuditActor; origin: AuditOrigin; now?: Date },
): Promise<StaffChange> {
  const now = input.now ?? new Date();
  const email = await executor.transaction(async (tx) => {
    const [invitation] = await tx
      .update(staffInvitations)
      .set({ revokedAt: now })
      .where(isPendingInvitation(input.invitationId))
      .returning();
    if (!invitation) return null;
    await auditInvitation(tx, input, "staff.invitation_revoked", invitation);
    return invitation.email;
  });
  if (!email) return { ok: false, error: "This invitation was already accepted or withdrawn." };
  return { ok: true, message: `The invitation to ${email} is withdrawn: its link no longer works.` };
}

/** Locks the active owners' rows until the transaction ends, and counts them. */
async function activeOwners(tx: Transaction) {
  const rows = await tx
    .select({ id: adminUsers.id })
    .from(adminUsers)
    .where(and(eq(adminUsers.role, "owner"), isNull(adminUsers.deactivatedAt)))
    .for("update");
  return rows.map((row) => row.id);
}

export const LAST_OWNER_ERROR = "The shop needs at least one owner: make someone else owner first.";

export async function changeRole(
  executor: Executor,
  input: { userId: string; role: StaffRole; actor: AuditActor; origin: AuditOrigin },
): Promise<StaffChange> {
  return executor.transaction(async (tx): Promise<StaffChange> => {
    const owners = await activeOwners(tx);
    const [member] = await tx.select().from(adminUsers).where(eq(adminUsers.id, input.userId));
    if (!member || member.deactivatedAt) return { ok: false, error: "This staff member is not active." };
    if (member.role === input.role) return { ok: true, message: "Nothing changed." };
    if (member.role === "owner" && owners.length <= 1) return { ok: false, error: LAST_OWNER_ERROR };
    await tx
      .update(adminUsers)
      .set({ role: input.role, updatedAt: new Date() })
      .where(eq(adminUsers.id, member.id));
    // Their sessions were opened under the old role: they sign in again under the new one.
    await signOutEverywhere(tx, input, member, "staff.role_changed", { old: member.role, new: input.role });
    return { ok: true, message: `${member.email} is now ${input.role} and was signed out everywhere.` };
  });
}

/**
 * Ends every session and sign-in attempt of a member whose access changed, and records the change
 * with how many sessions it ended.
 */
async function signOutEverywhere(
  tx: Transaction,
  by: { actor: AuditActor; origin: AuditOrigin },
  member: { id: string; email: string },
  action: "staff.role_changed" | "staff.deactivated",
  details: Record<string, unknown>,
) {
  const sessionsEnded = await endSessionsOf(tx, member.id);
  await endSignInChallenges(tx, member.id);
  await recordAudit(tx, by.actor, by.origin, {
    action,
    targetType: "staff",
    targetId: member.id,
    details: { email: member.email, ...details, sessionsEnded },
  });
}

/** Ends every session and sign-in attempt of the member at once; they can no longer sign in. */
export async function deactivateStaff(
  executor: Executor,
  input: { userId: string; actor: AuditActor; origin: AuditOrigin; now?: Date },
): Promise<StaffChange> {
  const now = input.now ?? new Date();
  if (input.userId === input.actor.userId) return { ok: false, error: "You cannot deactivate yourself." };
  return executor.transaction(async (tx): Promise<StaffChange> => {
    const owners = await activeOwners(tx);
    const [member] = await tx.select().from(adminUsers).where(eq(adminUsers.id, input.userId));
    if (!member || member.deactivatedAt) return { ok: false, error: "This staff member is not active." };
    if (member.role === "owner" && owners.length <= 1) return { ok: false, error: LAST_OWNER_ERROR };
    await tx
      .update(adminUsers)
      .set({ deactivatedAt: now, updatedAt: now })
      .where(eq(adminUsers.id, member.id));
    await signOutEverywhere(tx, input, member, "staff.deactivated", { role: member.role });
    return { ok: true, message: `${member.email} was deactivated and signed out everywhere.` };
  });
}

/** An owner's reset of another member's second factor: they set it up again at their next sign-in. */
export async function resetMemberTwoFactor(
  executor: Executor,
  input: { userId: string; actor: AuditActor; origin: AuditOrigin },
): Promise<StaffChange> {
  if (input.userId === input.actor.userId) {
    return { ok: false, error: "Set up your own two-factor sign-in again on your account page." };
  }
  const done = await executor.transaction(async (tx) => {
    const reset = await resetTwoFactor(tx, input);
    if (reset) await endSignInChallenges(tx, input.userId);
    return reset;
  });
  return done
    ? {
        ok: true,
        message:
          "Two-factor sign-in was reset and they were signed out: they set it up again at their next sign-in.",
      }
    : { ok: false, error: "No such staff member." };
}

// --- Accepting an invitation ------------------------------------------------------------------

export async function findOpenInvitation(executor: Executor, token: string, now = new Date()) {
  const [invitation] = await executor
    .select()
    .from(staffInvitations)
    .where(eq(staffInvitations.tokenHash, hashInvitationToken(token)));
  if (!invitation) return { status: "unknown" } as const;
  if (invitation.acceptedAt) return { status: "used" } as const;
  if (invitation.revokedAt) return { status: "replaced" } as const;
  if (invitation.expiresAt <= now) return { status: "expired" } as const;
  return { status: "open", invitation } as const;
}

/**
 * Uses the invitation (once: the UPDATE claims it) and creates the account with its password; a
 * deactivated account with the same e-mail comes back with the new role, password and no second
 * factor.
 */
export async function acceptInvitation(
  executor: Executor,
  input: { token: string; password: string; origin: AuditOrigin; now?: Date },
): Promise<{ ok: true; email: string } | { ok: false; error: string }> {
  const now = input.now ?? new Date();
  const passwordHash = await hashPassword(input.password);
  return executor.transaction(async (tx) => {
    const [invitation] = await tx
      .update(staffInvitations)
      .set({ acceptedAt: now })
      .where(
        and(
          eq(staffInvitations.tokenHash, hashInvitationToken(input.token)),
          isNull(staffInvitations.acceptedAt),
          isNull(staffInvitations.revokedAt),
          gt(staffInvitations.expiresAt, now),
        ),
      )
      .returning();
    if (!invitation) return { ok: false, error: "This invitation link has expired or was already used." };
    const existing = await findAdminByEmail(tx, invitation.email);
    if (existing && !existing.deactivatedAt) {
      return { ok: false, error: "This e-mail address already has an account. Sign in instead." };
    }
    const account = {
      passwordHash,
      role: invitation.role,
      firstName: invitation.firstName,
      deactivatedAt: null,
      totpSecretSealed: null,
      totpKeyId: null,
      totpEnabledAt: null,
      totpLastStep: null,
      updatedAt: now,
    };
    const [user] = existing
      ? await tx.update(adminUsers).set(account).where(eq(adminUsers.id, existing.id)).returning()
      : await tx
          .insert(adminUsers)
          .values({ ...account, email: normaliseEmail(invitation.email) })
          .returning();
    if (!user) throw new Error("The account could not be created");
    await tx.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.userId, user.id));
    await recordAudit(tx, { userId: user.id, email: user.email, role: user.role }, input.origin, {
      action: "staff.invitation_accepted",
      targetType: "staff",
      targetId: user.id,
      details: { email: user.email, role: user.role },
    });
    return { ok: true, email: user.email };
  });
}

/** Whether another active member than `userId` is an owner (for the page's hints). */
export async function otherActiveOwners(executor: Executor, userId: string) {
  const rows = await executor
    .select({ id: adminUsers.id })
    .from(adminUsers)
    .where(and(eq(adminUsers.role, "owner"), isNull(adminUsers.deactivatedAt), ne(adminUsers.id, userId)));
  return rows.length;
}
