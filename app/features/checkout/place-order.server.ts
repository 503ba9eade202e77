/**
 * Placing an order (K-4 'Order sequence on submit', P-7–P-10 and P-12), all or nothing in
 * one transaction: prices come from the database, stock is decremented conditionally (never below
 * 0), the order and its item snapshots are written, the dashboard's running totals move, and both
 * e-mails are queued. The idempotency key makes a double submit return the first order.
 *
 * Two round trips: one read (a replayed key, the sizes' prices and names, the limits and the
 * client's order budget), then the SQL function `place_order` (drizzle/functions/place_order.sql) writes
 * everything in one statement — the budget point included — and checks under the row locks that
 * the prices it was given are still the database's; if one changed in between, read again.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import { type Database, db } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/rows.ts";
import { SQL_REFUSALS } from "#app/db/sql-refusals.ts";
import type { OrderBudget } from "#app/features/abuse/rate-limits.server.ts";
import { isBelowMinimumOrder, minimumOrderCents } from "#app/features/cart/cart.ts";
import { unitPriceCents } from "#app/features/catalog/catalog.ts";
import type { StoredCustomerSession } from "#app/features/customers/customer-sessions.server.ts";
import { payWithTooLowMessage } from "#app/features/delivery/cash-change.ts";
import { DELIVERY_SETTINGS_KEY } from "#app/features/delivery/delivery.server.ts";
import { zipRefusalMessage, zoneForZip } from "#app/features/delivery/delivery-area.ts";
import { storedDeliverySettings } from "#app/features/delivery/delivery-settings.schema.ts";
import { slotCapacity } from "#app/features/delivery/delivery-settings.ts";
import {
  deliveryChoiceProblem,
  SLOT_FULL_MESSAGE,
  slotClosedMessage,
} from "#app/features/delivery/delivery-slots.ts";
import { wakeEmailWorker } from "#app/features/email/email-outbox.server.ts";
import { smsConfigured } from "#app/features/email/sms.server.ts";
import { orderEmailRows } from "#app/features/orders/order-emails.server.tsx";
import { orderReceivedText } from "#app/features/orders/order-texts.ts";
import { storedLimits } from "#app/features/purchase-limits/purchase-limits.schema.ts";
import { PURCHASE_LIMITS_KEY } from "#app/features/purchase-limits/purchase-limits.server.ts";
import { purchaseLimitProblem } from "#app/features/purchase-limits/purchase-limits.ts";
import { config } from "#app/utils/env.server.ts";
import { log } from "#app/utils/logger.server.ts";
import { nextDate, storeClock, storeDay } from "#app/utils/store-time.ts";
import type { CartLineInput, CheckoutInput } from "./checkout.schema.ts";

export type PlaceOrderInput = Omit<CheckoutInput, "ageConfirmed" | "payWith" | "smsOptIn"> & {
  /** 'I'll pay with' in cents (P-24), at least the total; null or absent: not given. */
  payWith?: number | null;
  /** 'Text me updates' (P-37); absent: no. */
  smsOptIn?: boolean;
  /** The stored, re-encoded ID photo, or null when none could be stored. */
  idPhotoId: string | null;
  /** The client address's hourly order budget, taken by the order's own statement (P-29). */
  budget?: OrderBudget;
  /** The signed-in customer's account (record 053); absent or null: a guest's order. */
  customerId?: string | null;
};

export type PlacedOrder = { id: string; publicToken: string; totalAmountCents: number };

export type PlaceOrderRefusal =
  | { ok: false; reason: "empty-cart" }
  | { ok: false; reason: "delivery"; field: "deliveryDate" | "timeSlot"; message: string }
  | { ok: false; reason: "unavailable"; itemName: string | null }
  /** Fewer than asked are left: `left` of them (0: sold out), from the order's own statement. */
  | {
      ok: false;
      reason: "out-of-stock";
      itemName: string;
      left: number;
      productId: string | null;
      sizeId: string;
    }
  | { ok: false; reason: "minimum"; totalCents: number; minimumCents: number }
  /** The ZIP is outside the active delivery zones, or in another state's (P-21). */
  | { ok: false; reason: "delivery-area"; message: string }
  /** The slot has no place left for the date (P-22). */
  | { ok: false; reason: "slot-full"; message: string }
  /** 'I'll pay with' below the total (P-24). */
  | { ok: false; reason: "pay-with"; message: string }
  /** Over the per-size cap or the delivery state's weight limit (P-28). */
  | { ok: false; reason: "purchase-limit"; message: string }
  /** This e-mail address or phone number already has `limit` open orders (P-29). */
  | { ok: false; reason: "open-orders"; contact: "email" | "phone"; limit: number }
  /** The photo sent ahead is already another order's (a photo token is single-use, P-29). */
  | { ok: false; reason: "photo-claimed" }
  /** The client address placed its hourly budget of orders (P-29). */
  | { ok: false; reason: "order-budget"; retryAfterSeconds: number };

export type PlaceOrderResult = { ok: true; order: PlacedOrder; replayed: boolean } | PlaceOrderRefusal;

export function newOrderToken() {
  return randomBytes(24).toString("base64url");
}

/** Lines for the same size are one line: stock and prices are checked once per size. */
export function mergeCartLines(lines: CartLineInput[]) {
  const bySize = new Map<string, CartLineInput>();
  for (const line of lines) {
    const existing = bySize.get(line.sizeId);
    if (existing) existing.quantity += line.quantity;
    else bySize.set(line.sizeId, { ...line });
  }
  // A fixed lock order (by size id) keeps concurrent checkouts from deadlocking each other.
  return [...bySize.values()].sort((a, b) => (a.sizeId < b.sizeId ? -1 : 1));
}

function itemDisplayName(name: string, size: string) {
  return `${name} (${size})`;
}

/** What a checkout asks for, before any ID photo is stored. */
export type OrderRequest = Omit<PlaceOrderInput, "idPhotoId">;

type PricedLine = CartLineInput & {
  productName: string;
  sizeLabel: string;
  imageUrl: string;
  priceCents: number;
  salePriceCents: number | null;
  unitCents: number;
  totalCents: number;
};

/**
 * The lines priced from the database, ready to be written, and the capacity of the chosen slot
 * on its date (P-22), which `place_order` checks under its slot lock.
 */
export type OrderQuote = { lines: PricedLine[]; totalCents: number; slotCapacity: number };

export type PreparedOrder =
  | { ok: true; replay: PlacedOrder }
  | {
      ok: true;
      replay: null;
      quote: OrderQuote;
      /** The photo sent ahead that `options.photoToken` names, or null when there is none (any more). */
      sentPhotoId: string | null;
      /** The customer session `options.sessionTokenHash` names, as stored (its time-outs not applied). */
      customerSession: StoredCustomerSession | null;
    }
  | PlaceOrderRefusal;

type SizeSnapshot = {
  sizeId: string;
  productId: string;
  size: string;
  priceCents: number;
  salePriceCents: number | null;
  productName: string;
  imageUrl: string;
  archived: boolean;
  flowerEquivalentMg: number | null;
  inventoryCount: number;
};

function parsedJson<T>(value: unknown): T | null {
  if (value === null || value === undefined) return null;
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}

/**
 * One statement: the order a replayed key already placed, the sizes the cart names (with their
 * stock), whether the ID photo sent ahead is stored and not yet claimed by an order, the purchase
 * limits, and the open orders of the e-mail address and of the phone number.
 */
async function readOrderContext(
  database: Database,
  idempotencyKey: string,
  sizeIds: string[],
  photoToken: string | null,
  budget: { key: string; nowMs: number } | null,
  delivery: { zip: string; date: string | null; slot: string },
  contact: { email: string; phone: string },
  sessionTokenHash: string | null,
) {
  const [row] = rowsOf<{
    replay: unknown;
    sizes: unknown;
    photo: boolean | null;
    limits: string | null;
    budget: unknown;
    zones: unknown;
    settings: unknown;
    closure: string | null;
    booked: number | string | null;
    open_email: number | string | null;
    open_phone: number | string | null;
    session: unknown;
  }>(
    await database.execute(sql`SELECT * FROM order_context(${idempotencyKey}, string_to_array(${sizeIds.join(",")}, ',')::uuid[],
      ${photoToken}::uuid, ${PURCHASE_LIMITS_KEY}, ${budget?.key ?? null}, ${budget?.nowMs ?? 0}::bigint,
      ${delivery.zip}, ${DELIVERY_SETTINGS_KEY}, ${delivery.date}::date, ${delivery.slot},
      ${contact.email}, ${contact.phone}, ${sessionTokenHash})`),
  );
  return {
    photo: row?.photo === true,
    replay: parsedJson<PlacedOrder>(row?.replay),
    sizes: parsedJson<SizeSnapshot[]>(row?.sizes) ?? [],
    limits: limitsOf(typeof row?.limits === "string" ? row.limits : null),
    budget: parsedJson<{ points: number; expire: number | string }>(row?.budget),
    zones:
      parsedJson<
        { state: "DC" | "VA"; active: boolean; minimumOrderCents: number | null; zipCodes: string[] }[]
      >(row?.zones) ?? [],
    deliverySettings: storedDeliverySettings(parsedJson(row?.settings), config().DELIVERY_SLOT_CAPACITY),
    closure: row?.closure ?? null,
    booked: Number(row?.booked ?? 0),
    openOrders: { email: Number(row?.open_email ?? 0), phone: Number(row?.open_phone ?? 0) },
    customerSession: storedSessionOf(parsedJson<SessionJson>(row?.session)),
  };
}

/** A customer session as order_context's JSON has it: its times as text. */
type SessionJson = Omit<StoredCustomerSession, "lastSeenAt" | "expiresAt"> & {
  lastSeenAt: string;
  expiresAt: string;
};

function storedSessionOf(json: SessionJson | null): StoredCustomerSession | null {
  return json
    ? { ...json, lastSeenAt: new Date(json.lastSeenAt), expiresAt: new Date(json.expiresAt) }
    : null;
}

/**
 * The stored purchase limits, parsed (zod) once per stored text rather than once per order: the
 * text is read with every order and changes only when the owner saves the limits.
 */
let lastLimits: { text: string | null; limits: ReturnType<typeof storedLimits> } | undefined;
function limitsOf(text: string | null) {
  if (lastLimits?.text !== text) lastLimits = { text, limits: storedLimits(parsedJson(text)) };
  return lastLimits.limits;
}

function secondsUntil(epochMs: number, nowMs: number) {
  return Math.max(1, Math.ceil((epochMs - nowMs) / 1000));
}

/**
 * Everything that can be decided before writing: a replayed key, the cart, the delivery choice,
 * the sizes still on sale, the purchase limits (on lines merged by size, so repeating a line gets
 * round nothing) and the $80 minimum, with prices and weights read from the database.
 */
export async function prepareOrder(
  input: OrderRequest,
  options: {
    now?: Date;
    photoToken?: string | null;
    budget?: OrderBudget;
    /** A customer cookie's token hash: its session is read with the rest (one round trip for a signed-in order). */
    sessionTokenHash?: string | null;
  } = {},
): Promise<PreparedOrder> {
  const now = options.now ?? new Date();
  const photoToken = options.photoToken ?? null;
  const lines = mergeCartLines(input.items);
  // The budget is read by wall-clock time, as rate-limiter-flexible counts its windows.
  const nowMs = Date.now();
  // Only today or tomorrow is a date at all (a malformed one would fail the SQL cast).
  const today = storeClock(now).date;
  const slotDate =
    input.deliveryDate === today || input.deliveryDate === nextDate(today) ? input.deliveryDate : null;
  const context = await readOrderContext(
    await db(),
    input.idempotencyKey,
    lines.map((line) => line.sizeId),
    photoToken,
    options.budget ? { key: options.budget.key, nowMs } : null,
    { zip: input.zipCode.slice(0, 5), date: slotDate, slot: input.timeSlot },
    { email: input.email, phone: input.phone },
    options.sessionTokenHash ?? null,
  );
  if (context.replay) return { ok: true, replay: context.replay };
  // Used up already: refused before any photo work; place_order decides for parallel posts.
  if (options.budget && context.budget && context.budget.points >= options.budget.points) {
    return {
      ok: false,
      reason: "order-budget",
      retryAfterSeconds: secondsUntil(Number(context.budget.expire), nowMs),
    };
  }
  if (lines.length === 0) return { ok: false, reason: "empty-cart" };
  const delivery = deliveryChoiceProblem(input.deliveryDate, input.timeSlot, now, context.deliverySettings);
  if (delivery) return { ok: false, reason: "delivery", ...delivery };
  // P-22, read here so a closed or full slot is refused before any photo work;
  // place_order decides under its slot lock.
  if (context.closure !== null) {
    return { ok: false, reason: "delivery", field: "timeSlot", message: slotClosedMessage(context.closure) };
  }
  const capacity = slotCapacity(context.deliverySettings, input.deliveryDate, input.timeSlot);
  if (context.booked >= capacity) return { ok: false, reason: "slot-full", message: SLOT_FULL_MESSAGE };
  // P-21: an active zone of the chosen state holds the ZIP.
  const area = zoneForZip(context.zones, input.zipCode, input.state);
  if (!area.ok) return { ok: false, reason: "delivery-area", message: zipRefusalMessage(area, input.state) };

  const bySize = new Map(context.sizes.map((row) => [row.sizeId, row]));
  const priced: PricedLine[] = [];
  // Every line must name a size of the product it claims, still on sale in the shop.
  for (const line of lines) {
    const row = bySize.get(line.sizeId);
    if (!row || row.productId !== line.productId || row.archived) {
      return {
        ok: false,
        reason: "unavailable",
        itemName: row ? itemDisplayName(row.productName, row.size) : null,
      };
    }
    const unitCents = unitPriceCents(row);
    priced.push({
      ...line,
      productName: row.productName,
      sizeLabel: row.size,
      imageUrl: row.imageUrl,
      priceCents: row.priceCents,
      salePriceCents: row.salePriceCents,
      unitCents,
      totalCents: unitCents * line.quantity,
    });
  }
  const limit = purchaseLimitProblem(
    priced.map((line) => ({
      sizeId: line.sizeId,
      productName: line.productName,
      sizeLabel: line.sizeLabel,
      quantity: line.quantity,
      flowerEquivalentMg: bySize.get(line.sizeId)?.flowerEquivalentMg ?? null,
    })),
    input.state,
    context.limits,
  );
  if (limit) return { ok: false, reason: "purchase-limit", message: limit.message };
  const totalCents = priced.reduce((sum, line) => sum + line.totalCents, 0);
  const minimumCents = minimumOrderCents(area.zone.minimumOrderCents);
  if (isBelowMinimumOrder(totalCents, minimumCents))
    return { ok: false, reason: "minimum", totalCents, minimumCents };
  if (input.payWith !== null && input.payWith !== undefined && input.payWith < totalCents) {
    return { ok: false, reason: "pay-with", message: payWithTooLowMessage(totalCents) };
  }
  // Stock and open orders as they were read: a post refused here costs no ID photo decode.
  // place_order decides both again under its locks, in the same order (open orders, then stock).
  const maxOpen = config().MAX_OPEN_ORDERS;
  for (const contact of ["email", "phone"] as const) {
    if (context.openOrders[contact] >= maxOpen) {
      return { ok: false, reason: "open-orders", contact, limit: maxOpen };
    }
  }
  for (const line of priced) {
    const left = bySize.get(line.sizeId)?.inventoryCount ?? 0;
    if (left < line.quantity) {
      return {
        ok: false,
        reason: "out-of-stock",
        itemName: itemDisplayName(line.productName, line.sizeLabel),
        left: Math.max(0, left),
        productId: line.productId,
        sizeId: line.sizeId,
      };
    }
  }
  return {
    ok: true,
    replay: null,
    quote: { lines: priced, totalCents, slotCapacity: capacity },
    sentPhotoId: context.photo ? photoToken : null,
    customerSession: context.customerSession,
  };
}

type DatabaseRefusal =
  | { code: "out-of-stock"; sizeId: string; left: number }
  | { code: "price-changed"; sizeId: string }
  | { code: "slot-unavailable"; slot: "full" | "closed"; reason: string }
  | { code: "open-orders"; contact: "email" | "phone" }
  | { code: "budget"; renewsAtMs: number }
  | { code: "photo-claimed" };

/**
 * The refusal `place_order` raised (`SQL_REFUSALS`), if it did, or a unique violation on the photo an
 * order already holds.
 */
function placeOrderRefusal(error: unknown): DatabaseRefusal | null {
  for (let cause = error; cause && typeof cause === "object"; cause = (cause as { cause?: unknown }).cause) {
    const { code, detail, hint, constraint, message } = cause as {
      code?: unknown;
      detail?: unknown;
      hint?: unknown;
      constraint?: unknown;
      message?: unknown;
    };
    if (code === SQL_REFUSALS.orderBudgetUsedUp) return { code: "budget", renewsAtMs: Number(hint) };
    if (code === SQL_REFUSALS.outOfStock)
      return { code: "out-of-stock", sizeId: String(detail ?? ""), left: Math.max(0, Number(hint) || 0) };
    if (code === SQL_REFUSALS.priceChanged) return { code: "price-changed", sizeId: String(detail ?? "") };
    if (code === SQL_REFUSALS.slotUnavailable)
      return {
        code: "slot-unavailable",
        slot: detail === "closed" ? "closed" : "full",
        reason: String(hint ?? ""),
      };
    if (code === SQL_REFUSALS.tooManyOpenOrders)
      return { code: "open-orders", contact: detail === "email" ? "email" : "phone" };
    if (
      code === "23505" &&
      (constraint === "orders_id_photo_id_idx" || String(message ?? "").includes("orders_id_photo_id_idx"))
    ) {
      return { code: "photo-claimed" };
    }
  }
  return null;
}

/**
 * The `place_order` call with the order, its lines and its two e-mails. The e-mails are rendered
 * here, before the statement: no transaction or row lock is held while React renders them.
 */
async function placeOrderStatement(input: PlaceOrderInput, quote: OrderQuote, now: Date): Promise<SQL> {
  const id = randomUUID();
  const publicToken = newOrderToken();
  const deliveryAddress = `${input.address}, ${input.city}, ${input.state} ${input.zipCode}`;
  const first = quote.lines[0] as PricedLine;
  const createdAt = now.toISOString();
  // Texts only when the shop sends them (TWILIO_*); otherwise the e-mails say it all (P-37).
  const texts = Boolean(input.smsOptIn) && smsConfigured();
  const order = {
    id,
    public_token: publicToken,
    idempotency_key: input.idempotencyKey,
    user_email: input.email,
    customer_name: input.name,
    phone: input.phone,
    street: input.address,
    city: input.city,
    state: input.state,
    zip_code: input.zipCode,
    delivery_address: deliveryAddress,
    delivery_date: input.deliveryDate,
    delivery_time: input.timeSlot,
    total_amount_cents: quote.totalCents,
    notes: input.notes,
    id_photo_id: input.idPhotoId,
    pay_with_cents: input.payWith ?? null,
    sms_opt_in: texts,
    customer_id: input.customerId ?? null,
    slot_capacity: quote.slotCapacity,
    product_id: first.productId,
    quantity: quote.lines.reduce((sum, line) => sum + line.quantity, 0),
    created_at: createdAt,
    store_day: storeDay(now),
    max_open_orders: config().MAX_OPEN_ORDERS,
    ...(input.budget && {
      budget_key: input.budget.key,
      budget_points: input.budget.points,
      budget_window_ms: input.budget.windowMs,
      budget_now_ms: Date.now(),
    }),
  };
  const lines = quote.lines.map((line) => ({
    product_id: line.productId,
    product_size_id: line.sizeId,
    product_name: line.productName,
    size_label: line.sizeLabel,
    image_url: line.imageUrl,
    quantity: line.quantity,
    unit_price_cents: line.unitCents,
    total_price_cents: line.totalCents,
    price_cents: line.priceCents,
    sale_price_cents: line.salePriceCents,
  }));
  const mails: Array<Record<string, string>> = (
    await orderEmailRows({
      id,
      publicToken,
      customerName: input.name,
      userEmail: input.email,
      phone: input.phone,
      deliveryAddress,
      deliveryDate: input.deliveryDate,
      deliveryTime: input.timeSlot,
      totalAmountCents: quote.totalCents,
      payWithCents: input.payWith ?? null,
      notes: input.notes,
      hasIdPhoto: input.idPhotoId !== null,
      items: quote.lines.map((line) => ({
        productName: line.productName,
        sizeLabel: line.sizeLabel,
        quantity: line.quantity,
        unitPriceCents: line.unitCents,
        totalPriceCents: line.totalCents,
      })),
    })
  ).map((mail) => ({
    kind: mail.kind,
    to_address: mail.toAddress,
    subject: mail.subject,
    text_body: mail.textBody,
    html_body: mail.htmlBody,
    created_at: createdAt,
  }));
  if (texts) {
    mails.push({
      kind: "sms-order-received",
      channel: "sms",
      to_address: input.phone,
      subject: "",
      text_body: orderReceivedText(config().STORE_NAME, {
        id,
        deliveryDate: input.deliveryDate,
        deliveryTime: input.timeSlot,
      }),
      html_body: "",
      created_at: createdAt,
    });
  }
  return sql`SELECT order_id, order_token, order_total_cents, order_replayed FROM place_order(
    ${JSON.stringify(order)}::jsonb, ${JSON.stringify(lines)}::jsonb, ${JSON.stringify(mails)}::jsonb)`;
}

/** A price read before the write changed under it this many times in a row: give up. */
const MAX_REPRICES = 3;

/** Writes a prepared order in one statement (see the file comment). */
export async function commitOrder(
  input: PlaceOrderInput,
  quote: OrderQuote,
  options: { now?: Date } = {},
): Promise<PlaceOrderResult> {
  const now = options.now ?? new Date();
  const database = await db();
  let current = quote;
  for (let attempt = 1; ; attempt++) {
    try {
      const [row] = rowsOf<{
        order_id: string;
        order_token: string;
        /** bigint: a string from node-postgres. */
        order_total_cents: number | string;
        order_replayed: boolean;
      }>(await database.execute(await placeOrderStatement(input, current, now)));
      if (!row) throw new Error("place_order returned no row");
      const order = {
        id: row.order_id,
        publicToken: row.order_token,
        totalAmountCents: Number(row.order_total_cents),
      };
      if (!row.order_replayed) {
        log.info("Order placed", {
          orderId: order.id,
          totalCents: order.totalAmountCents,
          lines: current.lines.length,
        });
        wakeEmailWorker();
      }
      return { ok: true, order, replayed: row.order_replayed };
    } catch (error) {
      const refusal = placeOrderRefusal(error);
      if (refusal?.code === "open-orders") {
        return {
          ok: false,
          reason: "open-orders",
          contact: refusal.contact,
          limit: config().MAX_OPEN_ORDERS,
        };
      }
      if (refusal?.code === "photo-claimed") return { ok: false, reason: "photo-claimed" };
      if (refusal?.code === "slot-unavailable") {
        return refusal.slot === "closed"
          ? { ok: false, reason: "delivery", field: "timeSlot", message: slotClosedMessage(refusal.reason) }
          : { ok: false, reason: "slot-full", message: SLOT_FULL_MESSAGE };
      }
      if (refusal?.code === "budget") {
        return {
          ok: false,
          reason: "order-budget",
          retryAfterSeconds: secondsUntil(refusal.renewsAtMs, Date.now()),
        };
      }
      if (refusal?.code === "out-of-stock") {
        const line = current.lines.find((candidate) => candidate.sizeId === refusal.sizeId);
        return {
          ok: false,
          reason: "out-of-stock",
          itemName: line ? itemDisplayName(line.productName, line.sizeLabel) : "An item in your cart",
          left: refusal.left,
          productId: line?.productId ?? null,
          sizeId: refusal.sizeId,
        };
      }
      if (refusal?.code !== "price-changed" || attempt >= MAX_REPRICES) throw error;
    }
    const again = await prepareOrder(input, { now, budget: input.budget });
    if (!again.ok) return again;
    if (again.replay) return { ok: true, order: again.replay, replayed: true };
    current = again.quote;
  }
}

export async function placeOrder(
  input: PlaceOrderInput,
  options: { now?: Date } = {},
): Promise<PlaceOrderResult> {
  const prepared = await prepareOrder(input, options);
  if (!prepared.ok) return prepared;
  if (prepared.replay) return { ok: true, order: prepared.replay, replayed: true };
  return commitOrder(input, prepared.quote, options);
}
