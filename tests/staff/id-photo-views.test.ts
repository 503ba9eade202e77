/**
 * ID photo views (P-27, record 048): the order card's thumbnail is recorded once per staff
 * member, order and hour however often the page loads; opening the photo is recorded every time;
 * the order's history folds a run of one person's views into one line. The log keeps every row.
 */
import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { auditEvents } from "#app/db/schema.ts";
import { actorOf, COMMAND_LINE_ORIGIN } from "#app/features/audit/audit.server.ts";
import { orderHistories } from "#app/features/audit/audit-log.server.ts";
import { setOrderStatus } from "#app/features/orders/admin-orders.server.ts";
import { deliveredBy } from "#app/features/orders/delivered-by.server.ts";
import { viewIdPhoto } from "#app/features/orders/id-photo-view.server.ts";
import { storeDay } from "#app/utils/store-time.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { insertOrder, insertStaff, type Staff } from "./support.ts";

const ALL = { kind: "all" } as const;

function by(staff: Staff) {
  return {
    actor: actorOf({ userId: staff.id, email: staff.email, role: staff.role }),
    origin: COMMAND_LINE_ORIGIN,
  };
}

describeEachDatabase("ID photo views", (database) => {
  it("records the card's thumbnail once per person, order and hour, and every opening", async () => {
    const { db } = database();
    const dana = await insertStaff(db, "manager", "Dana");
    const sam = await insertStaff(db, "manager", "Sam");
    const order = await insertOrder(db, { customerName: "Photo Viewer", deliveryDate: storeDay(new Date()) });
    const views = () =>
      db
        .select({ actorId: auditEvents.actorId, details: auditEvents.details })
        .from(auditEvents)
        .where(and(eq(auditEvents.action, "id_photo.viewed"), eq(auditEvents.targetId, order.id)));

    // Twelve page loads and revalidations by Dana, two by Sam: one row each.
    for (let load = 0; load < 12; load++) {
      const view = await viewIdPhoto(order.photoId, ALL, by(dana), { kind: "thumbnail" });
      expect(view.ok).toBe(true);
    }
    await viewIdPhoto(order.photoId, ALL, by(sam), { kind: "thumbnail" });
    await viewIdPhoto(order.photoId, ALL, by(sam), { kind: "thumbnail" });
    expect((await views()).map((row) => row.actorId).sort()).toEqual([dana.id, sam.id].sort());

    // Opening the photo is recorded each time, marked as opened.
    await viewIdPhoto(order.photoId, ALL, by(dana), { kind: "opened" });
    await viewIdPhoto(order.photoId, ALL, by(dana), { kind: "opened" });
    const afterOpening = await views();
    expect(afterOpening).toHaveLength(4);
    expect(afterOpening.filter((row) => (row.details as { opened?: boolean } | null)?.opened)).toHaveLength(
      2,
    );

    // An hour later the thumbnail counts again.
    const later = new Date(Date.now() + 61 * 60 * 1000);
    await viewIdPhoto(order.photoId, ALL, by(dana), { kind: "thumbnail", now: later });
    expect(await views()).toHaveLength(5);
  });

  it("folds one person's run of views into one line of the order's history", async () => {
    const { db } = database();
    const dana = await insertStaff(db, "manager", "Dana");
    const order = await insertOrder(db, {
      customerName: "History Folder",
      deliveryDate: storeDay(new Date()),
      status: "pending",
    });
    for (let view = 0; view < 5; view++) await viewIdPhoto(order.photoId, ALL, by(dana), { kind: "opened" });
    await setOrderStatus(order.id, "confirmed", { audit: by(dana) });
    for (let view = 0; view < 3; view++) await viewIdPhoto(order.photoId, ALL, by(dana), { kind: "opened" });

    const history = (await orderHistories([order.id]))[order.id] ?? [];
    expect(history.map((line) => [line.action, line.count])).toEqual([
      ["id_photo.viewed", 3],
      ["order.status_changed", 1],
      ["id_photo.viewed", 5],
    ]);
    // Nothing was deleted: every view is still in the log.
    const rows = await db
      .select({ id: auditEvents.id })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "id_photo.viewed"), eq(auditEvents.targetId, order.id)));
    expect(rows).toHaveLength(8);
  });

  it("names who marked an order delivered, and when", async () => {
    const { db } = database();
    const dee = await insertStaff(db, "driver", "Dee");
    const order = await insertOrder(db, {
      customerName: "Delivered One",
      deliveryDate: storeDay(new Date()),
    });
    const quiet = await insertOrder(db, {
      customerName: "Delivered Quietly",
      deliveryDate: storeDay(new Date()),
    });
    await setOrderStatus(order.id, "delivered", { audit: by(dee) });
    await setOrderStatus(quiet.id, "delivered");
    const found = await deliveredBy(db, [order.id, quiet.id]);
    expect(found.get(order.id)?.by).toBe("Dee");
    expect(Date.now() - Date.parse(found.get(order.id)?.at ?? "")).toBeLessThan(60_000);
    expect(found.get(quiet.id)).toMatchObject({ by: null });
  });
});
