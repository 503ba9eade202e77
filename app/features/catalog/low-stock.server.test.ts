import { eq, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { emailOutbox, productSizes, storeSettings } from "#app/db/schema.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { LOW_STOCK_DIGEST_KEY, listLowStock, sendLowStockDigestIfDue } from "./low-stock.server.ts";
import { insertProduct } from "./product-factory.server.ts";

/** 2026-11-24 is a Tuesday: the store opens at 10:00 New York time (15:00 UTC). */
const BEFORE_OPENING = new Date("2026-11-24T14:59:00Z");
const AT_OPENING = new Date("2026-11-24T15:00:00Z");
/** Sunday 2026-11-29 opens at 11:00 (16:00 UTC). */
const SUNDAY_10_30 = new Date("2026-11-29T15:30:00Z");
const SUNDAY_11_00 = new Date("2026-11-29T16:00:00Z");

describeEachDatabase("low stock", (database) => {
  let soldOutName: string;
  let lowName: string;

  beforeAll(async () => {
    const { db } = database();
    await db.execute(sql`UPDATE product_sizes SET inventory_count = 1000`);
    soldOutName = "Zz Sold Out Sour";
    lowName = "Aa Low Lemon";
    await insertProduct(db, {
      name: lowName,
      sizes: [
        { size: "3.5g", priceCents: 4000, inventoryCount: 5 },
        { size: "7g", priceCents: 7000, inventoryCount: 6 },
      ],
    });
    await insertProduct(db, {
      name: soldOutName,
      sizes: [{ size: "1g", priceCents: 1500, inventoryCount: 0 }],
    });
    const custom = await insertProduct(db, {
      name: "Mm Custom Threshold",
      sizes: [{ size: "10 pack", priceCents: 2500, inventoryCount: 12 }],
    });
    await db
      .update(productSizes)
      .set({ lowStockThreshold: 12 })
      .where(eq(productSizes.id, custom.sizes[0]?.id as string));
    const archived = await insertProduct(db, {
      name: "Archived Zero",
      archivedAt: new Date(),
      sizes: [{ size: "1g", priceCents: 1500, inventoryCount: 0 }],
    });
    expect(archived.archivedAt).not.toBeNull();
  });

  it("lists sizes at or below their own threshold (default 5), sold-out first, archived products left out", async () => {
    const { sizes, total } = await listLowStock();
    expect(sizes.map((size) => [size.productName, size.size, size.inventoryCount])).toEqual([
      [soldOutName, "1g", 0],
      [lowName, "3.5g", 5],
      ["Mm Custom Threshold", "10 pack", 12],
    ]);
    expect(total).toBe(3);
  });

  it("queues one digest a day at opening time, even when several instances run the job at once", async () => {
    expect(await sendLowStockDigestIfDue({ now: BEFORE_OPENING, setting: "opening" })).toMatchObject({
      sent: false,
      reason: "not-yet",
    });
    // Eight concurrent runs (several instances, each on its own connection) at opening time.
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () =>
        sendLowStockDigestIfDue({ now: AT_OPENING, setting: "opening", to: "shop@example.test" }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.sent)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.sent && outcome.reason === "already-decided")).toHaveLength(
      7,
    );
    expect(
      await sendLowStockDigestIfDue({ now: new Date("2026-11-24T22:00:00Z"), setting: "opening" }),
    ).toMatchObject({
      sent: false,
      reason: "already-decided",
    });

    const mails = await database()
      .db.select()
      .from(emailOutbox)
      .where(eq(emailOutbox.kind, "low-stock-digest"));
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail?.toAddress).toBe("shop@example.test");
    expect(mail?.status).toBe("queued");
    expect(mail?.subject).toBe("Low stock at Capital Grown: 3 sizes (1 sold out)");
    const text = mail?.textBody ?? "";
    expect(text.indexOf(soldOutName)).toBeLessThan(text.indexOf(lowName));
    expect(text).toContain(`${soldOutName} (1g) — Sold out: http`);
    expect(text).toContain(`${lowName} (3.5g) — 5 left: http`);
    expect(text).toMatch(/\/admin\/products\/edit\/[0-9a-f-]{36}/);
    expect(mail?.htmlBody).toContain("/admin/products/edit/");

    // Sunday opens at 11: not at 10:30, then once at 11.
    expect(await sendLowStockDigestIfDue({ now: SUNDAY_10_30, setting: "opening" })).toMatchObject({
      reason: "not-yet",
    });
    expect(await sendLowStockDigestIfDue({ now: SUNDAY_11_00, setting: "opening" })).toMatchObject({
      sent: true,
    });
    const [setting] = await database()
      .db.select()
      .from(storeSettings)
      .where(eq(storeSettings.key, LOW_STOCK_DIGEST_KEY));
    expect(setting?.value).toEqual({ day: "2026-11-29" });
  });

  it("sends nothing on a day when nothing is low, nor later that day, and nothing when off", async () => {
    const { db } = database();
    await db.execute(sql`UPDATE product_sizes SET inventory_count = 1000`);
    const before = (await db.select().from(emailOutbox).where(eq(emailOutbox.kind, "low-stock-digest")))
      .length;
    expect(
      await sendLowStockDigestIfDue({ now: new Date("2026-11-30T15:05:00Z"), setting: "opening" }),
    ).toMatchObject({
      sent: false,
      reason: "nothing-low",
    });
    await db.execute(sql`UPDATE product_sizes SET inventory_count = 0`);
    // Decided once a day; off is off; a fixed time of day works too.
    for (const [at, setting, outcome] of [
      ["2026-11-30T20:00:00Z", "opening", { reason: "already-decided" }],
      ["2026-12-01T20:00:00Z", "off", { reason: "off" }],
      ["2026-12-01T12:59:00Z", "08:00", { reason: "not-yet" }],
      ["2026-12-01T13:00:00Z", "08:00", { sent: true }],
    ] as const) {
      expect(await sendLowStockDigestIfDue({ now: new Date(at), setting }), at).toMatchObject(outcome);
    }
    const after = (await db.select().from(emailOutbox).where(eq(emailOutbox.kind, "low-stock-digest")))
      .length;
    expect(after).toBe(before + 1);
  });
});
