import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailOutbox } from "#app/db/schema.ts";
import { SAMPLE_ORDERS, SAMPLE_STORE } from "#app/demo/email-previews.server.ts";
import { placeOrder } from "#app/features/checkout/place-order.server.ts";
import {
  customerConfirmationEmail,
  shopNotificationEmail,
} from "#app/features/orders/order-emails.server.tsx";
import { describeEachDatabase } from "#tests/db.ts";
import {
  insertTestProduct,
  MONDAY_MORNING,
  oneOf,
  placeOrderInput,
} from "#tests/support/checkout-test-helpers.server.ts";
import { type LoopbackSmtp, startLoopbackSmtp } from "#tests/support/loopback-smtp.ts";
import {
  backoffMs,
  EMAIL_WAKE_DELAY_MS,
  folderTransport,
  type MailTransport,
  processEmailBatch,
  smtpTransport,
  startEmailWorker,
  wakeEmailWorker,
} from "./email-outbox.server.ts";

describe("order e-mail templates", () => {
  // The preview's typical order, with markup in the name and a note.
  const data = { ...SAMPLE_ORDERS.typical, customerName: "Ada <script>", notes: "Ring twice" };

  it.each([
    {
      what: "tells the customer items, total, slot, address, cash and where to see the order",
      render: customerConfirmationEmail,
      texts: [
        "Blue Dream",
        "$85.00",
        "2:00 PM-4:00 PM",
        "1600 Example Ave NW, Washington, DC 20001",
        "Cash on Delivery",
        "https://shop.example/thank-you?order=tok_abcdefghijklmnopqrstuvwxyz0123",
        "Ada &lt;script&gt;",
      ],
      notInHtml: /<script>/,
    },
    {
      what: "gives the shop what staff need and a link to the admin, without the ID image",
      render: shopNotificationEmail,
      texts: ["(202) 555-0100", "ada@example.com", "Ring twice", "https://shop.example/admin/orders"],
      notInHtml: /id-photos|<img/,
    },
  ])("$what", async ({ render, texts, notInHtml }) => {
    const mail = await render(data, SAMPLE_STORE);
    for (const text of texts) {
      expect(mail.html).toContain(text);
      // The text part has no markup to escape.
      expect(mail.text).toContain(text.replace("&lt;", "<").replace("&gt;", ">"));
    }
    expect(mail.html).not.toMatch(notInHtml);
  });

  it("backs off exponentially up to half an hour", () => {
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(backoffMs(20)).toBe(30 * 60_000);
  });
});

describeEachDatabase("the e-mail outbox", (database) => {
  let smtp: LoopbackSmtp;
  let transport: MailTransport;
  beforeAll(async () => {
    smtp = await startLoopbackSmtp({ accepting: false });
    transport = smtpTransport(`smtp://127.0.0.1:${smtp.port}`, { timeoutMs: 5_000 });
  });
  afterAll(async () => {
    transport.close();
    await smtp.close();
  });

  async function placeSome(count: number) {
    const product = await insertTestProduct(database().db, { priceCents: 9000 });
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const result = await placeOrder(placeOrderInput(oneOf(product)), { now: MONDAY_MORNING });
      if (!result.ok) throw new Error("order refused");
      ids.push(result.order.id);
    }
    return ids;
  }

  it("delivers every mail exactly once after an SMTP server that refused for a while accepts", async () => {
    const orderIds = await placeSome(3);
    let now = new Date(MONDAY_MORNING.getTime() + 1000);
    // The server refuses: nothing is lost, everything is scheduled again with a growing delay.
    for (let round = 0; round < 3; round += 1) {
      const result = await processEmailBatch({ now, transport, limit: 50 });
      expect(result.sent).toBe(0);
      expect(result.retried).toBe(6);
      const early = await processEmailBatch({ now, transport, limit: 50 });
      expect(early.retried + early.sent).toBe(0);
      now = new Date(now.getTime() + backoffMs(round + 1) + 1000);
    }
    const waiting = await database()
      .db.select()
      .from(emailOutbox)
      .where(inArray(emailOutbox.orderId, orderIds));
    expect(waiting.every((row) => row.status === "queued" && row.attempts === 3 && row.lastError)).toBe(true);
    expect(smtp.state.refusals).toBeGreaterThanOrEqual(18);

    smtp.state.accepting = true;
    // Two workers at once (as with two app instances) must not send anything twice.
    const [first, second] = await Promise.all([
      processEmailBatch({ now, transport, limit: 3 }),
      processEmailBatch({ now, transport, limit: 3 }),
    ]);
    const rest = await processEmailBatch({ now, transport, limit: 50 });
    expect((first?.sent ?? 0) + (second?.sent ?? 0) + rest.sent).toBe(6);
    const sent = await database().db.select().from(emailOutbox).where(inArray(emailOutbox.orderId, orderIds));
    expect(sent.every((row) => row.status === "sent" && row.attempts === 4)).toBe(true);
    // A mail server took them: the outbox says sent, not written to the folder.
    expect(sent.every((row) => row.sentVia === "smtp")).toBe(true);
    const forTheseOrders = smtp.received.filter((mail) =>
      sent.some((row) => mail.messageId.includes(row.id)),
    );
    expect(forTheseOrders).toHaveLength(6);
    expect(new Set(forTheseOrders.map((mail) => mail.messageId)).size).toBe(6);
    // One confirmation per order to its shopper, one notice per order to the shop.
    expect(
      forTheseOrders.filter((mail) => mail.to.some((to) => /^shopper\d+@example\.com$/.test(to))),
    ).toHaveLength(3);
    // Nothing is left to send.
    expect(await processEmailBatch({ now, transport, limit: 50 })).toEqual({
      sent: 0,
      retried: 0,
      failed: 0,
    });
  });

  it("takes back a row whose sender died mid-send once its lease is over", async () => {
    const [orderId] = await placeSome(1);
    const { db } = database();
    await db
      .update(emailOutbox)
      .set({ status: "sending", lockedUntil: new Date(MONDAY_MORNING.getTime() + 60_000) })
      .where(eq(emailOutbox.orderId, orderId as string));
    const during = await processEmailBatch({ now: new Date(MONDAY_MORNING.getTime() + 30_000), transport });
    expect(during.sent).toBe(0);
    const after = await processEmailBatch({ now: new Date(MONDAY_MORNING.getTime() + 61_000), transport });
    expect(after.sent).toBe(2);
  });

  it("writes mail to an outbox folder when no SMTP server is configured", async () => {
    const [orderId] = await placeSome(1);
    const folder = mkdtempSync(path.join(tmpdir(), "cg-outbox-"));
    try {
      // Other tests' mail was sent already; this order's two are the only due ones.
      const result = await processEmailBatch({ now: MONDAY_MORNING, transport: folderTransport(folder) });
      expect(result.sent).toBe(2);
      const files = readdirSync(folder);
      expect(files.filter((file) => file.endsWith(".eml"))).toHaveLength(2);
      const rows = await database()
        .db.select()
        .from(emailOutbox)
        .where(eq(emailOutbox.orderId, orderId as string));
      for (const row of rows) {
        // Written to the folder, which no mail server took: recorded as such for the outbox screen.
        expect(row.sentVia).toBe("folder");
        const raw = readFileSync(path.join(folder, `${row.id}.eml`), "utf8");
        expect(raw).toContain(`To: ${row.toAddress}`);
        expect(raw).toContain("Content-Type: text/html");
        expect(raw).toContain("Content-Type: text/plain");
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("sends mail shortly after an order wakes the worker, and stops at once", async () => {
    const sent: string[] = [];
    const transport: MailTransport = {
      name: "recording",
      async send(mail) {
        sent.push(mail.id);
      },
      close() {},
    };
    const stop = startEmailWorker({ pollMs: 60_000, transport });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const due = new Date(Date.now() - 1000);
      const rows = await database()
        .db.insert(emailOutbox)
        .values(
          [1, 2, 3].map((n) => ({
            kind: "order-confirmation",
            toAddress: `burst-${n}@example.com`,
            subject: "Burst",
            textBody: "text",
            htmlBody: "<p>html</p>",
            nextAttemptAt: due,
          })),
        )
        .returning({ id: emailOutbox.id });
      const woken = performance.now();
      for (let n = 0; n < 3; n++) wakeEmailWorker();
      await expect
        .poll(() => rows.every((row) => sent.includes(row.id)), { timeout: 5_000, interval: 50 })
        .toBe(true);
      expect(performance.now() - woken).toBeGreaterThanOrEqual(EMAIL_WAKE_DELAY_MS - 20);
    } finally {
      const stopping = performance.now();
      await stop();
      expect(performance.now() - stopping).toBeLessThan(1_000);
    }
  });
});
