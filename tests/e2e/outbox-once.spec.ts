import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { inArray } from "drizzle-orm";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { emailOutbox } from "#app/db/schema.ts";
import { type RunningApp, startApp } from "../support/app-server.ts";
import { type ReceivedMail, startLoopbackSmtp } from "../support/loopback-smtp.ts";
import { createThrowawayDatabase } from "../support/throwaway-database.ts";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

async function queueMails(handle: DatabaseHandle, label: string, count: number) {
  const rows = await handle.db
    .insert(emailOutbox)
    .values(
      Array.from({ length: count }, (_, n) => ({
        kind: "order-confirmation",
        toAddress: `customer-${n}@example.com`,
        subject: `${label} ${n}`,
        textBody: "Thank you for your order.",
        htmlBody: "<p>Thank you for your order.</p>",
      })),
    )
    .returning({ id: emailOutbox.id });
  return rows.map((row) => row.id);
}

async function waitUntilSent(handle: DatabaseHandle, ids: string[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await handle.db
      .select({ status: emailOutbox.status })
      .from(emailOutbox)
      .where(inArray(emailOutbox.id, ids));
    if (rows.every((row) => row.status === "sent")) return;
    if (Date.now() > deadline) throw new Error(`not all sent: ${JSON.stringify(rows.map((r) => r.status))}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function perSubject(delivered: ReceivedMail[], label: string) {
  const bySubject = new Map<string, ReceivedMail[]>();
  for (const delivery of delivered.filter((d) => d.subject.startsWith(`${label} `))) {
    bySubject.set(delivery.subject, [...(bySubject.get(delivery.subject) ?? []), delivery]);
  }
  return bySubject;
}

// Record 016: two instances on one PostgreSQL, a slow SMTP server, 80 queued mails.
test.describe("each e-mail is sent once", () => {
  test.skip(!TEST_DATABASE_URL, "needs TEST_DATABASE_URL (PostgreSQL)");

  test("two instances, 5 s per message and a lease shorter than a send: each mail delivered exactly once; a kill -9 mid-send re-sends at most one, under the same Message-ID", async () => {
    test.setTimeout(180_000);
    const database = await createThrowawayDatabase(TEST_DATABASE_URL as string, "cg_outbox");
    // Each message takes 5 s before the server accepts it.
    const smtp = await startLoopbackSmtp({ delayMs: 5_000 });
    const helper = await openDatabase({
      kind: "postgres",
      url: database.url,
      applicationName: "cg-test-helper",
    });
    const apps: RunningApp[] = [];
    const sharedPhotoKey = randomBytes(32).toString("base64");
    const startInstance = async (concurrency: number) => {
      const app = await startApp({
        buildDir: process.env.E2E_BUILD_DIR as string,
        env: {
          DATABASE_URL: database.url,
          // Instances sharing a database share its ID photo key (record 014).
          ID_PHOTO_KEY: sharedPhotoKey,
          SEED_DEMO: "false",
          SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
          // Far shorter than one send: only the lease extension keeps the other instance off a mail.
          OUTBOX_LEASE_SECONDS: "2",
          OUTBOX_CONCURRENCY: String(concurrency),
        },
      });
      apps.push(app);
      return app;
    };
    try {
      // 1. Both instances, 8 parallel sends each, 5 s per message.
      const first = await queueMails(helper, "Slow", 80);
      await Promise.all([startInstance(8), startInstance(8)]);
      await waitUntilSent(helper, first, 90_000);
      const slow = perSubject(smtp.received, "Slow");
      expect(slow.size).toBe(80);
      expect([...slow.values()].filter((copies) => copies.length > 1).map((c) => c[0]?.subject)).toEqual([]);
      expect(new Set([...slow.values()].map((copies) => copies[0]?.messageId)).size).toBe(80);
      await Promise.all(apps.splice(0).map((app) => app.stop()));

      // 2. One sender at a time per instance; instance A is killed with -9 in the middle of a send.
      smtp.state.delayMs = 250;
      const second = await queueMails(helper, "Crash", 80);
      const [victim] = await Promise.all([startInstance(1), startInstance(1)]);
      const deliveredBefore = () => perSubject(smtp.received, "Crash").size;
      while (deliveredBefore() < 10) await new Promise((resolve) => setTimeout(resolve, 50));
      if (!victim) throw new Error("no instance");
      apps.splice(apps.indexOf(victim), 1);
      process.kill(-(victim.process.pid as number), "SIGKILL");
      await waitUntilSent(helper, second, 90_000);
      const crash = perSubject(smtp.received, "Crash");
      expect(crash.size).toBe(80);
      const twice = [...crash.values()].filter((copies) => copies.length > 1);
      expect(twice.length).toBeLessThanOrEqual(1);
      for (const copies of twice) {
        expect(copies).toHaveLength(2);
        expect(copies[1]?.messageId).toBe(copies[0]?.messageId);
      }
      console.log(`outbox: after kill -9, ${twice.length} mail(s) delivered twice`);
    } finally {
      await Promise.all(apps.map((app) => app.stop()));
      await helper.close();
      await smtp.close();
      await database.drop();
    }
  });
});
