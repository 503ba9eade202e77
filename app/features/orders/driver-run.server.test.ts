import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditEvents, emailOutbox, orders } from "#app/db/schema.ts";
import { nextDate, storeDay } from "#app/utils/store-time.ts";
import { describeEachDatabase } from "#tests/db.ts";
import {
  auditByStaff,
  insertStaff,
  pageRequest,
  postRequest,
  signedIn,
  statusOf,
} from "#tests/staff/support.ts";
import { testPng } from "#tests/support/checkout-test-helpers.server.ts";
import { type InProcessApp, inProcessApp } from "#tests/support/in-process-app.ts";
import { insertOrderRow } from "#tests/support/order-rows.ts";
import { applyOrderAction } from "./admin-orders.server.ts";
import { getDriverRun, moveStop, startRun } from "./driver-run.server.ts";
import { collectedCents, directionsUrl, movedStops } from "./driver-run.ts";

const TEN = "10:00 AM-12:00 PM";
const TWO = "2:00 PM-4:00 PM";

describe("the run's pure rules", () => {
  it("moves a stop only within its slot", () => {
    const stops = [
      { id: "b", deliveryTime: TWO, position: null, createdAt: "2" },
      { id: "a", deliveryTime: TEN, position: null, createdAt: "3" },
      { id: "c", deliveryTime: TWO, position: null, createdAt: "4" },
    ];
    expect(movedStops(stops, "c", "up")?.map((stop) => stop.id)).toEqual(["a", "c", "b"]);
    expect(movedStops(stops, "b", "up")).toBeNull();
    expect(movedStops(stops, "a", "down")).toBeNull();
    expect(movedStops(stops, "missing", "up")).toBeNull();
  });

  it("adds up the delivered totals only, and links the remaining stops in order", () => {
    expect(
      collectedCents([
        { status: "delivered", totalAmountCents: 4200 },
        { status: "out_for_delivery", totalAmountCents: 1000 },
        { status: "delivered", totalAmountCents: 1550 },
        { status: "cancelled", totalAmountCents: 900 },
      ]),
    ).toBe(5750);
    const url = new URL(directionsUrl(["1 A St", "2 B St & Co", "3 C St"]) as string);
    expect(url.origin + url.pathname).toBe("https://www.google.com/maps/dir/");
    expect(url.searchParams.get("api")).toBe("1");
    expect(url.searchParams.get("destination")).toBe("3 C St");
    expect(url.searchParams.get("waypoints")).toBe("1 A St|2 B St & Co");
    expect(directionsUrl([])).toBeNull();
  });
});

describeEachDatabase("a driver's run on the phone", (database) => {
  let app: InProcessApp;
  beforeAll(async () => {
    app = await inProcessApp();
  });

  const today = () => storeDay(new Date());

  async function stop(fields: {
    name: string;
    slot: string;
    driverId: string | null;
    status?: string;
    date?: string;
  }) {
    const { id } = await insertOrderRow(database().db, {
      customerName: fields.name,
      deliveryDate: fields.date ?? today(),
      deliveryTime: fields.slot,
      driverId: fields.driverId,
      status: fields.status ?? "confirmed",
      idPhotoId: null,
    });
    return id;
  }

  it("lists open stops by slot then the driver's order, folds away closed ones, and reads tomorrow ahead", async () => {
    const driver = await insertStaff(database().db, "driver", "Dana");
    const other = await insertStaff(database().db, "driver", "Omar");
    const twoFirst = await stop({ name: "Two First", slot: TWO, driverId: driver.id });
    const ten = await stop({ name: "Ten Only", slot: TEN, driverId: driver.id, status: "out_for_delivery" });
    const twoSecond = await stop({ name: "Two Second", slot: TWO, driverId: driver.id });
    const done = await stop({ name: "Done Already", slot: TEN, driverId: driver.id, status: "delivered" });
    const failed = await stop({ name: "Failed One", slot: TEN, driverId: driver.id, status: "cancelled" });
    const free = await stop({ name: "Free To Take", slot: TWO, driverId: null });
    await stop({ name: "Free But Pending", slot: TWO, driverId: null, status: "pending" });
    await stop({ name: "Someone Else", slot: TEN, driverId: other.id });
    const ahead = await stop({
      name: "Tomorrow Mine",
      slot: TEN,
      driverId: driver.id,
      date: nextDate(today()),
    });

    const run = await getDriverRun(driver.id);
    expect(run.open.map((s) => s.id)).toEqual([ten, twoFirst, twoSecond]);
    expect(run.delivered.map((s) => s.id)).toEqual([done]);
    expect(run.cancelled.map((s) => s.id)).toEqual([failed]);
    expect(run.unassigned.map((s) => s.id)).toEqual([free]);
    expect(run.ahead.map((s) => s.id)).toEqual([ahead]);
    expect(run.collectedCents).toBe(4200);
    expect(run.toCollectCents).toBe(3 * 4200);

    // Up within its slot: kept for the driver; the slot's first cannot go up, nor cross a slot.
    expect(await moveStop(driver.id, twoSecond, "up")).toBe(true);
    expect((await getDriverRun(driver.id)).open.map((s) => s.id)).toEqual([ten, twoSecond, twoFirst]);
    expect(await moveStop(driver.id, twoSecond, "up")).toBe(false);
    expect(await moveStop(driver.id, ten, "down")).toBe(false);
    // Another driver's order of the stops is their own: this one's run is unchanged by it.
    expect(await moveStop(other.id, twoSecond, "up")).toBe(false);
    expect(await moveStop(driver.id, twoSecond, "down")).toBe(true);
    expect((await getDriverRun(driver.id)).open.map((s) => s.id)).toEqual([ten, twoFirst, twoSecond]);

    // Delivering a stop adds its total to the cash collected.
    await applyOrderAction(ten, "deliver", { audit: auditByStaff(driver), actorId: driver.id });
    const after = await getDriverRun(driver.id);
    expect(after.collectedCents).toBe(2 * 4200);
    expect(after.open.map((s) => s.id)).toEqual([twoFirst, twoSecond]);
  });

  it("starts the run: picked orders go out for delivery with one e-mail each; a free one becomes theirs", async () => {
    const { db } = database();
    const driver = await insertStaff(db, "driver", "Dana");
    const other = await insertStaff(db, "driver", "Omar");
    const mine = await stop({ name: "Mine", slot: TEN, driverId: driver.id });
    const free = await stop({ name: "Free", slot: TWO, driverId: null });
    const theirs = await stop({ name: "Theirs", slot: TWO, driverId: other.id });
    const tomorrow = await stop({ name: "Later", slot: TEN, driverId: driver.id, date: nextDate(today()) });

    const result = await startRun(driver.id, [mine, free, theirs, tomorrow], auditByStaff(driver));
    expect(result).toMatchObject({ started: 2, skipped: 2 });
    expect(await statusOf(db, mine)).toBe("out_for_delivery");
    expect(await statusOf(db, free)).toBe("out_for_delivery");
    expect(await statusOf(db, theirs)).toBe("confirmed");
    expect(await statusOf(db, tomorrow)).toBe("confirmed");
    const [taken] = await db.select({ driverId: orders.driverId }).from(orders).where(eq(orders.id, free));
    expect(taken?.driverId).toBe(driver.id);
    for (const id of [mine, free]) {
      const mails = await db
        .select({ kind: emailOutbox.kind })
        .from(emailOutbox)
        .where(eq(emailOutbox.orderId, id));
      expect(mails).toEqual([{ kind: "order-out-for-delivery" }]);
    }
    const assigned = await db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, free), eq(auditEvents.action, "order.driver_assigned")));
    expect(assigned).toHaveLength(1);
    // Started twice: nothing more happens, no second e-mail.
    expect(await startRun(driver.id, [mine], auditByStaff(driver))).toEqual({
      started: 0,
      skipped: 1,
      manifestId: null,
    });
  });

  it("serves /driver behind the admin guard, to drivers and to owners who drive, with its posts", async () => {
    const { db } = database();
    const manager = await insertStaff(db, "manager", "Mia");
    const order = await stop({
      name: "Alicia Fernández-Castillo de la Vega",
      slot: TEN,
      driverId: manager.id,
    });
    expect((await app(pageRequest("/driver", null))).status).toBe(302);
    const session = await signedIn(db, manager);
    const page = await app(pageRequest("/driver", session.cookie));
    expect(page.status).toBe(200);
    expect(page.headers.get("Cache-Control")).toBe("private, no-store");
    const html = (await page.text()).replace(/<!-- -->/g, "");
    expect(html).toContain("Alicia Fernández-Castillo de la Vega");
    expect(html).toContain("Collected so far");
    const started = await app(
      postRequest("/driver", session, { intent: "start-run", [`pick-${order}`]: "on" }),
    );
    expect(started.status).toBe(200);
    expect(await statusOf(db, order)).toBe("out_for_delivery");
    // 'Delivered' needs the proof at the door (record 051): without it the post is refused.
    const unproven = await app(postRequest("/driver", session, { intent: "deliver", orderId: order }));
    expect(unproven.status).toBe(400);
    expect(await statusOf(db, order)).toBe("out_for_delivery");
    const delivered = await app(
      postRequest("/driver", session, {
        intent: "deliver",
        orderId: order,
        nameMatches: "on",
        dateOfBirth: "1991-02-28",
        cashReceived: "42",
        signaturePng: `data:image/png;base64,${Buffer.from(await testPng()).toString("base64")}`,
      }),
    );
    expect(delivered.status).toBe(200);
    expect(await statusOf(db, order)).toBe("delivered");
    // Without the CSRF token the guard refuses the post.
    const refused = await app(
      postRequest("/driver", { cookie: session.cookie, csrfToken: "wrong" }, { intent: "start-run" }),
    );
    expect(refused.status).toBe(403);
  });
});
