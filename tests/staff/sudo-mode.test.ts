/**
 * Sensitive staff changes ask again (record 037), through the app's own request handling on both
 * databases: a session whose last password-and-code check is older than 10 minutes cannot set up a
 * new authenticator, make new recovery codes, turn two-factor off or change the password until it
 * confirms both again; an owner's role change, two-factor reset, password reset (command line) and
 * deactivation end every session of that person; and a member ends any one of their own sessions.
 */
import { and, eq } from "drizzle-orm";
import * as OTPAuth from "otpauth";
import { beforeAll, expect, it } from "vitest";
import {
  adminRecoveryCodes,
  adminSessions,
  adminUsers,
  auditEvents,
  type StaffRole,
} from "#app/db/schema.ts";
import { COMMAND_LINE_ORIGIN } from "#app/features/audit/audit.server.ts";
import { idPhotoKeyring } from "#app/features/keyring/id-photo-crypto.server.ts";
import { upsertAdminUser } from "#app/features/staff/admin-users.server.ts";
import {
  createSession,
  findSession,
  hashToken,
  SESSION_COOKIE,
} from "#app/features/staff/sessions.server.ts";
import { newTotpSecret } from "#app/features/staff/totp.server.ts";
import { confirmEnrolment } from "#app/features/staff/two-factor.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { type InProcessApp, inProcessApp } from "#tests/support/in-process-app.ts";
import { pageRequest, postRequest } from "./support.ts";

const PASSWORD = "correct-horse-battery-staple";
const codeAt = (secret: string, at: number) =>
  OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp: at });

describeEachDatabase("sudo mode and ending sessions", (database) => {
  let app: InProcessApp;
  let counter = 0;

  beforeAll(async () => {
    app = await inProcessApp();
  });

  /** A member with a real password and, unless a driver without one, a confirmed second factor. */
  async function member(role: StaffRole, twoFactor = true) {
    const { db } = database();
    const email = `sudo-${role}-${++counter}-${Math.random().toString(36).slice(2, 7)}@shop.test`;
    const { id } = await upsertAdminUser(db, email, PASSWORD);
    await db.update(adminUsers).set({ role }).where(eq(adminUsers.id, id));
    if (!twoFactor) return { id, email, secret: "", recoveryCodes: [] as string[] };
    const secret = newTotpSecret();
    // Enrolled two minutes ago: the current code's step is still unused.
    const at = Date.now() - 2 * 60_000;
    const enrolled = await confirmEnrolment(db, idPhotoKeyring(), {
      userId: id,
      secret,
      code: codeAt(secret, at),
      actor: { userId: id, email, role },
      origin: COMMAND_LINE_ORIGIN,
      now: new Date(at),
    });
    if (!enrolled.ok) throw new Error("enrolment failed");
    return { id, email, secret, recoveryCodes: enrolled.recoveryCodes };
  }

  /** A session that signed in `minutesAgo` minutes ago (and has not been re-checked since). */
  async function sessionOf(userId: string, minutesAgo: number) {
    const { db } = database();
    const { token, csrfToken } = await createSession(db, userId, {
      now: new Date(Date.now() - minutesAgo * 60_000),
      userAgent: `Browser ${minutesAgo}`,
    });
    return { token, cookie: `${SESSION_COOKIE}=${token}`, csrfToken };
  }

  const recoveryHashes = async (userId: string) =>
    (
      await database()
        .db.select({ hash: adminRecoveryCodes.codeHash })
        .from(adminRecoveryCodes)
        .where(eq(adminRecoveryCodes.userId, userId))
    )
      .map((row) => row.hash)
      .sort();

  it("refuses second-factor and password changes from a session not re-checked in 10 minutes", async () => {
    const { db } = database();
    const manager = await member("manager");
    // Signed in 11 minutes ago: just past the 10-minute window.
    const stale = await sessionOf(manager.id, 11);
    const codesBefore = await recoveryHashes(manager.id);
    const [before] = await db.select().from(adminUsers).where(eq(adminUsers.id, manager.id));

    const account = await (await app(pageRequest("/admin/account", stale.cookie))).text();
    expect(account).toContain("Confirm it&#x27;s you");
    expect(account).not.toContain("New recovery codes");
    expect(account).not.toContain('name="confirmPassword"');

    const codes = await app(postRequest("/admin/account", stale, { intent: "recovery-codes" }));
    expect(codes.status).toBe(403);
    expect(await codes.text()).not.toContain('data-testid="recovery-codes"');
    const password = await app(
      postRequest("/admin/account", stale, {
        intent: "change-password",
        currentPassword: PASSWORD,
        password: "Window-Basil-Orbit-42",
        confirmPassword: "Window-Basil-Orbit-42",
      }),
    );
    expect(password.status).toBe(403);

    // The enrolment page shows no secret, and a new authenticator is not taken.
    const setupPage = await (await app(pageRequest("/admin/account/two-factor", stale.cookie))).text();
    expect(setupPage).toContain("Confirm it&#x27;s you");
    expect(setupPage).not.toContain('data-testid="totp-secret"');
    const enrol = await app(
      postRequest("/admin/account/two-factor", stale, { pending: "anything", code: "123456" }),
    );
    expect(enrol.status).toBe(403);

    const [after] = await db.select().from(adminUsers).where(eq(adminUsers.id, manager.id));
    expect(after?.passwordHash).toBe(before?.passwordHash);
    expect(after?.totpSecretSealed).toEqual(before?.totpSecretSealed);
    expect(await recoveryHashes(manager.id)).toEqual(codesBefore);

    // A right password with a wrong code, or a wrong password with a right code, opens nothing.
    const wrongCode = await app(
      postRequest("/admin/account", stale, { intent: "confirm-access", password: PASSWORD, code: "000000" }),
    );
    expect(wrongCode.status).toBe(401);
    const wrongPassword = await app(
      postRequest("/admin/account", stale, {
        intent: "confirm-access",
        password: "not-the-password",
        code: codeAt(manager.secret, Date.now()),
      }),
    );
    expect(wrongPassword.status).toBe(401);
    expect((await app(postRequest("/admin/account", stale, { intent: "recovery-codes" }))).status).toBe(403);

    // Password and a current code: sensitive changes open for this session, for 10 minutes.
    const confirmed = await app(
      postRequest("/admin/account", stale, {
        intent: "confirm-access",
        password: PASSWORD,
        code: codeAt(manager.secret, Date.now() + 30_000),
      }),
    );
    expect(confirmed.status).toBe(302);
    const fresh = await app(postRequest("/admin/account", stale, { intent: "recovery-codes" }));
    expect(fresh.status).toBe(200);
    expect(await recoveryHashes(manager.id)).not.toEqual(codesBefore);
    const setupNow = await (await app(pageRequest("/admin/account/two-factor", stale.cookie))).text();
    expect(setupNow).toContain('data-testid="totp-secret"');
    const [event] = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "session.reauthenticated"), eq(auditEvents.actorId, manager.id)));
    expect(event?.details).toEqual({ method: "totp" });

    // Another stale session of the same member is still asked: the window is per session.
    const other = await sessionOf(manager.id, 30);
    expect((await app(postRequest("/admin/account", other, { intent: "recovery-codes" }))).status).toBe(403);
  });

  it("takes a recovery code for the re-check, and a driver without a second factor gives the password", async () => {
    const manager = await member("manager");
    const stale = await sessionOf(manager.id, 20);
    const viaRecovery = await app(
      postRequest("/admin/account/two-factor", stale, {
        intent: "confirm-access",
        password: PASSWORD,
        code: manager.recoveryCodes[0] as string,
      }),
    );
    expect(viaRecovery.status).toBe(302);
    expect(viaRecovery.headers.get("Location")).toBe("/admin/account/two-factor");
    const setup = await (await app(pageRequest("/admin/account/two-factor", stale.cookie))).text();
    expect(setup).toContain('data-testid="totp-secret"');

    const driver = await member("driver", false);
    const driverSession = await sessionOf(driver.id, 15);
    const change = {
      intent: "change-password",
      currentPassword: PASSWORD,
      password: "Window-Basil-Orbit-42",
      confirmPassword: "Window-Basil-Orbit-42",
    };
    expect((await app(postRequest("/admin/account", driverSession, change))).status).toBe(403);
    const confirm = await app(
      postRequest("/admin/account", driverSession, { intent: "confirm-access", password: PASSWORD }),
    );
    expect(confirm.status).toBe(302);
    expect((await app(postRequest("/admin/account", driverSession, change))).status).toBe(200);
  });

  it("lets a driver turn their optional second factor off only after the re-check", async () => {
    const { db } = database();
    const driver = await member("driver");
    const stale = await sessionOf(driver.id, 11);
    expect((await app(postRequest("/admin/account", stale, { intent: "turn-off-two-factor" }))).status).toBe(
      403,
    );
    let [row] = await db.select().from(adminUsers).where(eq(adminUsers.id, driver.id));
    expect(row?.totpEnabledAt).not.toBeNull();
    const confirm = await app(
      postRequest("/admin/account", stale, {
        intent: "confirm-access",
        password: PASSWORD,
        code: codeAt(driver.secret, Date.now()),
      }),
    );
    expect(confirm.status).toBe(302);
    const off = await app(postRequest("/admin/account", stale, { intent: "turn-off-two-factor" }));
    expect(off.status).toBe(302);
    [row] = await db.select().from(adminUsers).where(eq(adminUsers.id, driver.id));
    expect(row?.totpEnabledAt).toBeNull();
    // Their own session stays; a manager's role refuses it.
    expect(await findSession(db, stale.token)).not.toBeNull();
    const manager = await member("manager");
    const managerSession = await sessionOf(manager.id, 0);
    const refused = await app(
      postRequest("/admin/account", managerSession, { intent: "turn-off-two-factor" }),
    );
    expect(refused.status).toBe(400);
  });

  it("allows 5 wrong re-checks per 15 minutes, then refuses even the right password", async () => {
    const manager = await member("manager");
    const stale = await sessionOf(manager.id, 12);
    for (let i = 0; i < 5; i++) {
      const wrong = await app(
        postRequest("/admin/account", stale, {
          intent: "confirm-access",
          password: `guess-${i}`,
          code: "000000",
        }),
      );
      expect(wrong.status).toBe(401);
    }
    const right = await app(
      postRequest("/admin/account", stale, {
        intent: "confirm-access",
        password: PASSWORD,
        code: codeAt(manager.secret, Date.now()),
      }),
    );
    expect(right.status).toBe(429);
    expect(await right.text()).toContain("Too many tries");
  });

  it("ends every session of a member whose role, second factor or password an owner changes", async () => {
    const { db } = database();
    const owner = await member("owner");
    const ownerSession = await sessionOf(owner.id, 0);
    const sessionsOf = async (userId: string) =>
      db.select().from(adminSessions).where(eq(adminSessions.userId, userId));

    const manager = await member("manager");
    const phone = await sessionOf(manager.id, 1);
    await sessionOf(manager.id, 2);
    const role = await app(
      postRequest("/admin/staff", ownerSession, {
        intent: "change-role",
        userId: manager.id,
        role: "driver",
      }),
    );
    expect(role.status).toBeLessThan(400);
    expect(await sessionsOf(manager.id)).toEqual([]);
    expect(await findSession(db, phone.token)).toBeNull();

    const other = await member("manager");
    await sessionOf(other.id, 1);
    await sessionOf(other.id, 3);
    const reset = await app(
      postRequest("/admin/staff", ownerSession, { intent: "reset-two-factor", userId: other.id }),
    );
    expect(reset.status).toBeLessThan(400);
    expect(await sessionsOf(other.id)).toEqual([]);

    // The password reset on the server's command line (`npm run admin:create`).
    await sessionOf(other.id, 1);
    await upsertAdminUser(db, other.email, "Another-Window-Basil-7");
    expect(await sessionsOf(other.id)).toEqual([]);

    const third = await member("driver", false);
    await sessionOf(third.id, 1);
    const deactivate = await app(
      postRequest("/admin/staff", ownerSession, { intent: "deactivate", userId: third.id }),
    );
    expect(deactivate.status).toBeLessThan(400);
    expect(await sessionsOf(third.id)).toEqual([]);
    // The owner's own session is untouched.
    expect(await findSession(db, ownerSession.token)).not.toBeNull();
  });

  it("lists one's own sessions and ends any one of them, never someone else's", async () => {
    const { db } = database();
    const manager = await member("manager");
    const here = await sessionOf(manager.id, 0);
    const laptop = await sessionOf(manager.id, 5);
    const tablet = await sessionOf(manager.id, 9);
    const stranger = await member("manager");
    const strangers = await sessionOf(stranger.id, 1);

    const page = await (await app(pageRequest("/admin/account", here.cookie))).text();
    const handles = [...page.matchAll(/name="session" value="([0-9a-f]{16})"/g)].map((match) => match[1]);
    expect(handles.sort()).toEqual(
      [hashToken(laptop.token).slice(0, 16), hashToken(tablet.token).slice(0, 16)].sort(),
    );

    const end = await app(
      postRequest("/admin/account", here, {
        intent: "end-session",
        session: hashToken(laptop.token).slice(0, 16),
      }),
    );
    expect(end.status).toBe(200);
    expect(await findSession(db, laptop.token)).toBeNull();
    expect(await findSession(db, tablet.token)).not.toBeNull();
    expect(await findSession(db, here.token)).not.toBeNull();

    // Another member's session, or one's own current one, cannot be ended this way.
    const theirs = await app(
      postRequest("/admin/account", here, {
        intent: "end-session",
        session: hashToken(strangers.token).slice(0, 16),
      }),
    );
    expect(theirs.status).toBe(404);
    expect(await findSession(db, strangers.token)).not.toBeNull();
    const mine = await app(
      postRequest("/admin/account", here, {
        intent: "end-session",
        session: hashToken(here.token).slice(0, 16),
      }),
    );
    expect(mine.status).toBe(404);
    expect(await findSession(db, here.token)).not.toBeNull();
  });
});
