import { and, eq } from "drizzle-orm";
import * as OTPAuth from "otpauth";
import { expect, it } from "vitest";
import { adminUsers, auditEvents, staffInvitations } from "#app/db/schema.ts";
import { COMMAND_LINE_ORIGIN } from "#app/features/audit/audit.server.ts";
import { idPhotoKeyring } from "#app/features/keyring/id-photo-crypto.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { invitationTokens, sendQueuedMail } from "#tests/support/invitation-links.ts";
import { upsertAdminUser } from "./admin-users.server.ts";
import { signIn } from "./login.server.ts";
import { isCommonPassword, newPasswordSchema } from "./password-policy.server.ts";
import { createSession, findSession } from "./sessions.server.ts";
import { answerSignInChallenge, MAX_CODE_ATTEMPTS } from "./sign-in-challenge.server.ts";
import {
  acceptInvitation,
  changeRole,
  deactivateStaff,
  findOpenInvitation,
  INVITATION_HOURS,
  inviteStaff,
  LAST_OWNER_ERROR,
  listStaff,
  resendInvitation,
  revokeInvitation,
} from "./staff.server.ts";
import { newTotpSecret, unsealTotpSecret } from "./totp.server.ts";
import {
  confirmEnrolment,
  resetTwoFactor,
  roleRequiresTwoFactor,
  setDriversRequireTwoFactor,
} from "./two-factor.server.ts";

const ORIGIN = COMMAND_LINE_ORIGIN;
const codeAt = (secret: string, at: Date) =>
  OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp: at.getTime() });

it("a new password has at least 12 characters and is not a common one (compared lower-cased)", () => {
  expect(newPasswordSchema.safeParse("short-pass1").success).toBe(false);
  expect(isCommonPassword("UNBELIEVABLE")).toBe(true);
  expect(newPasswordSchema.safeParse("Unbelievable").error?.issues[0]?.message).toBe(
    "This password is too common. Choose another one.",
  );
  expect(newPasswordSchema.safeParse("Window-Basil-Orbit-42").success).toBe(true);
});

describeEachDatabase("staff accounts", (database) => {
  const password = "correct-horse-battery-staple";
  let counter = 0;
  const email = () => `staff-${++counter}-${Math.random().toString(36).slice(2, 8)}@shop.test`;

  async function enrolled(role: "owner" | "manager" | "driver" = "manager", at = new Date()) {
    const { db } = database();
    const address = email();
    const { id } = await upsertAdminUser(db, address, password);
    await db.update(adminUsers).set({ role }).where(eq(adminUsers.id, id));
    const secret = newTotpSecret();
    const actor = { userId: id, email: address, role };
    const result = await confirmEnrolment(db, idPhotoKeyring(), {
      userId: id,
      secret,
      code: codeAt(secret, at),
      actor,
      origin: ORIGIN,
      now: at,
    });
    if (!result.ok) throw new Error("enrolment failed");
    return { id, email: address, secret, recoveryCodes: result.recoveryCodes };
  }

  async function challenge(address: string, ip = "10.9.0.1") {
    const result = await signIn(database().db, { email: address, password, ipAddress: ip });
    if (result.ok || result.reason !== "second-factor")
      throw new Error(`expected a challenge, got ${JSON.stringify(result)}`);
    return result.challengeToken;
  }

  const answer = (token: string, code: string, now = new Date()) =>
    answerSignInChallenge(database().db, idPhotoKeyring(), {
      token,
      code,
      ipAddress: "10.9.0.1",
      origin: ORIGIN,
      now,
    });

  it("seals the secret at rest and asks for a code after the password", async () => {
    const { db } = database();
    const member = await enrolled();
    const [row] = await db.select().from(adminUsers).where(eq(adminUsers.id, member.id));
    expect(row?.totpEnabledAt).not.toBeNull();
    expect(Buffer.from(row?.totpSecretSealed ?? []).toString("utf8")).not.toContain(member.secret);
    expect(
      unsealTotpSecret(idPhotoKeyring(), member.id, {
        keyId: row?.totpKeyId as string,
        bytes: row?.totpSecretSealed as Uint8Array,
      }),
    ).toBe(member.secret);
    const token = await challenge(member.email);
    expect(token).toMatch(/^[\w-]{43}$/);
  });

  it("accepts a code once: the same time step is refused the second time", async () => {
    const member = await enrolled("manager", new Date(Date.now() - 90_000));
    const now = new Date();
    const first = await answer(await challenge(member.email), codeAt(member.secret, now), now);
    expect(first.ok).toBe(true);
    const replay = await answer(await challenge(member.email), codeAt(member.secret, now), now);
    expect(replay).toEqual({ ok: false, reason: "wrong", attemptsLeft: MAX_CODE_ATTEMPTS - 1 });
    // Two requests racing with the same fresh code: one wins.
    const later = new Date(now.getTime() + 30_000);
    const [a, b] = await Promise.all([
      answer(await challenge(member.email), codeAt(member.secret, later), later),
      answer(await challenge(member.email), codeAt(member.secret, later), later),
    ]);
    expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
  });

  it("ends the attempt after 5 wrong codes", async () => {
    const member = await enrolled();
    const token = await challenge(member.email);
    for (let i = 1; i < MAX_CODE_ATTEMPTS; i++) {
      expect(await answer(token, "000000")).toEqual({
        ok: false,
        reason: "wrong",
        attemptsLeft: MAX_CODE_ATTEMPTS - i,
      });
    }
    expect(await answer(token, "000000")).toEqual({ ok: false, reason: "locked" });
    // Even the right code no longer opens this attempt.
    const later = new Date(Date.now() + 30_000);
    expect(await answer(token, codeAt(member.secret, later), later)).toEqual({
      ok: false,
      reason: "expired",
    });
    const failures = await database()
      .db.select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "sign_in.failed")));
    const mine = failures.filter((event) => (event.details as { email?: string })?.email === member.email);
    expect(mine.length).toBeGreaterThanOrEqual(MAX_CODE_ATTEMPTS);
    expect(mine.every((event) => event.actorId === null)).toBe(true);
    expect(JSON.stringify(failures)).not.toContain(member.secret);
  });

  it("a recovery code works once and is recorded", async () => {
    const { db } = database();
    const member = await enrolled();
    const code = member.recoveryCodes[0] as string;
    expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(await answer(await challenge(member.email), code.toUpperCase())).toMatchObject({
      ok: true,
      method: "recovery",
    });
    expect(await answer(await challenge(member.email), code)).toMatchObject({ ok: false, reason: "wrong" });
    const used = await db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, "two_factor.recovery_code_used"), eq(auditEvents.targetId, member.id)),
      );
    expect(used).toHaveLength(1);
    expect(JSON.stringify(used)).not.toContain(code);
  });

  it("a reset second factor signs in with the password alone (and the role then asks to enrol)", async () => {
    const { db } = database();
    const member = await enrolled();
    await resetTwoFactor(db, {
      userId: member.id,
      actor: { userId: null, email: "cli", role: null },
      origin: ORIGIN,
    });
    const result = await signIn(db, { email: member.email, password, ipAddress: "10.9.0.2" });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect((await findSession(db, result.token))?.twoFactor).toBe(false);
    const [reset] = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "two_factor.reset"), eq(auditEvents.targetId, member.id)));
    expect(reset).toMatchObject({ actorId: null, actorEmail: "cli", ipAddress: null, requestId: null });
  });

  it("keeps one active owner: the last one can be neither demoted nor deactivated, nobody deactivates themself", async () => {
    const { db } = database();
    // Earlier tests left owners behind: this suite's owners are the only active ones.
    await db.update(adminUsers).set({ role: "driver" }).where(eq(adminUsers.role, "owner"));
    const owner = await enrolled("owner");
    const actor = { userId: owner.id, email: owner.email, role: "owner" as const };
    expect(await changeRole(db, { userId: owner.id, role: "manager", actor, origin: ORIGIN })).toEqual({
      ok: false,
      error: LAST_OWNER_ERROR,
    });
    expect(await deactivateStaff(db, { userId: owner.id, actor, origin: ORIGIN })).toEqual({
      ok: false,
      error: "You cannot deactivate yourself.",
    });
    const cli = { userId: null, email: "cli", role: null };
    expect(await deactivateStaff(db, { userId: owner.id, actor: cli, origin: ORIGIN })).toEqual({
      ok: false,
      error: LAST_OWNER_ERROR,
    });
    const second = await enrolled("manager");
    expect((await changeRole(db, { userId: second.id, role: "owner", actor, origin: ORIGIN })).ok).toBe(true);
    expect((await changeRole(db, { userId: owner.id, role: "manager", actor: cli, origin: ORIGIN })).ok).toBe(
      true,
    );
    const roleChange = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "staff.role_changed"), eq(auditEvents.targetId, owner.id)));
    expect(roleChange[0]?.details).toMatchObject({ old: "owner", new: "manager" });
  });

  it("deactivating someone ends all their sessions at once", async () => {
    const { db } = database();
    const member = await enrolled("driver");
    const sessions = await Promise.all([createSession(db, member.id), createSession(db, member.id)]);
    const actor = { userId: null, email: "cli", role: null };
    expect((await deactivateStaff(db, { userId: member.id, actor, origin: ORIGIN })).ok).toBe(true);
    for (const session of sessions) expect(await findSession(db, session.token)).toBeNull();
    expect(await signIn(db, { email: member.email, password, ipAddress: "10.9.0.3" })).toEqual({
      ok: false,
      reason: "invalid",
    });
  });

  it("an invitation is e-mailed through the outbox, its token stored hashed, and works once within 48 hours", async () => {
    const { db } = database();
    const address = email();
    const actor = { userId: null, email: "cli", role: null };
    const now = new Date();
    expect(
      (
        await inviteStaff(db, {
          email: address,
          firstName: "Mona",
          role: "manager",
          actor,
          origin: ORIGIN,
          now,
        })
      ).ok,
    ).toBe(true);
    const [token] = invitationTokens(await sendQueuedMail(), address) as [string];
    expect(token).toBeDefined();
    const [stored] = await db.select().from(staffInvitations).where(eq(staffInvitations.email, address));
    expect(stored?.tokenHash).not.toContain(token);
    expect(stored?.expiresAt.getTime()).toBe(now.getTime() + INVITATION_HOURS * 3_600_000);
    const late = new Date(now.getTime() + INVITATION_HOURS * 3_600_000 + 1);
    expect((await findOpenInvitation(db, token, late)).status).toBe("expired");
    expect((await acceptInvitation(db, { token, password, origin: ORIGIN, now: late })).ok).toBe(false);
    expect(await acceptInvitation(db, { token, password, origin: ORIGIN })).toEqual({
      ok: true,
      email: address,
    });
    expect((await acceptInvitation(db, { token, password, origin: ORIGIN })).ok).toBe(false);
    expect((await findOpenInvitation(db, token)).status).toBe("used");
    const [user] = await db.select().from(adminUsers).where(eq(adminUsers.email, address));
    expect(user).toMatchObject({ role: "manager", firstName: "Mona", totpEnabledAt: null });
  });

  it("a resent invitation has a new link and the old one no longer works", async () => {
    const { db } = database();
    const address = email();
    const actor = { userId: null, email: "cli", role: null };
    await inviteStaff(db, { email: address, firstName: "Dee", role: "driver", actor, origin: ORIGIN });
    const [first] = invitationTokens(await sendQueuedMail(), address);
    const [invitation] = await db.select().from(staffInvitations).where(eq(staffInvitations.email, address));
    expect(
      (await resendInvitation(db, { invitationId: invitation?.id as string, actor, origin: ORIGIN })).ok,
    ).toBe(true);
    const [second] = invitationTokens(await sendQueuedMail(), address) as [string];
    expect(second).not.toBe(first);
    expect(second).toBeDefined();
    expect((await findOpenInvitation(db, first as string)).status).toBe("unknown");
    expect((await findOpenInvitation(db, second)).status).toBe("open");
  });

  it("a withdrawn invitation's link stops working, and it leaves the pending list", async () => {
    const { db } = database();
    const address = email();
    const actor = { userId: null, email: "cli", role: null };
    const invited = await inviteStaff(db, {
      email: address,
      firstName: "Wes",
      role: "driver",
      actor,
      origin: ORIGIN,
    });
    const [token] = invitationTokens(await sendQueuedMail(), address) as [string];
    expect(invited.ok).toBe(true);
    expect((await findOpenInvitation(db, token)).status).toBe("open");
    const [invitation] = await db.select().from(staffInvitations).where(eq(staffInvitations.email, address));
    const revoked = await revokeInvitation(db, {
      invitationId: invitation?.id as string,
      actor,
      origin: ORIGIN,
    });
    expect(revoked).toEqual({
      ok: true,
      message: `The invitation to ${address} is withdrawn: its link no longer works.`,
    });
    expect((await findOpenInvitation(db, token)).status).not.toBe("open");
    expect(
      (await acceptInvitation(db, { token, password: "Withdrawn-Ladder-Pine-42", origin: ORIGIN })).ok,
    ).toBe(false);
    expect((await listStaff(db)).invitations.map((pending) => pending.email)).not.toContain(address);
    expect(
      (await revokeInvitation(db, { invitationId: invitation?.id as string, actor, origin: ORIGIN })).ok,
    ).toBe(false);
  });

  it("drivers need a second factor only when the owner requires it (audited)", async () => {
    const { db } = database();
    const actor = { userId: null, email: "cli", role: null };
    expect(await roleRequiresTwoFactor(db, "manager")).toBe(true);
    expect(await roleRequiresTwoFactor(db, "driver")).toBe(false);
    await setDriversRequireTwoFactor(db, true, actor, ORIGIN);
    expect(await roleRequiresTwoFactor(db, "driver")).toBe(true);
    await setDriversRequireTwoFactor(db, false, actor, ORIGIN);
    expect(await roleRequiresTwoFactor(db, "driver")).toBe(false);
    const changes = await db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "settings.drivers_two_factor"))
      .orderBy(auditEvents.id);
    expect(changes.map((change) => change.details)).toEqual([
      { old: false, new: true },
      { old: true, new: false },
    ]);
  });
});
