/**
 * The customer's account (record 053): their orders with the timeline, 'Order again', saved
 * addresses (checked against the delivery zones, one default), contact details, the data download
 * and the account's deletion (orders kept for the books with personal data removed, ID photos
 * deleted, audited).
 */
import { and, desc, eq, inArray, lt, ne, or, type SQL, sql } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import {
  customerAddresses,
  customerIdFiles,
  customerPasskeys,
  customerSessions,
  customers,
  emailOutbox,
  idPhotos,
  type OrderStatus,
  orderItems,
  orderStatusEvents,
  orders,
} from "#app/db/schema.ts";
import { type AuditActor, type AuditOrigin, recordAudit } from "#app/features/audit/audit.server.ts";
import { currentSizePrices } from "#app/features/cart/cart.server.ts";
import type { CartItemInput } from "#app/features/cart/cart.ts";
import { zoneCheckData } from "#app/features/delivery/delivery.server.ts";
import { zipRefusalMessage, zoneForZip } from "#app/features/delivery/delivery-area.ts";
import { OPEN_STATUSES } from "#app/features/orders/order-status.ts";
import type { AddressInput } from "./customer.schema.ts";
import { joinGuestOrders } from "./sign-in.server.ts";

/** Orders one page of the account shows; older ones come with 'Show older orders'. */
export const ORDERS_PER_PAGE = 20;

export type AccountOrder = {
  id: string;
  publicToken: string;
  status: OrderStatus;
  createdAt: string;
  deliveryDate: string;
  deliveryTime: string;
  totalAmountCents: number;
  cancelReason: string | null;
  items: { productName: string; sizeLabel: string; quantity: number }[];
  timeline: { status: OrderStatus; at: string }[];
};

/**
 * A page of the customer's orders, newest first; `before` is the last order id of the page before.
 * A read only: guest orders join the account at sign-in, a signed-in checkout's order is the
 * account's from the start (record 053).
 */
export async function accountOrders(customer: { customerId: string }, options: { before?: string } = {}) {
  const { customerId } = customer;
  const database = await db();
  let cursor: { createdAt: Date; id: string } | undefined;
  if (options.before && /^[0-9a-f-]{36}$/i.test(options.before)) {
    const [row] = await database
      .select({ createdAt: orders.createdAt, id: orders.id })
      .from(orders)
      .where(and(eq(orders.id, options.before), eq(orders.customerId, customerId)));
    cursor = row;
  }
  const rows = await database
    .select({
      id: orders.id,
      publicToken: orders.publicToken,
      status: orders.status,
      createdAt: orders.createdAt,
      deliveryDate: orders.deliveryDate,
      deliveryTime: orders.deliveryTime,
      totalAmountCents: orders.totalAmountCents,
      cancelReason: orders.cancelReason,
    })
    .from(orders)
    .where(
      and(
        eq(orders.customerId, customerId),
        cursor
          ? or(
              lt(orders.createdAt, cursor.createdAt),
              and(eq(orders.createdAt, cursor.createdAt), lt(orders.id, cursor.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(ORDERS_PER_PAGE + 1);
  const page = rows.slice(0, ORDERS_PER_PAGE);
  const ids = page.map((row) => row.id);
  const [items, events] =
    ids.length === 0
      ? [[], []]
      : await Promise.all([
          database
            .select({
              orderId: orderItems.orderId,
              productName: orderItems.productName,
              sizeLabel: orderItems.sizeLabel,
              quantity: orderItems.quantity,
            })
            .from(orderItems)
            .where(inArray(orderItems.orderId, ids))
            .orderBy(orderItems.id),
          database
            .select({
              orderId: orderStatusEvents.orderId,
              status: orderStatusEvents.status,
              at: orderStatusEvents.createdAt,
            })
            .from(orderStatusEvents)
            .where(inArray(orderStatusEvents.orderId, ids))
            .orderBy(orderStatusEvents.id),
        ]);
  const list: AccountOrder[] = page.map((row) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
    items: items
      .filter((item) => item.orderId === row.id)
      .map(({ productName, sizeLabel, quantity }) => ({ productName, sizeLabel, quantity })),
    timeline: [
      { status: "pending" as OrderStatus, at: row.createdAt.toISOString() },
      ...events
        .filter((event) => event.orderId === row.id)
        .map((event) => ({ status: event.status, at: event.at.toISOString() })),
    ],
  }));
  return { orders: list, more: rows.length > ORDERS_PER_PAGE ? (page.at(-1)?.id ?? null) : null };
}

export type OrderAgainResult =
  | { ok: true; lines: { item: CartItemInput; quantity: number }[]; unavailable: string[]; reduced: string[] }
  | { ok: false; error: string };

/**
 * 'Order again': the order's sizes still sold, at today's prices, as cart lines (a quantity above
 * the stock on hand brought down to it); the ones no longer sold or sold out, by name.
 */
export async function orderAgain(customerId: string, orderId: string): Promise<OrderAgainResult> {
  if (!/^[0-9a-f-]{36}$/i.test(orderId)) return { ok: false, error: "That order was not found." };
  const database = await db();
  const [order] = await database
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.customerId, customerId)));
  if (!order) return { ok: false, error: "That order was not found." };
  const items = await database
    .select({
      productSizeId: orderItems.productSizeId,
      productName: orderItems.productName,
      sizeLabel: orderItems.sizeLabel,
      quantity: orderItems.quantity,
    })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(orderItems.id);
  const current = await currentSizePrices(
    items.flatMap((item) => (item.productSizeId ? [item.productSizeId] : [])),
  );
  const bySize = new Map(current.map((size) => [size.sizeId, size]));
  const lines: { item: CartItemInput; quantity: number }[] = [];
  const unavailable: string[] = [];
  const reduced: string[] = [];
  for (const item of items) {
    const fresh = item.productSizeId ? bySize.get(item.productSizeId) : undefined;
    const name = `${item.productName} (${item.sizeLabel})`;
    if (!fresh?.inStock) {
      unavailable.push(name);
      continue;
    }
    const { inStock: _inStock, stock, flowerEquivalentMg: _equivalent, ...cartItem } = fresh;
    const quantity = Math.min(item.quantity, stock ?? item.quantity);
    if (quantity < item.quantity) reduced.push(`${name}: ${quantity} left`);
    lines.push({ item: cartItem, quantity });
  }
  return { ok: true, lines, unavailable, reduced };
}

export type SavedAddress = {
  id: string;
  street: string;
  city: string;
  state: "DC" | "VA";
  zipCode: string;
  isDefault: boolean;
};

export async function savedAddresses(customerId: string, executor?: Executor): Promise<SavedAddress[]> {
  const database = executor ?? (await db());
  const rows = await database
    .select({
      id: customerAddresses.id,
      street: customerAddresses.street,
      city: customerAddresses.city,
      state: customerAddresses.state,
      zipCode: customerAddresses.zipCode,
      isDefault: customerAddresses.isDefault,
    })
    .from(customerAddresses)
    .where(eq(customerAddresses.customerId, customerId))
    .orderBy(desc(customerAddresses.isDefault), customerAddresses.createdAt);
  return rows.map((row) => ({ ...row, state: row.state as "DC" | "VA" }));
}

/** How many addresses one account keeps. */
export const MAX_SAVED_ADDRESSES = 10;

export type AddressChange = { ok: true } | { ok: false; field?: "zipCode"; error: string };

/** Saves an address when the shop delivers there; the first one, or one marked so, is the default. */
export async function saveAddress(customerId: string, input: AddressInput): Promise<AddressChange> {
  const zoneCheck = zoneForZip(await zoneCheckData(), input.zipCode, input.state);
  if (!zoneCheck.ok) {
    return { ok: false, field: "zipCode", error: zipRefusalMessage(zoneCheck, input.state) };
  }
  const database = await db();
  return database.transaction(async (tx) => {
    // Serialises this customer's address changes (the one-default index decides the rest).
    await tx.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId)).for("update");
    const existing = await savedAddresses(customerId, tx);
    if (existing.length >= MAX_SAVED_ADDRESSES) {
      return {
        ok: false as const,
        error: `You can keep up to ${MAX_SAVED_ADDRESSES} addresses. Remove one first.`,
      };
    }
    const isDefault = input.isDefault || existing.length === 0;
    if (isDefault) {
      await tx
        .update(customerAddresses)
        .set({ isDefault: false })
        .where(eq(customerAddresses.customerId, customerId));
    }
    await tx.insert(customerAddresses).values({
      customerId,
      street: input.street,
      city: input.city,
      state: input.state,
      zipCode: zoneCheck.zip,
      isDefault,
    });
    return { ok: true as const };
  });
}

export async function makeDefaultAddress(customerId: string, addressId: string) {
  const database = await db();
  await database.transaction(async (tx) => {
    const [found] = await tx
      .select({ id: customerAddresses.id })
      .from(customerAddresses)
      .where(and(eq(customerAddresses.id, addressId), eq(customerAddresses.customerId, customerId)));
    if (!found) return;
    await tx
      .update(customerAddresses)
      .set({ isDefault: false })
      .where(eq(customerAddresses.customerId, customerId));
    await tx.update(customerAddresses).set({ isDefault: true }).where(eq(customerAddresses.id, addressId));
  });
}

export async function removeAddress(customerId: string, addressId: string) {
  const database = await db();
  await database.transaction(async (tx) => {
    const [gone] = await tx
      .delete(customerAddresses)
      .where(and(eq(customerAddresses.id, addressId), eq(customerAddresses.customerId, customerId)))
      .returning({ isDefault: customerAddresses.isDefault });
    if (!gone?.isDefault) return;
    // The oldest address left becomes the default.
    const [next] = await tx
      .select({ id: customerAddresses.id })
      .from(customerAddresses)
      .where(eq(customerAddresses.customerId, customerId))
      .orderBy(customerAddresses.createdAt)
      .limit(1);
    if (next)
      await tx.update(customerAddresses).set({ isDefault: true }).where(eq(customerAddresses.id, next.id));
  });
}

export async function saveContact(customerId: string, contact: { name: string; phone: string }) {
  const database = await db();
  await database
    .update(customers)
    .set({ name: contact.name, phone: contact.phone, updatedAt: new Date() })
    .where(eq(customers.id, customerId));
}

/** Everything the shop keeps about the customer, for 'Download my data' (JSON). */
export async function customerDataExport(account: { customerId: string; email: string }) {
  const { customerId } = account;
  const database = await db();
  await joinGuestOrders(database, customerId, account.email);
  const [customer] = await database.select().from(customers).where(eq(customers.id, customerId));
  if (!customer) return null;
  const [addresses, passkeys, sessions, exported] = await Promise.all([
    savedAddresses(customerId, database),
    database
      .select({
        createdAt: customerPasskeys.createdAt,
        lastUsedAt: customerPasskeys.lastUsedAt,
        deviceName: customerPasskeys.deviceName,
      })
      .from(customerPasskeys)
      .where(eq(customerPasskeys.customerId, customerId)),
    database
      .select({
        createdAt: customerSessions.createdAt,
        lastSeenAt: customerSessions.lastSeenAt,
        userAgent: customerSessions.userAgent,
      })
      .from(customerSessions)
      .where(eq(customerSessions.customerId, customerId)),
    exportedOrders(database, eq(orders.customerId, customerId)),
  ]);
  return {
    exportedAt: new Date().toISOString(),
    account: {
      email: customer.email,
      name: customer.name,
      phone: customer.phone,
      emailVerifiedAt: customer.emailVerifiedAt.toISOString(),
      createdAt: customer.createdAt.toISOString(),
    },
    addresses: addresses.map(({ id: _id, ...address }) => address),
    passkeys,
    sessions,
    orders: exported,
  };
}

/**
 * Orders as the data download shows them, newest first, each with its items: the account's own,
 * or a guest's exported by staff (record 057).
 */
export async function exportedOrders(executor: Executor, where: SQL | undefined) {
  const rows = await executor
    .select({
      id: orders.id,
      status: orders.status,
      createdAt: orders.createdAt,
      name: orders.customerName,
      email: orders.userEmail,
      phone: orders.phone,
      deliveryAddress: orders.deliveryAddress,
      deliveryDate: orders.deliveryDate,
      deliveryTime: orders.deliveryTime,
      totalAmountCents: orders.totalAmountCents,
      notes: orders.notes,
      cancelReason: orders.cancelReason,
      hasIdPhoto: sql<boolean>`${orders.idPhotoId} IS NOT NULL`,
    })
    .from(orders)
    .where(where)
    .orderBy(desc(orders.createdAt));
  const ids = rows.map((row) => row.id);
  const items =
    ids.length === 0
      ? []
      : await executor
          .select({
            orderId: orderItems.orderId,
            productName: orderItems.productName,
            sizeLabel: orderItems.sizeLabel,
            quantity: orderItems.quantity,
            unitPriceCents: orderItems.unitPriceCents,
          })
          .from(orderItems)
          .where(inArray(orderItems.orderId, ids));
  return rows.map((row) => ({
    ...row,
    items: items.filter((item) => item.orderId === row.id).map(({ orderId: _orderId, ...item }) => item),
  }));
}

export type AccountDeletion = { ok: true; anonymisedOrders: number } | { ok: false; error: string };

/** What an anonymised order keeps in place of the customer's details. */
export const DELETED_CUSTOMER_NAME = "Deleted customer";

/**
 * Keeps `rows` for the books with the name, e-mail, phone, address and notes removed, and deletes
 * their ID photos; the caller holds the rows locked and has checked none is open. Returns the
 * deleted photos' ids.
 */
export async function anonymiseOrders(tx: Executor, rows: { id: string; idPhotoId: string | null }[]) {
  const ids = rows.map((order) => order.id);
  const photoIds = rows.flatMap((order) => (order.idPhotoId ? [order.idPhotoId] : []));
  if (ids.length > 0) {
    await tx
      .update(orders)
      .set({
        customerId: null,
        customerName: DELETED_CUSTOMER_NAME,
        userEmail: "",
        phone: "",
        street: "",
        city: "",
        zipCode: "",
        deliveryAddress: "",
        notes: null,
        idPhotoId: null,
        updatedAt: new Date(),
      })
      .where(inArray(orders.id, ids));
  }
  if (photoIds.length > 0) await tx.delete(idPhotos).where(inArray(idPhotos.id, photoIds));
  return photoIds;
}

/**
 * Deletes the account (record 053): its orders stay for the books with the name, e-mail, phone,
 * address and notes removed and their ID photos deleted; its sessions, passkeys and addresses go;
 * the e-mails sent to it leave the outbox. Refused while an order is still open (the driver needs
 * the address). One audit event, in the same transaction.
 */
export async function deleteCustomerAccount(
  customerId: string,
  origin: AuditOrigin,
  /** Staff erasing the data on the customer's request (record 057); null: the customer. */
  staff: AuditActor | null = null,
): Promise<AccountDeletion> {
  const database = await db();
  return database.transaction(async (tx) => {
    const [customer] = await tx
      .select({ id: customers.id, email: customers.email })
      .from(customers)
      .where(eq(customers.id, customerId))
      .for("update");
    if (!customer) return { ok: false as const, error: "This account no longer exists." };
    // Every order placed with the verified address is the account's, and goes anonymous with it.
    await joinGuestOrders(tx, customerId, customer.email);
    const mine = await tx
      .select({ id: orders.id, status: orders.status, idPhotoId: orders.idPhotoId })
      .from(orders)
      .where(eq(orders.customerId, customerId))
      .for("update");
    if (mine.some((order) => (OPEN_STATUSES as readonly string[]).includes(order.status))) {
      return {
        ok: false as const,
        error: staff
          ? "An order of this customer is still open. Cancel it, or wait until it is delivered, then erase the data."
          : "An order of yours is still open. Cancel it, or wait until it is delivered, then delete the account.",
      };
    }
    const ids = mine.map((order) => order.id);
    const photoIds = await anonymiseOrders(tx, mine);
    // The ID on file goes with the account (record 058); its row goes by the customer's cascade.
    const [file] = await tx
      .select({ photoId: customerIdFiles.photoId })
      .from(customerIdFiles)
      .where(eq(customerIdFiles.customerId, customerId));
    if (file) {
      photoIds.push(file.photoId);
      await tx.delete(idPhotos).where(eq(idPhotos.id, file.photoId));
    }
    await tx.delete(emailOutbox).where(
      and(
        or(
          eq(emailOutbox.toAddress, customer.email),
          ids.length > 0 ? inArray(emailOutbox.orderId, ids) : undefined,
        ),
        // A mail being sent right now stays with its sender's lease.
        ne(emailOutbox.status, "sending"),
      ),
    );
    await tx.delete(customers).where(eq(customers.id, customerId));
    await recordAudit(tx, staff ?? { userId: null, email: null, role: null }, origin, {
      action: staff ? "customer.erased" : "customer.deleted",
      targetType: "customer",
      targetId: customerId,
      details: { orders: ids.length, idPhotos: photoIds.length },
    });
    return { ok: true as const, anonymisedOrders: ids.length };
  });
}
