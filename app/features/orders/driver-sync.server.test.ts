import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  auditEvents,
  deliveryFailures,
  driverActionLog,
  driverPhoneSyncs,
  emailOutbox,
  orders,
} from "#app/db/schema.ts";
import { storeDay } from "#app/utils/store-time.ts";
import { describeEachDatabase } from "#tests/db.ts";
import {
  auditByStaff,
  insertStaff,
  pageRequest,
  postRequest,
  signedIn,
  statusOf,
} from "#tests/staff/support.ts";
import { type InProcessApp, inProcessApp } from "#tests/support/in-process-app.ts";
import { insertOrderRow } from "#tests/support/order-rows.ts";
import { applyOrderAction } from "./admin-orders.server.ts";
import type { DriverAction, QueuedDriverAction } from "./driver-actions.schema.ts";
import type { DriverRun } from "./driver-run.server.ts";
import { applyQueuedActions, lastPhoneSyncs, recordPhoneSync } from "./driver-sync.server.ts";
import { MAX_SYNC_BODY_BYTES, nextBatch, runWithPending, SYNC_BATCH, syncBannerText } from "./driver-sync.ts";

const TEN = "10:00 AM-12:00 PM";
const SIGNATURE = `data:image/png;base64,${"iVBORw0KGgo".repeat(20)}`;

/** The phone's clock `seconds` ago, in its own offset (the store's day stays today). */
function phoneAt(seconds: number) {
  const at = new Date(Date.now() - seconds * 1000);
  return at.toISOString().replace("Z", "+00:00");
}

function queued(action: DriverAction, phoneTime: string): QueuedDriverAction {
  return { key: randomUUID(), phoneTime, action };
}

const proof = {
  dateOfBirth: "1990-02-28",
  nameMatches: true as const,
  cashReceivedCents: 5000,
  signaturePng: SIGNATURE,
};

describe("the offline queue's plain rules", () => {
  it("shows the run with the waiting actions on top, and the banner's words", () => {
    const stop = (id: string, deliveryTime = TEN) =>
      ({
        id,
        deliveryTime,
        status: "confirmed",
        totalAmountCents: 1000,
        position: null,
      }) as DriverRun["open"][number];
    const run = {
      date: "2026-11-27",
      tomorrow: "2026-11-28",
      open: [stop("a"), stop("b"), stop("c", "2:00 PM-4:00 PM")],
      delivered: [],
      cancelled: [],
      returning: [],
      unassigned: [stop("d")],
      ahead: [],
      collectedCents: 0,
      toCollectCents: 3000,
    } satisfies DriverRun;
    const at = "2026-11-27T15:00:00.000Z";
    const shown = runWithPending(run, [
      queued({ kind: "start-run", orderIds: ["a", "d"] }, at),
      queued({ kind: "move", orderId: "b", direction: "up" }, at),
      queued({ kind: "move", orderId: "c", direction: "up" }, at), // across a slot: stays
      queued({ kind: "deliver", orderId: "a", proof }, at),
      queued({ kind: "fail", orderId: "c", reason: "customer-not-home" }, at),
    ]);
    expect(shown.open.map((s) => [s.id, s.status])).toEqual([
      ["b", "confirmed"],
      ["d", "out_for_delivery"],
    ]);
    expect(shown.unassigned).toEqual([]);
    expect(shown.delivered.map((s) => s.id)).toEqual(["a"]);
    expect(shown.returning.map((s) => [s.id, s.status, s.failure])).toEqual([
      ["c", "returning", "Customer not home"],
    ]);
    expect(shown.collectedCents).toBe(1000);
    expect(shown.toCollectCents).toBe(2000);
    expect(
      runWithPending(run, [queued({ kind: "move", orderId: "b", direction: "up" }, at)]).open.map(
        (s) => s.id,
      ),
    ).toEqual(["b", "a", "c"]);

    const time = () => "3:05 PM";
    const banner = (online: boolean, waiting: number, lastSentAt: Date | null = null) =>
      syncBannerText({ online, waiting, sending: false, lastSentAt, formatTime: time });
    expect(banner(false, 3)).toBe("Offline — 3 changes waiting");
    expect(banner(false, 1)).toBe("Offline — 1 change waiting");
    expect(banner(true, 0, new Date())).toBe("Changes sent at 3:05 PM");
    expect(banner(true, 0)).toBeNull();
  });

  it("sends the queue in batches of at most ten actions and about a megabyte, always at least one", () => {
    const at = "2026-11-27T15:00:00.000Z";
    const move = () => queued({ kind: "move", orderId: randomUUID(), direction: "up" }, at);
    const heavy = () =>
      queued(
        {
          kind: "deliver",
          orderId: randomUUID(),
          proof: { ...proof, signaturePng: `data:image/png;base64,${"A".repeat(390_000)}` },
        },
        at,
      );
    expect(nextBatch(Array.from({ length: 25 }, move))).toHaveLength(SYNC_BATCH);
    expect(nextBatch([heavy(), heavy(), heavy(), move()])).toHaveLength(2);
    expect(nextBatch([queued({ kind: "deliver", orderId: randomUUID(), proof }, at)])).toHaveLength(1);
    // Two signatures at their largest, urlencoded, stay far under the route's body limit.
    const body = new URLSearchParams({ batch: JSON.stringify({ actions: nextBatch([heavy(), heavy()]) }) });
    expect(body.toString().length).toBeLessThan(MAX_SYNC_BODY_BYTES);
  });
});

describeEachDatabase("the phone's queued actions on the server", (database) => {
  let app: InProcessApp;
  beforeAll(async () => {
    app = await inProcessApp();
  });

  async function stop(driverId: string | null, name = "Stop") {
    const { id } = await insertOrderRow(database().db, {
      customerName: name,
      deliveryDate: storeDay(new Date()),
      deliveryTime: TEN,
      driverId,
      status: "confirmed",
      idPhotoId: null,
    });
    return id;
  }

  it("applies each action once with the phone's time, and answers a repeat with the first answer", async () => {
    const { db } = database();
    const driver = await insertStaff(db, "driver", "Dana");
    const [first, second, third] = [await stop(driver.id), await stop(driver.id), await stop(null)];
    const [started, moved, deliveredAt, failedAt] = [phoneAt(4), phoneAt(3), phoneAt(2), phoneAt(1)];
    const batch = [
      queued({ kind: "start-run", orderIds: [first, second, third] }, started),
      queued({ kind: "move", orderId: second, direction: "up" }, moved),
      queued({ kind: "deliver", orderId: first, proof }, deliveredAt),
      queued({ kind: "fail", orderId: third, reason: "customer-not-home" }, failedAt),
    ];
    const outcomes = await applyQueuedActions(driver.id, batch, auditByStaff(driver));
    expect(outcomes.map((o) => o.outcome)).toEqual(["applied", "applied", "applied", "applied"]);
    expect(await statusOf(db, first)).toBe("delivered");
    expect(await statusOf(db, second)).toBe("out_for_delivery");
    expect(await statusOf(db, third)).toBe("returning");
    const [failed] = await db.select().from(deliveryFailures).where(eq(deliveryFailures.orderId, third));
    expect(failed?.reason).toBe("customer-not-home");
    expect(failed?.phoneTime?.toISOString()).toBe(new Date(failedAt).toISOString());

    const logged = await db.select().from(driverActionLog).where(eq(driverActionLog.driverId, driver.id));
    expect(logged).toHaveLength(4);
    const delivered = logged.find((row) => row.kind === "deliver");
    expect(delivered?.phoneTime.toISOString()).toBe(new Date(deliveredAt).toISOString());
    expect(delivered?.settledAt).toBeInstanceOf(Date);
    expect(JSON.stringify(delivered?.action)).not.toContain("base64");

    // The answer was lost: the phone sends the same batch again, and one key twice.
    const again = await applyQueuedActions(
      driver.id,
      [...batch, batch[2] as QueuedDriverAction],
      auditByStaff(driver),
    );
    expect(again.slice(0, 4)).toEqual(outcomes);
    expect(again[4]).toEqual(outcomes[2]);
    const mails = await db
      .select({ kind: emailOutbox.kind })
      .from(emailOutbox)
      .where(eq(emailOutbox.orderId, first));
    expect(mails.map((m) => m.kind).sort()).toEqual(["order-delivered", "order-out-for-delivery"]);
    const statusEvents = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, first), eq(auditEvents.action, "order.status_changed")));
    expect(statusEvents).toHaveLength(2);
    expect(
      await db.select().from(driverActionLog).where(eq(driverActionLog.driverId, driver.id)),
    ).toHaveLength(4);

    // Another account cannot read or replay this driver's key.
    const other = await insertStaff(db, "driver", "Omar");
    const [stolen] = await applyQueuedActions(
      other.id,
      [batch[3] as QueuedDriverAction],
      auditByStaff(other),
    );
    expect(stolen).toMatchObject({ outcome: "refused", conflict: "invalid" });
  });

  it("applies a key sent by two requests at once once, and gives both the same answer", async () => {
    const { db } = database();
    const driver = await insertStaff(db, "driver", "Dana");
    const order = await stop(driver.id, "Two Tabs");
    const action = queued({ kind: "start-run", orderIds: [order] }, new Date().toISOString());
    const [one, two] = await Promise.all([
      applyQueuedActions(driver.id, [action], auditByStaff(driver)),
      applyQueuedActions(driver.id, [action], auditByStaff(driver)),
    ]);
    expect(one).toEqual(two);
    expect(one).toMatchObject([{ outcome: "applied" }]);
    const mails = await db.select().from(emailOutbox).where(eq(emailOutbox.orderId, order));
    expect(mails).toHaveLength(1);
  });

  it("refuses, with words for the driver, a change to an order the store cancelled or gave to another driver", async () => {
    const { db } = database();
    const driver = await insertStaff(db, "driver", "Dana");
    const other = await insertStaff(db, "driver", "Omar");
    const manager = await insertStaff(db, "manager", "Mia");
    const cancelled = await stop(driver.id, "Cancelled Meanwhile");
    const reassigned = await stop(driver.id, "Given Away");
    const fine = await stop(driver.id, "Still Mine");
    await applyQueuedActions(
      driver.id,
      [queued({ kind: "start-run", orderIds: [cancelled, reassigned, fine] }, new Date().toISOString())],
      auditByStaff(driver),
    );

    // While the phone is offline, the store cancels one stop and gives another to Omar.
    const cancel = await applyOrderAction(cancelled, "cancel", {
      cancelReason: "Customer request",
      audit: auditByStaff(manager),
      actorId: manager.id,
    });
    expect(cancel.ok).toBe(true);
    await db.update(orders).set({ driverId: other.id }).where(eq(orders.id, reassigned));

    const outcomes = await applyQueuedActions(
      driver.id,
      [
        queued({ kind: "deliver", orderId: cancelled, proof }, new Date().toISOString()),
        queued({ kind: "fail", orderId: reassigned, reason: "refused" }, new Date().toISOString()),
        queued({ kind: "deliver", orderId: fine, proof }, new Date().toISOString()),
        queued({ kind: "fail", orderId: fine, reason: "other", note: "late" }, new Date().toISOString()),
      ],
      auditByStaff(driver),
    );
    expect(outcomes[0]).toMatchObject({
      outcome: "refused",
      conflict: "cancelled",
      message:
        "The store cancelled this order (Customer request) while you were offline. Your change was not applied.",
    });
    expect(outcomes[1]).toMatchObject({ outcome: "refused", conflict: "reassigned" });
    expect(outcomes[2]).toMatchObject({ outcome: "applied" });
    expect(outcomes[3]).toMatchObject({ outcome: "refused", conflict: "already-done" });
    expect(await statusOf(db, cancelled)).toBe("cancelled");
    expect(await statusOf(db, reassigned)).toBe("out_for_delivery");
    const [given] = await db
      .select({ driverId: orders.driverId })
      .from(orders)
      .where(eq(orders.id, reassigned));
    expect(given?.driverId).toBe(other.id);
    const refusedRows = await db
      .select()
      .from(driverActionLog)
      .where(and(eq(driverActionLog.driverId, driver.id), eq(driverActionLog.outcome, "refused")));
    expect(refusedRows.map((row) => row.conflict).sort()).toEqual([
      "already-done",
      "cancelled",
      "reassigned",
    ]);
  });

  it("takes the queue at POST /driver/sync as a form with the CSRF token, answers the run, and records the phone's sync", async () => {
    const { db } = database();
    const driver = await insertStaff(db, "driver", "Dana");
    const order = await stop(driver.id, "Alicia Fernández-Castillo de la Vega");
    const session = await signedIn(db, driver);
    const send = (csrf: string, body: unknown) =>
      app(
        postRequest(
          "/driver/sync",
          { cookie: session.cookie, csrfToken: csrf },
          { batch: JSON.stringify(body) },
        ),
      );
    const action = queued({ kind: "start-run", orderIds: [order] }, new Date().toISOString());
    expect((await send("wrong", { actions: [action] })).status).toBe(403);
    expect(await statusOf(db, order)).toBe("confirmed");
    expect((await send(session.csrfToken, { actions: [{ ...action, key: "not-a-key" }] })).status).toBe(400);

    const response = await send(session.csrfToken, { actions: [action], waiting: 2 });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { outcomes: { outcome: string }[]; run: DriverRun };
    expect(body.outcomes).toMatchObject([{ key: action.key, outcome: "applied" }]);
    expect(body.run.open.map((s) => [s.id, s.status])).toEqual([[order, "out_for_delivery"]]);
    expect(await statusOf(db, order)).toBe("out_for_delivery");
    const syncs = await lastPhoneSyncs([driver.id]);
    expect(syncs.get(driver.id)?.waiting).toBe(2);

    const page = await app(pageRequest("/driver/run.json", session.cookie, "application/json"));
    expect(page.status).toBe(200);
    const json = (await page.json()) as { run: DriverRun; csrf: string };
    expect(json.csrf).toBe(session.csrfToken);
    expect(json.run.open[0]?.customerName).toBe("Alicia Fernández-Castillo de la Vega");
    expect((await app(pageRequest("/driver/run.json", null, "application/json"))).status).toBe(401);
    const [row] = await db.select().from(driverPhoneSyncs).where(eq(driverPhoneSyncs.driverId, driver.id));
    expect(row?.waiting).toBe(0);
  });

  it("shows in the today board's drivers panel when each driver's phone last synced, once a driver", async () => {
    const { db } = database();
    const manager = await insertStaff(db, "manager", "Mia");
    const synced = await insertStaff(db, "driver", "Sync Sam");
    await insertStaff(db, "driver", "Never Nia");
    const onRoad = await insertStaff(db, "driver", "Road Rae");
    await stop(onRoad.id);
    await recordPhoneSync(synced.id, 3, new Date("2026-11-27T20:05:00Z"));
    await recordPhoneSync(onRoad.id, 1, new Date("2026-11-27T20:10:00Z"));
    const session = await signedIn(db, manager);
    const page = await app(pageRequest("/admin/today", session.cookie));
    expect(page.status).toBe(200);
    const html = (await page.text()).replace(/<!-- -->/g, "");
    expect(html).toContain("Drivers without orders today");
    expect(html).toMatch(
      /Sync Sam<\/span>: last synced <span data-testid="last-synced">(2026-11-27 )?3:05 PM · 3 changes held</,
    );
    expect(html).toContain('Never Nia</span>: last synced <span data-testid="last-synced">—<');
    expect(html).toMatch(
      /Last synced: <span data-testid="last-synced">(2026-11-27 )?3:10 PM · 1 change held</,
    );
    expect(html).not.toContain("Road Rae</span>: last synced");
    expect(html).not.toContain("Drivers&#x27; phones");
  });
});
