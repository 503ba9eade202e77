/**
 * One reading of a form per admin post: the guard checks the intent of the form the action carries
 * out, because both get the one form the guard read, and a form that names a field twice (where
 * `formData.get` reads the first and `Object.fromEntries` the last) is a 400 before anything is
 * done — for every admin action, every role, through the app's own request handling.
 */
import { count } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { auditEvents } from "#app/db/schema.ts";
import { ADMIN_ROUTES, type AdminRouteRule } from "#app/features/staff/admin-routes.ts";
import { storeDay } from "#app/utils/store-time.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { type InProcessApp, inProcessApp } from "#tests/support/in-process-app.ts";
import { insertOrder, insertStaff, type Staff, signedIn, statusOf } from "./support.ts";

const ROLES = ["owner", "manager", "driver"] as const;
const UUID = "00000000-0000-4000-8000-00000000abcd";
const OTHER_UUID = "00000000-0000-4000-8000-00000000dcba";

/** A post as a signed-in browser sends it, with the fields in the order given (repeats kept). */
function post(path: string, session: { cookie: string; csrfToken: string }, fields: [string, string][]) {
  return new Request(`http://localhost${path}`, {
    method: "POST",
    body: new URLSearchParams([...fields, ["csrf", session.csrfToken]]),
    headers: {
      Accept: "text/html",
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: "http://localhost",
      Cookie: session.cookie,
    },
  });
}

describeEachDatabase("one reading of a form per admin post", (database) => {
  let app: InProcessApp;
  const staff = {} as Record<(typeof ROLES)[number], Staff>;

  beforeAll(async () => {
    const { db } = database();
    app = await inProcessApp();
    for (const role of ROLES) staff[role] = await insertStaff(db, role, role);
  });

  it("refuses a driver's deliver-then-confirm and deliver-then-reopen on the today board", async () => {
    const { db } = database();
    const today = storeDay(new Date());
    const pending = await insertOrder(db, {
      customerName: "Pending Pat",
      deliveryDate: today,
      status: "pending",
    });
    const delivered = await insertOrder(db, {
      customerName: "Delivered Dana",
      deliveryDate: today,
      status: "delivered",
    });
    const session = await signedIn(db, staff.driver);
    const confirm = await app(
      post("/admin/today.data", session, [
        ["intent", "deliver"],
        ["orderId", pending.id],
        ["intent", "confirm"],
      ]),
    );
    expect(confirm.status).toBe(400);
    expect(await confirm.text()).toContain("more than once");
    expect(await statusOf(db, pending.id)).toBe("pending");
    const reopen = await app(
      post("/admin/today.data", session, [
        ["intent", "deliver"],
        ["orderId", delivered.id],
        ["intent", "reopen"],
      ]),
    );
    expect(reopen.status).toBe(400);
    expect(await statusOf(db, delivered.id)).toBe("delivered");
    // The same driver's single-valued move still goes through, on the same board.
    const move = await app(
      post("/admin/today.data", session, [
        ["intent", "cancel"],
        ["orderId", pending.id],
        ["reason", "customer-request"],
      ]),
    );
    expect(move.status).not.toBe(400);
    expect(move.status).not.toBe(403);
  });

  it("answers 400 to every admin action posted with a repeated intent or order, for every role", async () => {
    const { db } = database();
    const today = storeDay(new Date());
    const order = await insertOrder(db, { customerName: "Kept Kim", deliveryDate: today, status: "pending" });
    const eventsBefore = (await db.select({ n: count() }).from(auditEvents))[0]?.n;
    const checked: string[] = [];
    for (const [pattern, rule] of Object.entries(ADMIN_ROUTES) as [string, AdminRouteRule][]) {
      const intents = Object.keys(rule.actions ?? {});
      const path = pattern.replace(":id", UUID);
      for (const intent of intents) {
        const second = intents.find((other) => other !== intent && other !== "*") ?? "make-coffee";
        const first = intent === "*" ? "save" : intent;
        const forms: [string, string][][] = [
          [
            ["intent", first],
            ["orderId", order.id],
            ["id", UUID],
            ["intent", second],
          ],
          [
            ["intent", first],
            ["orderId", OTHER_UUID],
            ["id", UUID],
            ["orderId", order.id],
          ],
        ];
        for (const role of ROLES) {
          for (const fields of forms) {
            const session = await signedIn(db, staff[role]);
            const request = post(path, session, fields);
            // An upload's body is read by its action alone; its token comes in the header.
            if (rule.streamedBody) request.headers.set("X-CSRF-Token", session.csrfToken);
            const response = await app(request);
            const label = `${role} POST ${pattern} ${fields.map(([name, value]) => `${name}=${value}`).join("&")}`;
            // The guard reads no upload: a role that may not post it gets the 403 first.
            if (rule.streamedBody) expect([400, 403], label).toContain(response.status);
            else expect(response.status, label).toBe(400);
            await response.body?.cancel();
            checked.push(label);
          }
        }
      }
    }
    expect(checked.length).toBeGreaterThan(200);
    expect(await statusOf(db, order.id)).toBe("pending");
    // Nothing was changed: no audit event (every admin change writes one) came of it.
    expect((await db.select({ n: count() }).from(auditEvents))[0]?.n).toBe(eventsBefore);
  });
});
