import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { adminSessions } from "#app/db/schema.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { upsertAdminUser } from "./admin-users.server.ts";
import { lockedMessage, signIn } from "./login.server.ts";
import { MAX_FAILED_ATTEMPTS, THROTTLE_WINDOW_MS } from "./login-throttle.server.ts";
import {
  createSession,
  findSession,
  hashToken,
  SESSION_ABSOLUTE_MS,
  SESSION_IDLE_MS,
  sessionCookie,
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

  it("refuses the 6th attempt within 15 minutes even with the right password, then lets it through later", async () => {
    const { db } = database();
    await upsertAdminUser(db, "locked@shop.test", password);
    const start = new Date("2026-11-22T10:00:00Z");
    for (let i = 0; i < MAX_FAILED_ATTEMPTS; i++) {
      const at = new Date(start.getTime() + i * 60_000);
      const result = await signIn(db, {
        email: "locked@shop.test",
        password: `wrong-${i}`,
        ipAddress: `10.2.0.${i}`,
        now: at,
      });
      expect(result).toEqual({ ok: false, reason: "invalid" });
    }
    const sixth = await signIn(db, {
      email: "LOCKED@shop.test",
      password,
      ipAddress: "10.2.1.1",
      now: new Date(start.getTime() + 6 * 60_000),
    });
    expect(sixth.ok).toBe(false);
    expect(sixth).toMatchObject({ reason: "locked" });
    if (!sixth.ok && sixth.reason === "locked") {
      expect(sixth.retryAfterMs).toBe(THROTTLE_WINDOW_MS - 6 * 60_000);
      expect(lockedMessage(sixth.retryAfterMs)).toBe(
        "Too many failed sign-in attempts. Please wait 9 minutes and try again.",
      );
    }
    const later = await signIn(db, {
      email: "locked@shop.test",
      password,
      ipAddress: "10.2.1.1",
      now: new Date(start.getTime() + 4 * 60_000 + THROTTLE_WINDOW_MS + 1000),
    });
    expect(later.ok).toBe(true);
  });

  it("locks out one address trying many accounts", async () => {
    const { db } = database();
    await upsertAdminUser(db, "victim@shop.test", password);
    const now = new Date("2026-11-22T12:00:00Z");
    for (let i = 0; i < MAX_FAILED_ATTEMPTS; i++) {
      await signIn(db, { email: `guess${i}@shop.test`, password: "x-wrong", ipAddress: "203.0.113.9", now });
    }
    const attempt = await signIn(db, { email: "victim@shop.test", password, ipAddress: "203.0.113.9", now });
    expect(attempt).toMatchObject({ ok: false, reason: "locked" });
    const elsewhere = await signIn(db, {
      email: "victim@shop.test",
      password,
      ipAddress: "198.51.100.1",
      now,
    });
    expect(elsewhere.ok).toBe(true);
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
});
