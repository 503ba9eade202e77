/**
 * The drivers' cash sheets and the runs' manifests on both databases (P-33, record 052): the
 * float, the hand-in with its difference audited, the drop confirmed by a manager or owner only
 * (the route's permission), and a manifest that stays as it was when the run left.
 */
import { and, eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { auditEvents, driverCashSheets, orderItems, orders, productSizes, products } from "#app/db/schema.ts";
import { insertProduct } from "#app/features/catalog/product-factory.server.ts";
import { storeDay } from "#app/utils/store-time.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { auditByStaff, insertStaff, pageRequest, postRequest, signedIn } from "#tests/staff/support.ts";
import { testPng } from "#tests/support/checkout-test-helpers.server.ts";
import { type InProcessApp, inProcessApp } from "#tests/support/in-process-app.ts";
import { insertOrderRow } from "#tests/support/order-rows.ts";
import { applyOrderAction } from "./admin-orders.server.ts";
import {
  confirmCashDrop,
  getCashSheet,
  handInCash,
  listCashSheets,
  setCashFloat,
} from "./cash-sheet.server.ts";
import { getDriverRoads } from "./driver-road.server.ts";
import { startRun } from "./driver-run.server.ts";
import { getRunManifest, listRunManifests } from "./run-manifest.server.ts";

const TEN = "10:00 AM-12:00 PM";

describeEachDatabase("a driver's cash sheet and run manifest", (database) => {
  let app: InProcessApp;
  beforeAll(async () => {
    app = await inProcessApp();
  });
  const today = () => storeDay(new Date());

  async function stop(driverId: string, name: string, fields: Partial<typeof orders.$inferInsert> = {}) {
    const { id } = await insertOrderRow(database().db, {
      customerName: name,
      deliveryDate: today(),
      deliveryTime: TEN,
      driverId,
      idPhotoId: null,
    });
    if (Object.keys(fields).length > 0)
      await database().db.update(orders).set(fields).where(eq(orders.id, id));
    return id;
  }

  async function auditOf(targetId: string) {
    return database()
      .db.select({ action: auditEvents.action, details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.targetId, targetId));
  }

  it("adds the float and the delivered totals, keeps the hand-in's figures and audits the difference", async () => {
    const driver = await insertStaff(database().db, "driver", "Dana");
    const manager = await insertStaff(database().db, "manager", "Mia");
    const first = await stop(driver.id, "First", { totalAmountCents: 8650, payWithCents: 10000 });
    const second = await stop(driver.id, "Second", { totalAmountCents: 9125 });
    await stop(driver.id, "Still Open", { totalAmountCents: 5000 });

    expect(await setCashFloat(driver.id, today(), 5000, auditByStaff(driver))).toMatchObject({ ok: true });
    for (const id of [first, second])
      await applyOrderAction(id, "deliver", { audit: auditByStaff(driver), actorId: driver.id });

    const before = await getCashSheet(driver.id, today());
    expect(before?.live).toEqual({
      floatCents: 5000,
      collectedCents: 17775,
      changeCents: 1350,
      expectedCents: 22775,
    });
    expect(before?.lines.map((line) => line.orderId).sort()).toEqual([first, second].sort());
    expect(before?.handedIn).toBeNull();

    // A confirmation before the hand-in is refused.
    const sheetId = before?.sheetId as string;
    expect(await confirmCashDrop(sheetId, auditByStaff(manager))).toMatchObject({ ok: false });

    // $5.00 short.
    expect(await handInCash(driver.id, today(), 22275, auditByStaff(driver))).toMatchObject({ ok: true });
    const handed = await getCashSheet(driver.id, today());
    expect(handed?.handedIn).toMatchObject({
      expectedCents: 22775,
      countedCents: 22275,
      differenceCents: -500,
    });
    // Closed to the driver: no second hand-in, no new float.
    expect(await handInCash(driver.id, today(), 22775, auditByStaff(driver))).toMatchObject({ ok: false });
    expect(await setCashFloat(driver.id, today(), 0, auditByStaff(driver))).toMatchObject({ ok: false });

    expect(await confirmCashDrop(sheetId, auditByStaff(manager))).toMatchObject({ ok: true });
    expect(await confirmCashDrop(sheetId, auditByStaff(manager))).toMatchObject({ ok: false });
    const [confirmed] = await listCashSheets(today(), { driverId: driver.id });
    expect(confirmed?.confirmed?.by).toBe("Mia");

    const events = await auditOf(sheetId);
    expect(events.map((event) => event.action).sort()).toEqual(
      ["cash.drop_confirmed", "cash.float_set", "cash.handed_in"].sort(),
    );
    expect(events.find((event) => event.action === "cash.handed_in")?.details).toMatchObject({
      expectedCents: 22775,
      countedCents: 22275,
      differenceCents: -500,
    });
    expect(events.find((event) => event.action === "cash.drop_confirmed")?.details).toMatchObject({
      differenceCents: -500,
    });
    // The table itself refuses a confirmation without a hand-in.
    const other = await insertStaff(database().db, "driver", "Omar");
    await expect(
      database()
        .db.insert(driverCashSheets)
        .values({ driverId: other.id, shiftDate: today(), confirmedAt: new Date(), confirmedBy: manager.id }),
    ).rejects.toThrow();
  });

  it("lets a manager or owner confirm the drop on the board, never a driver", async () => {
    const { db } = database();
    const driver = await insertStaff(db, "driver", "Dee");
    const owner = await insertStaff(db, "owner", "Olga");
    const id = await stop(driver.id, "Board Stop", { status: "out_for_delivery" });
    const driverSession = await signedIn(db, driver);
    expect(
      (
        await app(
          postRequest("/driver", driverSession, {
            intent: "deliver",
            orderId: id,
            nameMatches: "on",
            dateOfBirth: "1990-05-01",
            cashReceived: "500",
            signaturePng: `data:image/png;base64,${Buffer.from(await testPng()).toString("base64")}`,
          }),
        )
      ).status,
    ).toBe(200);
    // A count the shop would have to round is refused, and nothing is handed in.
    const typo = await app(
      postRequest("/driver", driverSession, { intent: "cash-hand-in", counted: "40.005" }),
    );
    expect(typo.status).toBe(400);
    expect((await getCashSheet(driver.id, today()))?.handedIn).toBeNull();
    expect(
      (await app(postRequest("/driver", driverSession, { intent: "cash-hand-in", counted: "40.00" }))).status,
    ).toBe(200);
    const sheet = await getCashSheet(driver.id, today());
    expect(sheet?.handedIn?.differenceCents).toBe(-200);

    const refused = await app(
      postRequest("/admin/today", driverSession, {
        intent: "confirm-drop",
        sheetId: sheet?.sheetId as string,
      }),
    );
    expect(refused.status).toBe(403);
    expect((await getCashSheet(driver.id, today()))?.confirmed).toBeNull();

    const ownerSession = await signedIn(db, owner);
    const board = await app(pageRequest("/admin/today", ownerSession.cookie));
    const html = (await board.text()).replace(/<!-- -->/g, "");
    expect(html).toContain("Short $2.00");
    const confirmed = await app(
      postRequest("/admin/today", ownerSession, {
        intent: "confirm-drop",
        sheetId: sheet?.sheetId as string,
      }),
    );
    expect(confirmed.status).toBe(200);
    expect((await getCashSheet(driver.id, today()))?.confirmed?.by).toBe("Olga");

    // The daily report lists it, as CSV too, to the owner only.
    const csv = await app(
      pageRequest(`/admin/today/cash-report/export?date=${today()}`, ownerSession.cookie),
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toContain("text/csv");
    const text = await csv.text();
    expect(text.split("\n")[0]).toContain("Difference");
    expect(text).toContain("Dee");
    expect(text).toContain("-2.00");
    expect(
      (await app(pageRequest(`/admin/today/cash-report/export?date=${today()}`, driverSession.cookie)))
        .status,
    ).toBe(403);
  });

  it("freezes the manifest when the run starts: later changes to the order or product leave it as it was", async () => {
    const { db } = database();
    const driver = await insertStaff(db, "driver", "Vic");
    const product = await insertProduct(db, {
      name: "Manifest Kush",
      category: "Flower",
      sizes: [{ size: "3.5g", priceCents: 4000, flowerEquivalentMg: 3500 }],
    });
    const size = product.sizes[0];
    const withWeight = await stop(driver.id, "Weighed Customer", { totalAmountCents: 8000 });
    await db.insert(orderItems).values({
      orderId: withWeight,
      productId: product.id,
      productSizeId: size?.id as string,
      productName: "Manifest Kush",
      sizeLabel: "3.5g",
      quantity: 2,
      unitPriceCents: 4000,
      totalPriceCents: 8000,
    });
    const unweighed = await stop(driver.id, "Gummy Customer", { totalAmountCents: 4200 });
    await db.insert(orderItems).values({
      orderId: unweighed,
      productName: "Gummies",
      sizeLabel: "10 pack",
      quantity: 1,
      unitPriceCents: 4200,
      totalPriceCents: 4200,
    });

    const result = await startRun(driver.id, [withWeight, unweighed], auditByStaff(driver), {
      vehicle: " Blue Corolla ",
    });
    expect(result).toMatchObject({ started: 2, skipped: 0 });
    const manifest = await getRunManifest(result.manifestId as string);
    expect(manifest).toMatchObject({
      driverId: driver.id,
      vehicle: "Blue Corolla",
      deliveryDate: today(),
      totalCents: 12200,
      flowerEquivalentMg: 7000,
      weightComplete: false,
    });
    expect(manifest?.driverName).toContain("Vic");
    const frozen = structuredClone(manifest?.stops);
    expect(frozen?.map((s) => s.customerName).sort()).toEqual(["Gummy Customer", "Weighed Customer"]);
    expect(frozen?.find((s) => s.orderId === withWeight)?.items).toEqual([
      { productName: "Manifest Kush", sizeLabel: "3.5g", quantity: 2, flowerEquivalentMg: 7000 },
    ]);

    // The order, its items and the product change afterwards; the manifest does not.
    await db
      .update(orders)
      .set({ customerName: "Renamed", totalAmountCents: 1 })
      .where(eq(orders.id, withWeight));
    await db.update(orderItems).set({ quantity: 9 }).where(eq(orderItems.orderId, withWeight));
    await db
      .update(productSizes)
      .set({ flowerEquivalentMg: 1 })
      .where(eq(productSizes.id, size?.id as string));
    await db.update(products).set({ name: "Renamed Kush" }).where(eq(products.id, product.id));
    const again = await getRunManifest(result.manifestId as string);
    expect(again?.stops).toEqual(frozen);
    expect(again?.totalCents).toBe(12200);
    expect(again?.flowerEquivalentMg).toBe(7000);

    const listed = await listRunManifests(today(), { driverId: driver.id });
    expect(listed.map((entry) => [entry.id, entry.stops])).toEqual([[result.manifestId, 2]]);
    const events = await db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, result.manifestId as string)));
    expect(events).toEqual([{ action: "run.manifest_frozen" }]);

    // The driver opens it on the phone; another driver may not.
    const session = await signedIn(db, driver);
    const page = await app(pageRequest(`/driver/manifest/${result.manifestId}`, session.cookie));
    expect(page.status).toBe(200);
    expect((await page.text()).replace(/<!-- -->/g, "")).toContain("Blue Corolla");
    const stranger = await signedIn(db, await insertStaff(db, "driver", "Stranger"));
    expect((await app(pageRequest(`/driver/manifest/${result.manifestId}`, stranger.cookie))).status).toBe(
      404,
    );
  });

  it("shows each driver's road on the board: stops done, failed and left, cash, manifests", async () => {
    const { db } = database();
    const driver = await insertStaff(db, "driver", "Road Runner");
    await stop(driver.id, "Done", { status: "delivered", totalAmountCents: 5000 });
    await stop(driver.id, "Failed", { status: "cancelled" });
    await stop(driver.id, "Waiting", { status: "confirmed" });
    const out = await stop(driver.id, "Out", { status: "confirmed" });
    await stop(driver.id, "Not Confirmed", { status: "pending" });
    const { manifestId } = await startRun(driver.id, [out], auditByStaff(driver));
    const road = (await getDriverRoads(today())).find((entry) => entry.driverId === driver.id);
    expect(road).toMatchObject({ name: "Road Runner", done: 1, failed: 1, left: 2, lastSyncedAt: null });
    expect(road?.cash?.live.expectedCents).toBe(5000);
    expect(road?.cash?.handedIn).toBeNull();
    expect(road?.manifests.map((manifest) => manifest.id)).toEqual([manifestId]);
  });
});
