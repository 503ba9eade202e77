/**
 * Customers for staff (/admin/customers, record 057): the search over accounts and over guests
 * known only by their orders' e-mail, a customer's page (orders, ID status, the staff note), and
 * the export and erasure a customer may ask staff for: the same JSON and the same deletion as the
 * customer's own (record 053), audited with the staff member as the actor.
 */
import { and, desc, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import { customers, emailOutbox, type OrderStatus, orders } from "#app/db/schema.ts";
import { type AuditBy, recordAudit } from "#app/features/audit/audit.server.ts";
import { orderSearchCondition } from "#app/features/orders/order-search.server.ts";
import { OPEN_STATUSES } from "#app/features/orders/order-status.ts";
import {
  type AccountDeletion,
  anonymiseOrders,
  customerDataExport,
  deleteCustomerAccount,
  exportedOrders,
} from "./account.server.ts";
import { STAFF_NOTE_MAX } from "./customer.schema.ts";

/** Rows one search shows. */
export const CUSTOMER_SEARCH_LIMIT = 30;

export type CustomerSearchRow =
  | { kind: "account"; id: string; email: string; name: string; phone: string; orders: number }
  | { kind: "guest"; email: string; name: string; phone: string; orders: number };

function likePrefix(value: string) {
  return `${value.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * Accounts whose name, e-mail or phone matches, and the e-mails of matching orders: an e-mail with
 * an account is that account, one without is a guest (known only by its orders).
 */
export async function searchCustomers(q: string): Promise<CustomerSearchRow[]> {
  const text = q.trim().toLowerCase();
  if (!text) return [];
  const database = await db();
  const digits = text.replace(/\D/g, "");
  const phoneSearch = digits.length >= 3 && /^[\d\s()+.-]+$/.test(text);
  const accountRows = await database
    .select({ id: customers.id, email: customers.email, name: customers.name, phone: customers.phone })
    .from(customers)
    .where(
      sql`(lower(${customers.name}) LIKE ${likePrefix(text)} OR regexp_replace(lower(${customers.name}), '^.*\\s', '') LIKE ${likePrefix(text)} OR ${customers.email} LIKE ${likePrefix(text)}${
        phoneSearch
          ? sql` OR regexp_replace(${customers.phone}, '\\D', '', 'g') LIKE ${`%${digits}%`}`
          : sql``
      })`,
    )
    .orderBy(customers.email)
    .limit(CUSTOMER_SEARCH_LIMIT);
  const orderRows = await database
    .select({
      email: sql<string>`lower(${orders.userEmail})`,
      name: sql<string>`(array_agg(${orders.customerName} ORDER BY ${orders.createdAt} DESC))[1]`,
      phone: sql<string>`(array_agg(${orders.phone} ORDER BY ${orders.createdAt} DESC))[1]`,
      count: sql<number>`count(*)::int`,
    })
    .from(orders)
    .where(and(orderSearchCondition(text), sql`${orders.userEmail} <> ''`))
    .groupBy(sql`lower(${orders.userEmail})`)
    .orderBy(sql`lower(${orders.userEmail})`)
    .limit(CUSTOMER_SEARCH_LIMIT);
  const emails = [...new Set([...accountRows.map((row) => row.email), ...orderRows.map((row) => row.email)])];
  if (emails.length === 0) return [];
  const [accounts, counts] = await Promise.all([
    database
      .select({ id: customers.id, email: customers.email, name: customers.name, phone: customers.phone })
      .from(customers)
      .where(inArray(customers.email, emails)),
    database
      .select({ email: sql<string>`lower(${orders.userEmail})`, count: sql<number>`count(*)::int` })
      .from(orders)
      .where(inArray(sql`lower(${orders.userEmail})`, emails))
      .groupBy(sql`lower(${orders.userEmail})`),
  ]);
  const byEmail = new Map(accounts.map((account) => [account.email, account]));
  const countOf = new Map(counts.map((row) => [row.email, row.count]));
  const fromOrders = new Map(orderRows.map((row) => [row.email, row]));
  return emails
    .sort()
    .slice(0, CUSTOMER_SEARCH_LIMIT)
    .map((email): CustomerSearchRow => {
      const account = byEmail.get(email);
      const orderCount = countOf.get(email) ?? 0;
      if (account) return { kind: "account", ...account, orders: orderCount };
      const guest = fromOrders.get(email);
      return { kind: "guest", email, name: guest?.name ?? "", phone: guest?.phone ?? "", orders: orderCount };
    });
}

export type StaffCustomerOrder = {
  id: string;
  status: OrderStatus;
  createdAt: string;
  deliveryDate: string;
  deliveryTime: string;
  totalAmountCents: number;
  hasIdPhoto: boolean;
};

/**
 * A customer account as staff see it: contact details, the note, and every order placed with the
 * account or its (verified) e-mail, newest first. Reading joins nothing: guest orders join the
 * account when the customer looks (record 053).
 */
export async function staffCustomer(id: string) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const database = await db();
  const [customer] = await database
    .select({
      id: customers.id,
      email: customers.email,
      name: customers.name,
      phone: customers.phone,
      staffNote: customers.staffNote,
      createdAt: customers.createdAt,
    })
    .from(customers)
    .where(eq(customers.id, id));
  if (!customer) return null;
  const rows = await database
    .select({
      id: orders.id,
      status: orders.status,
      createdAt: orders.createdAt,
      deliveryDate: orders.deliveryDate,
      deliveryTime: orders.deliveryTime,
      totalAmountCents: orders.totalAmountCents,
      hasIdPhoto: sql<boolean>`${orders.idPhotoId} IS NOT NULL`,
    })
    .from(orders)
    .where(sql`(${orders.customerId} = ${id} OR lower(${orders.userEmail}) = ${customer.email})`)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(200);
  return {
    ...customer,
    createdAt: customer.createdAt.toISOString(),
    orders: rows.map((row): StaffCustomerOrder => ({ ...row, createdAt: row.createdAt.toISOString() })),
  };
}

/** Saves the staff note (audited in the same transaction); false when the customer is gone. */
export async function saveStaffNote(id: string, note: string, by: AuditBy) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return false;
  const text = note.trim().slice(0, STAFF_NOTE_MAX);
  const database = await db();
  return database.transaction(async (tx) => {
    const [updated] = await tx
      .update(customers)
      .set({ staffNote: text, updatedAt: new Date() })
      .where(eq(customers.id, id))
      .returning({ id: customers.id });
    if (!updated) return false;
    await recordAudit(tx, by.actor, by.origin, {
      action: "customer.note-saved",
      targetType: "customer",
      targetId: id,
      details: { length: text.length },
    });
    return true;
  });
}

/** The customer's own 'Download my data' JSON, for a request made to staff (audited as an export). */
export async function exportCustomerForStaff(id: string, by: AuditBy) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const database = await db();
  const [customer] = await database
    .select({ id: customers.id, email: customers.email })
    .from(customers)
    .where(eq(customers.id, id));
  if (!customer) return null;
  const exported = await customerDataExport({ customerId: customer.id, email: customer.email });
  if (!exported) return null;
  await recordAudit(database, by.actor, by.origin, {
    action: "customer.exported",
    targetType: "customer",
    targetId: id,
    details: { orders: exported.orders.length },
  });
  return exported;
}

/** The customer's own deletion (record 053), carried out by staff on request. */
export async function eraseCustomerForStaff(id: string, by: AuditBy): Promise<AccountDeletion> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return { ok: false, error: "This account no longer exists." };
  return deleteCustomerAccount(id, by.origin, by.actor);
}

/**
 * A guest's orders: placed with `email` (any case) and joined to no account. An e-mail with an
 * account is that account's (its page exports and erases it), so a guest has none.
 */
function guestOrdersOf(email: string) {
  return and(sql`lower(${orders.userEmail}) = ${email}`, isNull(orders.customerId));
}

async function hasAccount(executor: Executor, email: string) {
  const [row] = await executor
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.email, email))
    .limit(1);
  return row !== undefined;
}

/**
 * 'Export data' for a guest known only by their orders' e-mail (record 057): the orders as the
 * account's download shows them, audited as an export. Null when the e-mail has no guest orders
 * or belongs to an account.
 */
export async function exportGuestForStaff(email: string, by: AuditBy) {
  const address = email.trim().toLowerCase();
  const database = await db();
  if (!address || (await hasAccount(database, address))) return null;
  const exported = await exportedOrders(database, guestOrdersOf(address));
  if (exported.length === 0) return null;
  // The audit names no e-mail: the event outlives an erasure.
  await recordAudit(database, by.actor, by.origin, {
    action: "customer.exported",
    targetType: "guest",
    details: { orders: exported.length },
  });
  return { exportedAt: new Date().toISOString(), guest: { email: address }, orders: exported };
}

/**
 * Erases a guest's data on request (record 057), as an account's deletion does: the orders stay
 * for the books anonymised, their ID photos deleted, the mails to the address leave the outbox.
 * Refused while an order is open. One audit event, in the same transaction, naming no e-mail.
 */
export async function eraseGuestForStaff(email: string, by: AuditBy): Promise<AccountDeletion> {
  const address = email.trim().toLowerCase();
  const database = await db();
  return database.transaction(async (tx) => {
    if (await hasAccount(tx, address))
      return { ok: false as const, error: "This e-mail has an account: erase it from its page." };
    const mine = await tx
      .select({ id: orders.id, status: orders.status, idPhotoId: orders.idPhotoId })
      .from(orders)
      .where(guestOrdersOf(address))
      .for("update");
    if (!address || mine.length === 0) {
      return { ok: false as const, error: "No guest orders with this e-mail." };
    }
    if (mine.some((order) => (OPEN_STATUSES as readonly string[]).includes(order.status))) {
      return {
        ok: false as const,
        error:
          "An order of this customer is still open. Cancel it, or wait until it is delivered, then erase the data.",
      };
    }
    const ids = mine.map((order) => order.id);
    const photoIds = await anonymiseOrders(tx, mine);
    await tx
      .delete(emailOutbox)
      .where(
        and(
          or(eq(emailOutbox.toAddress, address), inArray(emailOutbox.orderId, ids)),
          ne(emailOutbox.status, "sending"),
        ),
      );
    await recordAudit(tx, by.actor, by.origin, {
      action: "customer.erased",
      targetType: "guest",
      details: { orders: ids.length, idPhotos: photoIds.length },
    });
    return { ok: true as const, anonymisedOrders: ids.length };
  });
}
