/**
 * P-26 for every admin route and every action intent, through the app's own request handling
 * (middleware, loaders, actions, error boundaries, in-process): the owner, a manager, a driver and a
 * signed-out visitor each get exactly what the decision allows. Signed out → the login (pages) or 401
 * (files); wrong role → 403 'You don't have access to this page', never the page's data.
 *
 * The route files are read from disk: a new file under app/routes/admin without an entry in the
 * permission table (app/features/staff/admin-routes.ts) fails here, and so does one the decision
 * below does not list.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditEvents } from "#app/db/schema.ts";
import { ADMIN_ROUTES, adminRouteRule } from "#app/features/staff/admin-routes.ts";
import routes from "#app/routes.ts";
import { storeDay } from "#app/utils/store-time.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { type InProcessApp, inProcessApp } from "#tests/support/in-process-app.ts";
import {
  insertOrder,
  insertStaff,
  pageRequest,
  postRequest,
  type Staff,
  signedIn,
  statusOf,
} from "./support.ts";

const NO_ACCESS = "You don't have access to this page";
type Role = "owner" | "manager" | "driver";
const O: Role = "owner";
const M: Role = "manager";
const D: Role = "driver";

/**
 * P-26, written out route by route (not read from the permission table, which it checks):
 * who may open each page or file, and who may make each post.
 */
const DECISION_26: Record<string, { read: Role[]; actions?: Record<string, Role[]> }> = {
  "/admin": { read: [O, M, D] },
  "/admin/dashboard": { read: [O, M], actions: { "confirm-key-backup": [O] } },
  "/admin/today": {
    read: [O, M, D],
    actions: {
      confirm: [O, M],
      "out-for-delivery": [O, M, D],
      deliver: [O, M, D],
      cancel: [O, M, D],
      reopen: [O, M],
      "check-in": [O, M],
      "send-out-again": [O, M],
      assign: [O, M],
      "assign-slot": [O, M],
      "confirm-drop": [O, M],
    },
  },
  "/admin/today/pick-list": { read: [O, M] },
  "/admin/today/cash-report": { read: [O, M] },
  "/admin/today/cash-report/export": { read: [O, M] },
  "/driver/manifest/:id": { read: [O, M, D] },
  "/admin/today/driver-slips": { read: [O, M] },
  "/driver": {
    read: [O, M, D],
    actions: {
      "start-run": [O, M, D],
      "move-up": [O, M, D],
      "move-down": [O, M, D],
      deliver: [O, M, D],
      fail: [O, M, D],
      cancel: [O, M, D],
      "cash-float": [O, M, D],
      "cash-hand-in": [O, M, D],
    },
  },
  "/driver/run.json": { read: [O, M, D] },
  "/driver/sync": { read: [O, M, D], actions: { "*": [O, M, D] } },
  "/admin/products": {
    read: [O, M],
    actions: { delete: [O, M], "fix-case": [O, M], archive: [O, M], restore: [O, M], stock: [O, M] },
  },
  "/admin/products/new": { read: [O, M], actions: { "*": [O, M] } },
  "/admin/products/import": { read: [O, M], actions: { preview: [O, M], import: [O, M] } },
  "/admin/products/export": { read: [O, M] },
  "/admin/products/edit/:id": { read: [O, M], actions: { "*": [O, M] } },
  "/admin/products/upload-image": { read: [O, M], actions: { "*": [O, M] } },
  "/admin/orders": {
    read: [O, M],
    actions: {
      confirm: [O, M],
      "out-for-delivery": [O, M],
      deliver: [O, M],
      cancel: [O, M],
      reopen: [O, M],
      "check-in": [O, M],
      "send-out-again": [O, M],
      "bulk-confirm": [O, M],
      "bulk-cancel": [O, M],
      "bulk-print": [O, M],
      "bulk-assign": [O, M],
    },
  },
  "/admin/orders/export": { read: [O, M] },
  "/admin/completed-orders": {
    read: [O, M],
    actions: {
      confirm: [O, M],
      "out-for-delivery": [O, M],
      deliver: [O, M],
      cancel: [O, M],
      reopen: [O, M],
      "check-in": [O, M],
      "send-out-again": [O, M],
    },
  },
  "/admin/outbox": { read: [O, M], actions: { "send-held": [O, M], "discard-held": [O, M] } },
  "/admin/settings/limits": { read: [O, M], actions: { "*": [O, M] } },
  "/admin/settings/delivery": {
    read: [O, M],
    actions: {
      zone: [O, M],
      activate: [O, M],
      deactivate: [O, M],
      settings: [O, M],
      close: [O, M],
      reopen: [O, M],
    },
  },
  "/admin/logout": { read: [O, M, D], actions: { "*": [O, M, D] } },
  "/admin/id-photos/:id": { read: [O, M, D] },
  "/admin/orders/:id/signature": { read: [O, M] },
  "/admin/customers": { read: [O, M], actions: { "erase-guest": [O, M] } },
  "/admin/customers/guest-export": { read: [O, M] },
  "/admin/customers/:id": { read: [O, M], actions: { note: [O, M], erase: [O, M] } },
  "/admin/customers/:id/export": { read: [O, M] },
  "/admin/orders/:id/id-on-file": { read: [O, M], actions: { verify: [O, M], revoke: [O, M] } },
  "/admin/audit": { read: [O] },
  "/admin/audit/export": { read: [O] },
  "/admin/staff": {
    read: [O],
    actions: {
      invite: [O],
      resend: [O],
      revoke: [O],
      "change-role": [O],
      deactivate: [O],
      "reset-two-factor": [O],
      "drivers-two-factor": [O],
    },
  },
  "/admin/account": {
    read: [O, M, D],
    actions: {
      "sign-out-others": [O, M, D],
      "end-session": [O, M, D],
      "confirm-access": [O, M, D],
      "recovery-codes": [O, M, D],
      "turn-off-two-factor": [O, M, D],
      "change-password": [O, M, D],
    },
  },
  "/admin/account/two-factor": { read: [O, M, D], actions: { "*": [O, M, D] } },
};

const APP = path.resolve(import.meta.dirname, "../../app");

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

/**
 * Every route module in app/routes/admin and app/routes/driver (the run on the phone, behind the
 * same guard), from disk, with the pattern app/routes.ts gives it.
 */
async function adminRouteFiles() {
  const patterns = new Map<string, string>();
  const walk = (entries: RouteConfigEntry[], prefix: string) => {
    for (const entry of entries) {
      const full = entry.path === undefined ? prefix : `${prefix}/${entry.path}`.replace(/\/+/g, "/");
      patterns.set(entry.file.replace(/^\.\//, ""), full || "/");
      if (entry.children) walk(entry.children, full);
    }
  };
  walk(await routes, "");
  return [...filesUnder(path.join(APP, "routes/admin")), ...filesUnder(path.join(APP, "routes/driver"))]
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => {
      const relative = path.relative(APP, file).split(path.sep).join("/");
      return { file: relative, pattern: patterns.get(relative) ?? null };
    });
}

/** The admin layout and the public sign-in, code and invitation pages are not routes a role opens. */
const NOT_GUARDED = new Set([
  "routes/admin/layout.tsx",
  "routes/admin/login.tsx",
  "routes/admin/login-code.tsx",
  "routes/admin/invitation.tsx",
]);

describe("the permission table covers every admin route file and intent", () => {
  it("has an entry, agreeing with P-26, for every route file under app/routes/admin and app/routes/driver", async () => {
    const files = (await adminRouteFiles()).filter((entry) => !NOT_GUARDED.has(entry.file));
    expect(files.length).toBeGreaterThan(20);
    const unrouted = files.filter((entry) => entry.pattern === null).map((entry) => entry.file);
    expect(unrouted, "route files missing from app/routes.ts").toEqual([]);
    const missing = files
      .filter((entry) => !adminRouteRule(entry.pattern as string))
      .map((entry) => entry.file);
    expect(missing, "route files without a permission in app/features/staff/admin-routes.ts").toEqual([]);
    const undecided = files
      .filter((entry) => !((entry.pattern as string) in DECISION_26))
      .map((entry) => entry.file);
    expect(undecided, "route files this test does not check against P-26").toEqual([]);
    expect(Object.keys(ADMIN_ROUTES).sort()).toEqual(Object.keys(DECISION_26).sort());
  });

  it("declares the intents of every route with an action, and only those", async () => {
    for (const { file, pattern } of await adminRouteFiles()) {
      if (NOT_GUARDED.has(file) || pattern === null) continue;
      const module = await import(path.join(APP, file));
      const rule = adminRouteRule(pattern);
      const declared = Object.keys(rule?.actions ?? {}).sort();
      expect(declared.length > 0, `${file}: an action needs its intents in the table`).toBe(
        typeof module.action === "function",
      );
      expect(declared, pattern).toEqual(Object.keys(DECISION_26[pattern]?.actions ?? {}).sort());
    }
  });
});

const UUID_PARAM = "00000000-0000-4000-8000-00000000abcd";
const concrete = (pattern: string) => pattern.replace(":id", UUID_PARAM);

describeEachDatabase("P-26 for every admin route and intent", (database) => {
  let app: InProcessApp;
  const staff = {} as Record<Role, Staff>;
  const MARKER = "Marker Customer 7741";

  beforeAll(async () => {
    const { db } = database();
    app = await inProcessApp();
    staff.owner = await insertStaff(db, "owner", "Olive");
    staff.manager = await insertStaff(db, "manager", "Manny");
    staff.driver = await insertStaff(db, "driver", "Dee");
    await insertOrder(db, { customerName: MARKER, deliveryDate: storeDay(new Date()) });
  });

  const refused = async (response: Response) => {
    const body = await response.text();
    expect(response.status).toBe(403);
    expect(body).toContain(NO_ACCESS);
    expect(body).not.toContain(MARKER);
  };

  it("opens each page and file for exactly the roles P-26 lists", async () => {
    const { db } = database();
    for (const [pattern, rule] of Object.entries(DECISION_26)) {
      for (const role of [O, M, D]) {
        const session = await signedIn(db, staff[role]);
        const resource = adminRouteRule(pattern)?.resource === true;
        const response = await app(
          pageRequest(concrete(pattern), session.cookie, resource ? "*/*" : "text/html"),
        );
        const label = `${role} GET ${pattern}`;
        if (rule.read.includes(role)) {
          expect(response.status, label).not.toBe(403);
          expect(response.status, label).not.toBe(401);
          expect(response.headers.get("Location") ?? "", label).not.toContain("/admin/login");
          await response.body?.cancel();
        } else {
          await refused(response);
        }
      }
      const anonymous = await app(pageRequest(concrete(pattern), null));
      expect([302, 401], `signed out GET ${pattern}`).toContain(anonymous.status);
      if (anonymous.status === 302) expect(anonymous.headers.get("Location")).toMatch(/^\/admin\/login/);
      expect(await anonymous.text()).not.toContain(MARKER);
    }
  });

  it("takes each post for exactly the roles P-26 lists", async () => {
    const { db } = database();
    for (const [pattern, rule] of Object.entries(DECISION_26)) {
      for (const [intent, roles] of Object.entries(rule.actions ?? {})) {
        const fields: Record<string, string> =
          intent === "*" ? {} : { intent, orderId: UUID_PARAM, id: UUID_PARAM };
        for (const role of [O, M, D]) {
          const session = await signedIn(db, staff[role]);
          const request = postRequest(concrete(pattern), session, fields);
          // An upload's body is its action's alone: its CSRF token comes in the header.
          if (adminRouteRule(pattern)?.streamedBody) request.headers.set("X-CSRF-Token", session.csrfToken);
          const response = await app(request);
          const label = `${role} POST ${pattern} ${intent}`;
          if (roles.includes(role)) {
            const body = await response.text();
            expect(body, label).not.toContain(NO_ACCESS);
            expect(response.status, label).not.toBe(401);
          } else {
            await refused(response);
          }
        }
        const anonymous = await app(postRequest(concrete(pattern), null, fields));
        expect([302, 401, 403], `signed out POST ${pattern} ${intent}`).toContain(anonymous.status);
        expect(await anonymous.text()).not.toContain(MARKER);
      }
    }
  });

  it("refuses a post whose intent the table does not know, for every role", async () => {
    const { db } = database();
    for (const role of [O, M, D]) {
      const session = await signedIn(db, staff[role]);
      await refused(await app(postRequest("/admin/today", session, { intent: "make-coffee" })));
    }
  });

  it("shows each role only the sections it can open, and sends a driver from /admin to their run", async () => {
    const { db } = database();
    const links = async (role: Role) => {
      const html = await (
        await app(pageRequest("/admin/today", (await signedIn(db, staff[role])).cookie))
      ).text();
      const nav = html.slice(html.indexOf('aria-label="Admin"'), html.indexOf("</nav>"));
      return [...nav.matchAll(/href="([^"]+)"/g)].map((match) => match[1]);
    };
    expect(await links(O)).toEqual([
      "/admin/today",
      "/driver",
      "/admin/dashboard",
      "/admin/products",
      "/admin/orders",
      "/admin/customers",
      "/admin/outbox",
      "/admin/settings/limits",
      "/admin/settings/delivery",
      "/admin/audit",
      "/admin/staff",
      "/admin/account",
    ]);
    expect(await links(M)).not.toContain("/admin/audit");
    expect(await links(M)).not.toContain("/admin/staff");
    expect(await links(D)).toEqual(["/admin/today", "/driver", "/admin/account"]);
    const home = await app(pageRequest("/admin", (await signedIn(db, staff.driver)).cookie));
    expect(home.headers.get("Location")).toBe("/admin/today");
  });

  it("draws the 403 page in the admin chrome, with the admin's own sections and no page data", async () => {
    const { db } = database();
    const driverEvents = () => db.select().from(auditEvents).where(eq(auditEvents.actorId, staff.driver.id));
    const before = await driverEvents();
    const response = await app(pageRequest("/admin/products", (await signedIn(db, staff.driver)).cookie));
    const html = await response.text();
    expect(response.status).toBe(403);
    expect(html).toContain(NO_ACCESS);
    expect(html).toContain(staff.driver.email);
    expect(html).toContain('aria-label="Admin"');
    expect(html).not.toContain("Loading products");
    // The refusal wrote nothing.
    expect(await driverEvents()).toEqual(before);
  });
});

describeEachDatabase("a driver's run", (database) => {
  let app: InProcessApp;

  it("shows a driver only today's orders assigned to them or unassigned, their ID photos and moves", async () => {
    const { db } = database();
    app = await inProcessApp();
    const driver = await insertStaff(db, "driver", "Dee");
    const other = await insertStaff(db, "driver", "Otto");
    const today = storeDay(new Date());
    const tomorrow = new Date(Date.parse(`${today}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const mine = await insertOrder(db, {
      customerName: "Mine Today",
      deliveryDate: today,
      driverId: driver.id,
    });
    const open = await insertOrder(db, { customerName: "Nobody's Today", deliveryDate: today });
    const theirs = await insertOrder(db, {
      customerName: "Otto's Today",
      deliveryDate: today,
      driverId: other.id,
    });
    const later = await insertOrder(db, {
      customerName: "Mine Tomorrow",
      deliveryDate: tomorrow,
      driverId: driver.id,
    });
    const session = await signedIn(db, driver);

    const board = await (await app(pageRequest("/admin/today", session.cookie))).text();
    expect(board).toContain("Mine Today");
    expect(board).toContain("Nobody&#x27;s Today");
    expect(board).not.toContain("Otto");
    expect(board).not.toContain("Mine Tomorrow");
    expect(board).not.toContain("Print pick list");
    expect(board).not.toContain(">Confirm<");
    expect(board).toContain(`/admin/id-photos/${mine.photoId}`);

    await (await app(pageRequest(`/admin/today?date=${tomorrow}`, session.cookie))).text().then((html) => {
      expect(html).toContain(NO_ACCESS);
      expect(html).not.toContain("Mine Tomorrow");
    });

    const photo = await app(pageRequest(`/admin/id-photos/${mine.photoId}`, session.cookie, "image/*"));
    expect(photo.status).toBe(200);
    expect(photo.headers.get("Content-Type")).toMatch(/^image\//);
    await photo.body?.cancel();
    for (const refusedPhoto of [theirs.photoId, later.photoId]) {
      const response = await app(pageRequest(`/admin/id-photos/${refusedPhoto}`, session.cookie, "image/*"));
      expect(response.status).toBe(403);
      expect(response.headers.get("Content-Type")).toMatch(/^text\/plain/);
    }
    const views = await db.select().from(auditEvents).where(eq(auditEvents.action, "id_photo.viewed"));
    expect(views.map((view) => [view.actorId, view.targetType, view.targetId])).toEqual([
      [driver.id, "order", mine.id],
    ]);
    expect(JSON.stringify(views)).not.toContain(mine.photoId);

    // A move on someone else's order is refused and changes nothing; one on their own is recorded.
    const refusedMove = await app(
      postRequest("/admin/today.data", session, { intent: "out-for-delivery", orderId: theirs.id }),
    );
    expect(refusedMove.status).toBe(403);
    expect(await statusOf(db, theirs.id)).toBe("confirmed");
    const move = await app(
      postRequest("/admin/today.data", session, { intent: "out-for-delivery", orderId: open.id }),
    );
    expect(move.status).toBe(200);
    expect(await statusOf(db, open.id)).toBe("out_for_delivery");
    const [changed] = await db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "order.status_changed"));
    expect(changed).toMatchObject({
      actorId: driver.id,
      actorRole: "driver",
      targetId: open.id,
      details: { from: "confirmed", to: "out_for_delivery" },
    });
  });

  it("lets a manager assign an order and a whole slot to a driver, audited per order", async () => {
    const { db } = database();
    const manager = await insertStaff(db, "manager", "Manny");
    const driver = await insertStaff(db, "driver", "Rita");
    const today = storeDay(new Date());
    const first = await insertOrder(db, {
      customerName: "Slot One",
      deliveryDate: today,
      deliveryTime: "4:00 PM-6:00 PM",
    });
    const second = await insertOrder(db, {
      customerName: "Slot Two",
      deliveryDate: today,
      deliveryTime: "4:00 PM-6:00 PM",
    });
    const session = await signedIn(db, manager);
    const board = await (await app(pageRequest("/admin/today", session.cookie))).text();
    expect(board).toContain(`<option value="${driver.id}">Rita</option>`);

    const one = await app(
      postRequest("/admin/today.data", session, { intent: "assign", orderId: first.id, driverId: driver.id }),
    );
    expect(one.status).toBe(200);
    const slot = await app(
      postRequest("/admin/today.data", session, {
        intent: "assign-slot",
        date: today,
        slot: "4:00 PM-6:00 PM",
        driverId: driver.id,
      }),
    );
    expect(slot.status).toBe(200);
    const events = await db.select().from(auditEvents).where(eq(auditEvents.action, "order.driver_assigned"));
    expect(events.map((event) => event.targetId).sort()).toEqual([first.id, second.id].sort());
    expect(events.every((event) => event.actorId === manager.id)).toBe(true);
    const notADriver = await app(
      postRequest("/admin/today.data", session, {
        intent: "assign",
        orderId: first.id,
        driverId: manager.id,
      }),
    );
    expect(notADriver.status).toBe(400);

    // The customer's order page names the driver once the order is out for delivery, not before.
    const orderPage = async () =>
      (await app(pageRequest(`/thank-you?order=${first.publicToken}`, null))).text();
    expect(await orderPage()).not.toContain("Your driver is");
    const out = await app(
      postRequest("/admin/today.data", session, { intent: "out-for-delivery", orderId: first.id }),
    );
    expect(out.status).toBe(200);
    expect(await orderPage()).toMatch(/Your driver is (<!-- -->)?Rita</);
  });
});
