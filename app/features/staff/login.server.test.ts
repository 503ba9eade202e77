import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { adminSessions } from "#app/db/schema.ts";
import {
  consumeBudget,
  SIGN_IN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS,
  SIGN_IN_ATTEMPTS_PER_ADDRESS,
} from "#app/features/abuse/rate-limits.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { upsertAdminUser } from "./admin-users.server.ts";
import { isKnownDevice, knownDeviceCookie, readKnownDeviceToken } from "./known-device.server.ts";
import { signIn, throttledMessage } from "./login.server.ts";
import { delayAfterFailures, FREE_FAILURES, MAX_DELAY_SECONDS } from "./login-throttle.server.ts";
import { verifyPassword } from "./passwords.server.ts";
import {
  clearedSessionCookies,
  createSession,
  findSession,
  hashToken,
  SESSION_ABSOLUTE_MS,
  SESSION_COOKIE,
  SESSION_IDLE_MS,
  sessionCookie,
  sessionCookies,
} from "./sessions.server.ts";

describeEachDatabase("admin sign-in", (database) => {
  const password = "correct-horse-battery";

  it("signs in with the right password and refuses a wrong one or an unknown e-mail the same way", async () => {
    const { db } = database();
    await upsertAdminUser(db, "Boss@Shop.test", password);
    const ok = await signIn(db, { email: "boss@shop.test", password, ipAddress: "10.0.0.1" });
    expect(ok.ok).toBe(true);
    if (!ok.ok) return;
    const session = await findSession(db, ok.token);
    expect(session?.email).toBe("boss@shop.test");
    expect(session?.csrfToken).toMatch(/^[\w-]{43}$/);
    // Only the hash is stored.
    const [row] = await db
      .select()
      .from(adminSessions)
      .where(eq(adminSessions.tokenHash, hashToken(ok.token)));
    expect(row).toBeDefined();
    expect(JSON.stringify(row)).not.toContain(ok.token);

    const wrong = await signIn(db, { email: "boss@shop.test", password: "nope-nope", ipAddress: "10.0.0.2" });
    const unknown = await signIn(db, {
      email: "nobody@shop.test",
      password: "nope-nope",
      ipAddress: "10.0.0.3",
    });
    expect(wrong).toEqual({ ok: false, reason: "invalid" });
    expect(unknown).toEqual(wrong);
  });

  it("takes about as long for an unknown e-mail as for a wrong password", async () => {
    const { db } = database();
    await upsertAdminUser(db, "timing@shop.test", password);
    const time = async (email: string, ip: string) => {
      const started = performance.now();
      await signIn(db, { email, password: "wrong-password", ipAddress: ip });
      return performance.now() - started;
    };
    await time("warmup@shop.test", "10.1.0.0");
    const known: number[] = [];
    const unknown: number[] = [];
    // Interleaved and the fastest of several runs each, so a busy machine does not decide.
    for (let i = 0; i < 4; i++) {
      known.push(await time("timing@shop.test", `10.1.1.${i}`));
      unknown.push(await time(`ghost${i}@shop.test`, `10.1.2.${i}`));
    }
    const fastest = (values: number[]) => Math.min(...values);
    // Both pay one argon2id verification; neither answers several times faster than the other.
    expect(fastest(unknown)).toBeGreaterThan(fastest(known) / 4);
    expect(fastest(known)).toBeGreaterThan(fastest(unknown) / 4);
  });

  it("five wrong passwords from one address do not stop the right password from another", async () => {
    const { db } = database();
    await upsertAdminUser(db, "owner@shop.test", password);
    for (let i = 0; i < SIGN_IN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS; i++) {
      const result = await signIn(db, {
        email: "owner@shop.test",
        password: `wrong-${i}`,
        ipAddress: "203.0.113.5",
      });
      expect(result).toEqual({ ok: false, reason: "invalid" });
    }
    // The attacker's address is done for 15 minutes, even with the right password…
    const sixth = await signIn(db, { email: "OWNER@shop.test", password, ipAddress: "203.0.113.5" });
    expect(sixth).toMatchObject({ ok: false, reason: "throttled" });
    if (!sixth.ok && sixth.reason === "throttled") {
      expect(sixth.retryAfterSeconds).toBeGreaterThan(14 * 60);
      expect(sixth.retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
      expect(throttledMessage(sixth.retryAfterSeconds)).toBe(
        "Too many sign-in attempts. Please wait 15 minutes and try again.",
      );
    }
    // …but the owner from anywhere else gets in at once.
    const owner = await signIn(db, { email: "owner@shop.test", password, ipAddress: "198.51.100.7" });
    expect(owner.ok).toBe(true);
  });

  it("counts 40 parallel wrong guesses from one address before checking: at most 5 password checks", async () => {
    const { db } = database();
    await upsertAdminUser(db, "parallel@shop.test", password);
    let checks = 0;
    const verify = async (hash: string, guess: string) => {
      checks += 1;
      return verifyPassword(hash, guess);
    };
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        signIn(
          db,
          { email: "parallel@shop.test", password: `guess-${i}`, ipAddress: "203.0.113.40" },
          { verify },
        ),
      ),
    );
    expect(checks).toBeLessThanOrEqual(SIGN_IN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS);
    expect(results.filter((result) => !result.ok && result.reason === "invalid")).toHaveLength(checks);
    expect(results.filter((result) => !result.ok && result.reason === "throttled")).toHaveLength(40 - checks);
  });

  it("slows an account attacked from many addresses, but not its owner on a known device or address", async () => {
    const { db } = database();
    const email = "attacked@shop.test";
    await upsertAdminUser(db, email, password);
    // The owner signed in before, from home, and the browser kept its known-device cookie.
    expect((await signIn(db, { email, password, ipAddress: "192.0.2.10" })).ok).toBe(true);
    const cookie = await knownDeviceCookie(db, email);
    const knownDeviceToken = readKnownDeviceToken(
      new Request("http://localhost/admin/login", { headers: { Cookie: cookie.split(";")[0] as string } }),
    );
    expect(knownDeviceToken).not.toBeNull();
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("Path=/admin/login");

    // Five failures from five addresses cost nothing more; from then on, one attempt per delay.
    for (let i = 0; i < FREE_FAILURES; i++) {
      const result = await signIn(db, { email, password: "wrong-guess", ipAddress: `203.0.113.${100 + i}` });
      expect(result).toEqual({ ok: false, reason: "invalid" });
    }
    // An attack that went on for a while: 10 failures in the last hour (32 s between attempts).
    await consumeBudget("signInAccountFailures", email, { points: 5 });
    expect(delayAfterFailures(10)).toBe(32);
    const first = await signIn(db, { email, password: "wrong-guess", ipAddress: "203.0.113.120" });
    expect(first).toEqual({ ok: false, reason: "invalid" });
    const next = await signIn(db, { email, password: "wrong-guess", ipAddress: "203.0.113.121" });
    expect(next).toMatchObject({ ok: false, reason: "throttled" });
    if (!next.ok && next.reason === "throttled") {
      expect(next.retryAfterSeconds).toBeGreaterThan(25);
      expect(next.retryAfterSeconds).toBeLessThanOrEqual(32);
    }
    // The right password from an unknown device and address waits like everyone else…
    const stranger = await signIn(db, { email, password, ipAddress: "198.51.100.99" });
    expect(stranger).toMatchObject({ ok: false, reason: "throttled" });
    // …while the owner's browser and the owner's usual address get straight in.
    const onKnownDevice = await signIn(db, {
      email,
      password,
      ipAddress: "198.51.100.100",
      knownDeviceToken,
    });
    expect(onKnownDevice.ok).toBe(true);
    const fromKnownAddress = await signIn(db, { email, password, ipAddress: "192.0.2.10" });
    expect(fromKnownAddress.ok).toBe(true);
    // A cookie of another account, or a forged one, is no key.
    const forged = `${knownDeviceToken?.slice(0, -4)}AAAA`;
    expect(await isKnownDevice(db, forged, email)).toBe(false);
    expect(await isKnownDevice(db, knownDeviceToken, "someone-else@shop.test")).toBe(false);
    expect(delayAfterFailures(100)).toBe(MAX_DELAY_SECONDS);
  });

  it("clears an address's count for an account when it signs in, and refuses an address trying many accounts", async () => {
    const { db } = database();
    await upsertAdminUser(db, "typo@shop.test", password);
    for (let i = 0; i < 4; i++) {
      await signIn(db, { email: "typo@shop.test", password: "tpyo-password", ipAddress: "192.0.2.50" });
    }
    expect((await signIn(db, { email: "typo@shop.test", password, ipAddress: "192.0.2.50" })).ok).toBe(true);
    for (let i = 0; i < 4; i++) {
      const again = await signIn(db, {
        email: "typo@shop.test",
        password: "tpyo-again",
        ipAddress: "192.0.2.50",
      });
      expect(again).toEqual({ ok: false, reason: "invalid" });
    }

    for (let i = 0; i < SIGN_IN_ATTEMPTS_PER_ADDRESS; i++) {
      const guess = await signIn(db, {
        email: `guess${i}@shop.test`,
        password: "x-wrong",
        ipAddress: "203.0.113.9",
      });
      expect(guess).toEqual({ ok: false, reason: "invalid" });
    }
    await upsertAdminUser(db, "victim@shop.test", password);
    const attempt = await signIn(db, { email: "victim@shop.test", password, ipAddress: "203.0.113.9" });
    expect(attempt).toMatchObject({ ok: false, reason: "throttled" });
    const elsewhere = await signIn(db, { email: "victim@shop.test", password, ipAddress: "198.51.100.1" });
    expect(elsewhere.ok).toBe(true);
  });

  it("lets the owner's known device in from an address an attacker spent, counting it on the account only", async () => {
    const { db } = database();
    const email = "shared-wifi@shop.test";
    await upsertAdminUser(db, email, password);
    const shared = "203.0.113.77";
    expect((await signIn(db, { email, password, ipAddress: "192.0.2.77" })).ok).toBe(true);
    const cookie = await knownDeviceCookie(db, email);
    const knownDeviceToken = readKnownDeviceToken(
      new Request("http://localhost/admin/login", { headers: { Cookie: cookie.split(";")[0] as string } }),
    );
    // Someone on the owner's network spends the address's whole budget, on the owner's account too.
    for (let i = 0; i < SIGN_IN_ATTEMPTS_PER_ADDRESS; i++) {
      await signIn(db, {
        email: i % 2 ? email : `someone${i}@shop.test`,
        password: "spent-guess",
        ipAddress: shared,
      });
    }
    const stranger = await signIn(db, { email, password, ipAddress: shared });
    expect(stranger).toMatchObject({ ok: false, reason: "throttled" });
    // The owner's browser still gets in from that address, and spent nothing of it.
    const owner = await signIn(db, { email, password, ipAddress: shared, knownDeviceToken });
    expect(owner.ok).toBe(true);
    expect(await signIn(db, { email: "other@shop.test", password, ipAddress: shared })).toMatchObject({
      reason: "throttled",
    });
    // Its own attempts are counted against its account: 5 in 15 minutes, wherever they come from.
    for (let i = 0; i < SIGN_IN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS; i++) {
      const wrong = await signIn(db, {
        email,
        password: "owner-typo",
        ipAddress: `198.51.100.${10 + i}`,
        knownDeviceToken,
      });
      expect(wrong).toEqual({ ok: false, reason: "invalid" });
    }
    const sixth = await signIn(db, { email, password, ipAddress: "198.51.100.20", knownDeviceToken });
    expect(sixth).toMatchObject({ ok: false, reason: "throttled" });
  });
});

describeEachDatabase("admin sessions", (database) => {
  it("ends a session after 2 idle hours and after 12 hours in any case; slides while in use", async () => {
    const { db } = database();
    const { id } = await upsertAdminUser(db, "session@shop.test", "session-password-1");
    const t0 = new Date("2026-11-22T08:00:00Z");
    const idle = await createSession(db, id, { now: t0 });
    expect(await findSession(db, idle.token, new Date(t0.getTime() + SESSION_IDLE_MS + 1000))).toBeNull();
    // Gone for good once expired.
    expect(await findSession(db, idle.token, new Date(t0.getTime() + 1000))).toBeNull();

    const busy = await createSession(db, id, { now: t0 });
    let at = t0.getTime();
    while (at + SESSION_IDLE_MS / 2 < t0.getTime() + SESSION_ABSOLUTE_MS) {
      at += SESSION_IDLE_MS / 2;
      expect(await findSession(db, busy.token, new Date(at))).not.toBeNull();
    }
    expect(await findSession(db, busy.token, new Date(t0.getTime() + SESSION_ABSOLUTE_MS + 1))).toBeNull();
  });

  it("rotates the token at sign-in: the previous session no longer works", async () => {
    const { db } = database();
    const { id } = await upsertAdminUser(db, "rotate@shop.test", "rotate-password-1");
    const first = await createSession(db, id);
    const second = await createSession(db, id, { previousToken: first.token });
    expect(second.token).not.toBe(first.token);
    expect(await findSession(db, first.token)).toBeNull();
    expect(await findSession(db, second.token)).not.toBeNull();
    expect(await findSession(db, undefined)).toBeNull();
    expect(await findSession(db, "x".repeat(43))).toBeNull();
  });

  it("writes an HttpOnly, SameSite=Lax cookie scoped to /admin", () => {
    const cookie = sessionCookie("a".repeat(43));
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/admin");
  });

  it("sets and clears the same token on /admin and on the driver's run only, never the storefront", () => {
    const paths = (cookies: string[]) => cookies.map((cookie) => /Path=([^;]+)/.exec(cookie)?.[1]);
    const set = sessionCookies("a".repeat(43));
    expect(paths(set)).toEqual(["/admin", "/driver"]);
    expect(set.every((cookie) => cookie.startsWith(`${SESSION_COOKIE}=${"a".repeat(43)};`))).toBe(true);
    const cleared = clearedSessionCookies();
    expect(paths(cleared)).toEqual(["/admin", "/driver"]);
    expect(cleared.every((cookie) => cookie.includes("Max-Age=0"))).toBe(true);
  });
});
