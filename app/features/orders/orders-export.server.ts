/**
 * 'Export CSV' of the admin order lists: the orders the list's search and filters
 * select, one row per item (the order's columns repeated), newest first. Streamed: a batch of orders
 * is read (keyset on created_at, id, like the lists), turned into CSV by the shop's one writer
 * (`csvLines`, formulas neutralised) and handed to the response only when the client asks for more,
 * so memory holds one batch whatever the count.
 */

import { db, type Executor } from "#app/db/client.server.ts";
import { type CsvCell, csvLines, figure } from "#app/utils/csv.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import { formatPhone } from "#app/utils/phone.ts";
import { STORE_MINUTE_FIELDS } from "#app/utils/store-time.ts";
import { itemsFor, type OrderScope, scopedOrders } from "./admin-orders.server.ts";
import type { OrderFilters } from "./order-search.schema.ts";

export const EXPORT_BATCH = 500;

export const CSV_COLUMNS = [
  "Order number",
  "Order id",
  "Placed at",
  "Status",
  "Cancel reason",
  "Customer",
  "Email",
  "Phone",
  "Address",
  "Delivery date",
  "Delivery time",
  "Order total",
  "Product",
  "Size",
  "Quantity",
  "Unit price",
  "Line total",
  "Notes",
] as const;

/** "2026-11-23 15:01", store time. */
const placedAt = new Intl.DateTimeFormat("sv-SE", STORE_MINUTE_FIELDS);

const dollars = (cents: number) => figure(cents / 100, 2);

/** The CSV of every order `scope` and `filters` select, as a byte stream read one batch at a time. */
export function ordersCsvStream(
  scope: OrderScope,
  filters: OrderFilters,
  options: { executor?: Executor; batch?: number } = {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const batch = options.batch ?? EXPORT_BATCH;
  let after: { createdAt: string; id: string } | null = null;
  let started = false;
  let done = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(`\uFEFF${csvLines([CSV_COLUMNS])}`));
          return;
        }
        if (done) {
          controller.close();
          return;
        }
        const database = options.executor ?? (await db());
        const cursor = after;
        const rows = await scopedOrders(database, scope, filters, cursor, batch);
        const last = rows[rows.length - 1];
        if (rows.length < batch || !last) done = true;
        if (last) after = { createdAt: last.createdAtText, id: last.id };
        if (rows.length === 0) {
          controller.close();
          return;
        }
        const items = await itemsFor(
          database,
          rows.map((row) => row.id),
        );
        const records: CsvCell[][] = [];
        for (const order of rows) {
          const base = [
            order.id.slice(0, 8),
            order.id,
            placedAt.format(order.createdAt),
            order.status,
            order.cancelReason,
            order.customerName,
            order.userEmail,
            formatPhone(order.phone),
            order.deliveryAddress,
            order.deliveryDate,
            order.deliveryTime,
            dollars(order.totalAmountCents),
          ];
          const lines = items.get(order.id) ?? [];
          if (lines.length === 0) records.push([...base, "", "", "", "", "", order.notes]);
          for (const item of lines) {
            records.push([
              ...base,
              item.productName,
              item.sizeLabel,
              item.quantity,
              dollars(item.unitPriceCents),
              dollars(item.totalPriceCents),
              order.notes,
            ]);
          }
        }
        controller.enqueue(encoder.encode(csvLines(records)));
      } catch (error) {
        log.error("The order export failed", { error: errorMessage(error) });
        controller.error(error);
      }
    },
  });
}

/**
 * An export's filters as the audit log keeps them: the status and dates, and only whether there
 * was a search (its text may be a customer's name, phone or address; P-27 keeps those out).
 */
export function exportedFilters(filters: OrderFilters) {
  const { q, ...rest } = filters;
  return { ...rest, ...(q ? { search: true } : {}) };
}
