/**
 * Staff, orders and requests for the role tests: staff members and their sessions written straight
 * into the database (no invitation needed), orders of any day with an ID photo, and requests to the
 * app in-process as a signed-in browser would send them (session cookie, same origin, CSRF field).
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import { adminUsers, orders, type StaffRole } from "#app/db/schema.ts";
import type { AuditBy } from "#app/features/audit/audit.server.ts";
import { processIdPhoto, storeIdPhoto } from "#app/features/media/id-photos.server.ts";
import { createSession, SESSION_COOKIE } from "#app/features/staff/sessions.server.ts";
import { testPng } from "#tests/support/checkout-test-helpers.server.ts";
import { insertOrderRow, type OrderRow } from "#tests/support/order-rows.ts";

export type Staff = { id: string; email: string; role: StaffRole };

let staffCount = 0;

export async function insertStaff(db: Database, role: StaffRole, firstName = ""): Promise<Staff> {
  staffCount += 1;
  const email = `${role}${staffCount}-${randomUUID().slice(0, 6)}@staff.example`;
  const [row] = await db
    .insert(adminUsers)
    // Owners and managers must have a second factor before any admin page opens (P-27):
    // these have enrolled; drivers have not (optional for them by default).
    .values({
      email,
      passwordHash: "not-a-real-hash",
      role,
      firstName,
      totpEnabledAt: role === "driver" ? null : new Date(),
    })
    .returning({ id: adminUsers.id });
  return { id: (row as { id: string }).id, email, role };
}

/** `staff` as the audit log records who acted (no request: a domain function called directly). */
export function auditByStaff(staff: Staff, ipAddress: string | null = null): AuditBy {
  return {
    actor: { userId: staff.id, email: staff.email, role: staff.role },
    origin: { ipAddress, requestId: null },
  };
}

/** A browser signed in as `staff`: a fresh session each time (a post to /admin/logout ends one). */
export async function signedIn(db: Database, staff: Staff) {
  const { token, csrfToken } = await createSession(db, staff.id);
  return { cookie: `${SESSION_COOKIE}=${token}`, csrfToken };
}

export function pageRequest(path: string, cookie: string | null, accept = "text/html") {
  return new Request(`http://localhost${path}`, {
    headers: { Accept: accept, ...(cookie ? { Cookie: cookie } : {}) },
  });
}

export function postRequest(
  path: string,
  session: { cookie: string; csrfToken: string } | null,
  fields: Record<string, string>,
) {
  const body = new URLSearchParams({ ...fields, ...(session ? { csrf: session.csrfToken } : {}) });
  return new Request(`http://localhost${path}`, {
    method: "POST",
    body,
    headers: {
      Accept: "text/html",
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: "http://localhost",
      ...(session ? { Cookie: session.cookie } : {}),
    },
  });
}

/** An order straight into the table (the board reads any status, any day), with an ID photo. */
export async function insertOrder(db: Database, fields: Omit<OrderRow, "idPhotoId">) {
  const photoId = await storeIdPhoto(await processIdPhoto(await testPng()), db);
  const { id, publicToken } = await insertOrderRow(db, { ...fields, idPhotoId: photoId });
  return { id, photoId, publicToken };
}

export async function statusOf(db: Database, orderId: string) {
  const [row] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
  return row?.status;
}
