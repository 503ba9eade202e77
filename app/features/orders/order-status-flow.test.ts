/**
 * The order status flow against a real database (both drivers): the status flow with a customer
 * e-mail per change delivered to a real loopback SMTP server, the timeline, the customer's own
 * cancellation, reopening, the search and the CSV export.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { eq, sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { backupDatabase, restoreDatabase } from "#app/db/backup.server.ts";
import { emailOutbox, productSizes } from "#app/db/schema.ts";
import { placeOrder } from "#app/features/checkout/place-order.server.ts";
import {
  type MailTransport,
  processEmailBatch,
  smtpTransport,
  startEmailWorker,
} from "#app/features/email/email-outbox.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import {
  insertTestProduct,
  MONDAY_MORNING,
  oneOf,
  placeOrderInput,
  slotBookingsDrift,
  stockOf,
} from "#tests/support/checkout-test-helpers.server.ts";
import {
  applyOrderAction,
  CUSTOMER_CANCEL_REASON,
  cancelOrderByCustomer,
  listOrders,
  setOrderStatus,
} from "./admin-orders.server.ts";
import { getOrderById, getOrderTimeline } from "./orders.server.ts";
import { CSV_COLUMNS, ordersCsvStream } from "./orders-export.server.ts";

type Received = { to: string[]; subject: string; raw: string };

/** The text/plain part of a message as the outbox composes it (base64 parts, `mime.server.ts`). */
function plainTextOf(raw: string) {
  const part =
    /Content-Type: text\/plain[^\n]*\r?\nContent-Transfer-Encoding: base64\r?\n\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(
      raw,
    );
  return part?.[1] ? Buffer.from(part[1].replace(/\s/g, ""), "base64").toString("utf8") : "";
}

function startSmtp() {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const subject = /^Subject:\s*(.+)$/im.exec(raw)?.[1]?.trim() ?? "";
        received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), subject, raw });
        callback();
      });
    },
  });
  return new Promise<{ port: number; received: Received[]; close: () => Promise<void> }>((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.server.address();
      resolve({
        port: typeof address === "object" && address ? address.port : 0,
        received,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

const later = (minutes: number) => new Date(MONDAY_MORNING.getTime() + minutes * 60_000);

describeEachDatabase("order status flow", (database) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let transport: MailTransport;
  beforeAll(async () => {
    smtp = await startSmtp();
    transport = smtpTransport(`smtp://127.0.0.1:${smtp.port}`, { timeoutMs: 5_000 });
  });
  afterAll(async () => {
    transport.close();
    await smtp.close();
  });

  async function place(
    stock = 20,
    overrides: { name?: string; email?: string; phone?: string } = {},
    quantity = 2,
  ) {
    const product = await insertTestProduct(database().db, {
      priceCents: 4500,
      inventoryCount: stock,
      name: `Flow Kush ${Math.random().toString(36).slice(2, 8)}`,
    });
    const input = {
      ...placeOrderInput([{ productId: product.productId, sizeId: product.sizeId, quantity }], {
        email: overrides.email,
        phone: overrides.phone,
      }),
      ...(overrides.name ? { name: overrides.name } : {}),
    };
    const result = await placeOrder(input, { now: MONDAY_MORNING });
    if (!result.ok) throw new Error(`order refused: ${result.reason}`);
    return { ...result.order, product, email: input.email, phone: input.phone };
  }

  it("moves pending → confirmed → out for delivery → delivered, e-mailing the customer at each step", async () => {
    const order = await place();
    // Not a move the flow has: confirming twice, and cancelling a delivered order, change nothing.
    for (const [action, minutes, changed] of [
      ["confirm", 10, true],
      ["confirm", 11, false],
      ["out-for-delivery", 20, true],
      ["deliver", 30, true],
      ["cancel", 31, false],
    ] as const) {
      expect(await applyOrderAction(order.id, action, { now: later(minutes) }), action).toEqual({
        ok: true,
        changed,
      });
    }

    const view = await getOrderById(order.id);
    expect(view?.status).toBe("delivered");
    const timeline = await getOrderTimeline(view as NonNullable<typeof view>);
    expect(timeline.map((step) => [step.status, step.at])).toEqual([
      ["pending", MONDAY_MORNING.toISOString()],
      ["confirmed", later(10).toISOString()],
      ["out_for_delivery", later(20).toISOString()],
      ["delivered", later(30).toISOString()],
    ]);

    const queued = await database()
      .db.select()
      .from(emailOutbox)
      .where(eq(emailOutbox.orderId, order.id))
      .orderBy(emailOutbox.createdAt);
    expect(queued.map((row) => row.kind)).toEqual([
      "order-confirmation",
      "order-notification",
      "order-confirmed",
      "order-out-for-delivery",
      "order-delivered",
    ]);
    const short = order.id.slice(0, 8);
    const sent = await processEmailBatch({ now: later(40), transport, limit: 100 });
    expect(sent.failed).toBe(0);
    const mine = smtp.received.filter((mail) => mail.to.includes(order.email));
    const subjects = mine.map((mail) => mail.subject);
    expect(subjects).toContain("Your order is confirmed for Mon, Nov 23, 10:00 AM-12:00 PM");
    expect(subjects).toContain(`Your order is on its way (#${short})`);
    expect(subjects).toContain(`Delivered: your receipt for order #${short}`);
    const receipt = mine.find((mail) => mail.subject.startsWith("Delivered"));
    const receiptText = plainTextOf(receipt?.raw ?? "");
    expect(receiptText).toContain("Paid in cash: $90.00");
    expect(receiptText).toContain("/thank-you?order=");
  });

  it("sends the status e-mail at once: the change wakes the worker instead of leaving it to the 5 s poll", async () => {
    const order = await place();
    const stop = startEmailWorker({ pollMs: 5_000, transport });
    try {
      // The worker's first look at the outbox (the placed order's own e-mails) is over.
      await expect
        .poll(() => smtp.received.some((mail) => mail.to.includes(order.email)), {
          timeout: 5_000,
          interval: 20,
        })
        .toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const changed = performance.now();
      expect(await applyOrderAction(order.id, "confirm")).toEqual({ ok: true, changed: true });
      await expect
        .poll(
          () => smtp.received.some((mail) => mail.to.includes(order.email) && /confirmed/.test(mail.subject)),
          {
            timeout: 4_000,
            interval: 20,
          },
        )
        .toBe(true);
      expect(performance.now() - changed).toBeLessThan(1_500);
    } finally {
      await stop();
    }
  });

  it("e-mails the reason of a cancellation in plain words and keeps 'Other' text", async () => {
    const order = await place();
    expect(
      await applyOrderAction(order.id, "cancel", { cancelReason: "No valid ID", now: later(5) }),
    ).toEqual({ ok: true, changed: true });
    const [mail] = await database()
      .db.select()
      .from(emailOutbox)
      .where(eq(emailOutbox.kind, "order-cancelled"))
      .orderBy(sql`${emailOutbox.createdAt} desc`)
      .limit(1);
    expect(mail?.toAddress).toBe(order.email);
    expect(mail?.textBody).toContain("we could not check a valid ID showing you are 21 or older");
    expect((await getOrderById(order.id))?.cancelReason).toBe("No valid ID");
  });

  it("lets the customer cancel a pending order: stock back, the shop told, only once", async () => {
    const order = await place(10, {}, 3);
    expect(await stockOf(database().db, order.product.sizeId)).toBe(7);
    expect(await cancelOrderByCustomer(order.id, { now: later(3) })).toEqual({ ok: true });
    expect(await stockOf(database().db, order.product.sizeId)).toBe(10);
    expect(await cancelOrderByCustomer(order.id, { now: later(4) })).toEqual({
      ok: false,
      reason: "not-pending",
    });
    const mails = await database().db.select().from(emailOutbox).where(eq(emailOutbox.orderId, order.id));
    const shop = mails.find((row) => row.kind === "order-cancelled-by-customer");
    expect(shop?.toAddress).toBe("orders@capitalgrown.example");
    expect(shop?.subject).toContain(`Order #${order.id.slice(0, 8)} cancelled by the customer`);
    const customer = mails.find((row) => row.kind === "order-cancelled");
    expect(customer?.textBody).toContain("you asked us to cancel it");
    expect((await getOrderById(order.id))?.cancelReason).toBe(CUSTOMER_CANCEL_REASON);

    const confirmed = await place();
    await applyOrderAction(confirmed.id, "confirm");
    expect(await cancelOrderByCustomer(confirmed.id)).toEqual({ ok: false, reason: "not-pending" });
  });

  it("reopens a cancelled order taking its stock again, and refuses when the stock is gone", async () => {
    const order = await place(5, {}, 2);
    await applyOrderAction(order.id, "cancel", { cancelReason: "Out of stock" });
    expect(await stockOf(database().db, order.product.sizeId)).toBe(5);
    expect(await applyOrderAction(order.id, "reopen")).toEqual({ ok: true, changed: true });
    expect((await getOrderById(order.id))?.status).toBe("confirmed");
    expect(await stockOf(database().db, order.product.sizeId)).toBe(3);

    await applyOrderAction(order.id, "cancel", { cancelReason: "Customer request" });
    await database()
      .db.update(productSizes)
      .set({ inventoryCount: 1 })
      .where(eq(productSizes.id, order.product.sizeId));
    const refused = await applyOrderAction(order.id, "reopen");
    expect(refused).toEqual({ ok: false, reason: "out-of-stock", itemName: `${order.product.name} (3.5g)` });
    expect((await getOrderById(order.id))?.status).toBe("cancelled");
    expect(await slotBookingsDrift(database().db)).toEqual([]);
  });

  it("keeps cancelled orders out of the incoming list and in the completed one with their reason", async () => {
    const order = await place();
    await applyOrderAction(order.id, "cancel", { cancelReason: "Other: moved away" });
    const incoming = await listOrders("incoming", { limit: 100 });
    expect(incoming.orders.some((row) => row.id === order.id)).toBe(false);
    const completed = await listOrders("completed", { filters: { status: "cancelled" }, limit: 100 });
    expect(completed.orders.find((row) => row.id === order.id)?.cancelReason).toBe("Other: moved away");
  });

  it("finds orders by phone, name, e-mail and order number, case-insensitively, with filters", async () => {
    const target = await place(20, {
      name: "Grace Hopper-Search",
      email: "Grace.Search@Example.com",
      phone: "(571) 555-8642",
    });
    const other = await place(20, {
      name: "Alan Turing",
      email: "alan@example.com",
      phone: "(202) 555-1357",
    });
    const found = async (q: string, filters: Record<string, string> = {}) =>
      (await listOrders("incoming", { filters: { q, ...filters }, limit: 100 })).orders.map((row) => row.id);

    for (const q of ["571-555-8642", "5715558642", "(571) 555-8642", "8642", "571 555", "+1 571 555 8642"]) {
      expect(await found(q), q).toEqual([target.id]);
    }
    expect(await found("grace hop")).toEqual([target.id]);
    expect(await found("hopper-search")).toEqual([target.id]);
    expect(await found("GRACE.SEARCH@")).toEqual([target.id]);
    expect(await found(`#${target.id.slice(0, 8)}`)).toEqual([target.id]);
    expect(await found(target.id.slice(0, 6).toUpperCase())).toContain(target.id);
    expect(await found("%")).toEqual([]);
    expect(await found("grace", { status: "confirmed" })).toEqual([]);
    const date = (await getOrderById(target.id))?.deliveryDate as string;
    expect(await found("grace", { from: date, to: date })).toEqual([target.id]);
    expect(await found("grace", { from: "2030-01-01" })).toEqual([]);
    expect(await found("alan")).toEqual([other.id]);

    // Each kind of match is served by its index (a tiny table would be scanned, so seq scans are off).
    const plan = await database().db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const result = await tx.execute(
        sql`EXPLAIN SELECT id FROM orders WHERE ${(await import("./order-search.server.ts")).orderSearchCondition("571-555-8642")}`,
      );
      return (result as unknown as { rows: { "QUERY PLAN": string }[] }).rows
        .map((row) => row["QUERY PLAN"])
        .join("\n");
    });
    for (const index of [
      "orders_search_name_idx",
      "orders_search_last_name_idx",
      "orders_search_email_idx",
      "orders_search_phone_idx",
      "orders_search_phone_end_idx",
    ]) {
      expect(plan).toContain(index);
    }
  });

  it("exports exactly the filtered orders with their items as CSV, a batch at a time", async () => {
    const tag = `Export${Math.random().toString(36).slice(2, 7)}`;
    const picked = [];
    for (let index = 0; index < 5; index += 1)
      picked.push(await place(20, { name: `${tag} Person${index}` }));
    const cancelled = picked[4] as (typeof picked)[number];
    await applyOrderAction(cancelled.id, "cancel", { cancelReason: "Customer request" });
    const noise = await place(20, { name: '=HYPERLINK("x") Noise' });

    const stream = ordersCsvStream("incoming", { q: tag.toLowerCase() }, { batch: 2 });
    const text = await new Response(stream).text();
    const rows = parse(text.replace(/^\uFEFF/, ""), { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0] ?? {})).toEqual([...CSV_COLUMNS]);
    expect(rows.map((row) => row["Order id"]).sort()).toEqual(
      picked
        .slice(0, 4)
        .map((order) => order.id)
        .sort(),
    );
    expect(rows.every((row) => row.Quantity === "2" && row["Line total"] === "90.00")).toBe(true);

    const completed = parse(
      (await new Response(ordersCsvStream("completed", { q: tag, status: "cancelled" })).text()).slice(1),
      { columns: true },
    ) as Record<string, string>[];
    expect(completed.map((row) => [row["Order id"], row["Cancel reason"]])).toEqual([
      [cancelled.id, "Customer request"],
    ]);
    const formula = parse(
      (await new Response(ordersCsvStream("incoming", { q: "=hyperlink" })).text()).slice(1),
      { columns: true },
    ) as Record<string, string>[];
    expect(formula.map((row) => [row["Order id"], row.Customer])).toEqual([
      [noise.id, '\'=HYPERLINK("x") Noise'],
    ]);
  });

  it("counts an order out for delivery as open for the open-orders limit (P-29)", async () => {
    const phone = "(703) 555-2468";
    const first = await place(20, { phone });
    const second = await place(20, { phone });
    await setOrderStatus(first.id, "out_for_delivery");
    await setOrderStatus(second.id, "out_for_delivery");
    const product = await insertTestProduct(database().db, { priceCents: 9000 });
    const items = oneOf(product);
    expect(await placeOrder(placeOrderInput(items, { phone }), { now: MONDAY_MORNING })).toMatchObject({
      ok: false,
      reason: "open-orders",
      contact: "phone",
    });
    await applyOrderAction(first.id, "deliver");
    expect((await placeOrder(placeOrderInput(items, { phone }), { now: MONDAY_MORNING })).ok).toBe(true);
  });

  // Last: a restore replaces every row of this file's database.
  it("keeps the timeline through a backup and restore, and adds to it afterwards", async () => {
    const order = await place();
    await applyOrderAction(order.id, "confirm", { now: later(1) });
    const folder = mkdtempSync(path.join(tmpdir(), "cg-timeline-backup-"));
    try {
      const file = path.join(folder, "backup.ndjson.gz");
      const { counts } = await backupDatabase(database().db, file);
      expect(counts.order_status_events).toBeGreaterThan(0);
      await restoreDatabase(database().db, file, { availableKeys: [] });
      // The events' id sequence follows the restored rows: the next step is written, not refused.
      expect(await applyOrderAction(order.id, "out-for-delivery", { now: later(2) })).toEqual({
        ok: true,
        changed: true,
      });
      const view = await getOrderById(order.id);
      const steps = await getOrderTimeline(view as NonNullable<typeof view>);
      expect(steps.map((step) => step.status)).toEqual(["pending", "confirmed", "out_for_delivery"]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
