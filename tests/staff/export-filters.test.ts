/**
 * Filters the database would refuse (a 31st of February, year 0, a NUL in a search) never reach it:
 * the CSV exports answer 400 naming them, before the stream starts (a query failing mid-stream could
 * only cut the download short and log the query), and the lists drop them and show everything.
 * Through the app's own request handling, signed in as the owner, on both databases.
 */
import { beforeAll, expect, it } from "vitest";
import { storeDay } from "#app/utils/store-time.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { type InProcessApp, inProcessApp } from "#tests/support/in-process-app.ts";
import { insertOrder, insertStaff, pageRequest, signedIn } from "./support.ts";

const BAD_ORDER_FILTERS = [
  ["from=2026-02-30", "from"],
  ["from=0000-01-01", "from"],
  ["to=2026-13-01", "to"],
  ["q=%00", "q"],
  ["q=Quin%00tessa", "q"],
  ["q=%1b%5B2J", "q"],
  ["status=lost", "status"],
  ["from=0000-01-01&q=%00", "q, from"],
] as const;

const BAD_AUDIT_FILTERS = [
  ["from=2026-02-30", "from"],
  ["from=0000-01-01", "from"],
  ["to=0000-02-29", "to"],
  ["action=%00", "action"],
  ["targetType=a%00b", "targetType"],
  ["targetId=%00", "targetId"],
  ["actor=not-a-uuid", "actor"],
] as const;

describeEachDatabase("exports refuse filters the database cannot take", (database) => {
  let app: InProcessApp;
  let cookie: string;
  const MARKER = "Quintessa Filtertest";

  beforeAll(async () => {
    const { db } = database();
    app = await inProcessApp();
    const owner = await insertStaff(db, "owner", "Olive");
    cookie = (await signedIn(db, owner)).cookie;
    await insertOrder(db, { customerName: MARKER, deliveryDate: storeDay(new Date()) });
  });

  const get = (path: string, accept = "text/html") => app(pageRequest(path, cookie, accept));

  it("the order export answers 400 naming each bad filter, in plain text", async () => {
    for (const [query, named] of BAD_ORDER_FILTERS) {
      for (const scope of ["incoming", "completed"]) {
        const response = await get(`/admin/orders/export?scope=${scope}&${query}`, "text/csv");
        const body = await response.text();
        expect(response.status, query).toBe(400);
        expect(response.headers.get("content-type"), query).toBe("text/plain; charset=utf-8");
        expect(body, query).toContain(`these filters are not valid: ${named}.`);
      }
    }
    const fine = await get("/admin/orders/export?scope=incoming&from=2024-02-29&q=quintessa", "text/csv");
    expect(fine.status).toBe(200);
    expect(fine.headers.get("content-disposition")).toBe(
      `attachment; filename="orders-incoming-${storeDay(new Date())}.csv"`,
    );
    expect(await fine.text()).toContain(MARKER);
    const recorded = await get("/admin/audit/export?action=orders.exported", "text/csv");
    expect(await recorded.text()).toContain("orders.exported");
  });

  it("the audit export answers 400 naming each bad filter, in plain text", async () => {
    for (const [query, named] of BAD_AUDIT_FILTERS) {
      const response = await get(`/admin/audit/export?${query}`, "text/csv");
      const body = await response.text();
      expect(response.status, query).toBe(400);
      expect(body, query).toContain(`these filters are not valid: ${named}.`);
    }
    const fine = await get("/admin/audit/export?from=2024-02-29&action=audit.exported", "text/csv");
    expect(fine.status).toBe(200);
    expect(fine.headers.get("content-disposition")).toBe(
      `attachment; filename="audit-${storeDay(new Date())}.csv"`,
    );
    expect(await fine.text()).toContain("audit.exported");
  });

  it("the lists drop a bad filter and show everything, never a 500", async () => {
    for (const [query] of BAD_ORDER_FILTERS) {
      const response = await get(`/admin/orders?${query}`);
      expect(response.status, query).toBe(200);
      expect(await response.text(), query).toContain(MARKER);
    }
    for (const [query] of BAD_AUDIT_FILTERS) {
      const response = await get(`/admin/audit?${query}`);
      expect(response.status, query).toBe(200);
    }
  });
});
