/**
 * Pure rules of the day's work (P-25): which date and slot a board URL asks for, the order
 * of slots, the map search of an address, the change a driver brings, and the new-order alert's
 * title. Shared by the server (loaders) and the browser (the board, the alert).
 */
import { isStoreDate, storeClock } from "#app/utils/store-time.ts";
import { filterText } from "#app/utils/url-filters.ts";
import { z } from "#app/utils/zod.ts";

// The run on the phone imports these from day-order.ts, which loads no zod.
export { mapSearchUrl, slotOrder } from "./day-order.ts";

/**
 * Orders shown per slot on the board; the rest of a busy slot is one link away (`?slot=`). The
 * default capacity of a slot (P-22), so a normal day shows every order; it bounds the page
 * (and its server time) on a day with hundreds.
 */
export const BOARD_ORDERS_PER_SLOT = 8;
/** Orders shown when the board shows one slot. */
export const SLOT_PAGE_ORDERS = 200;
/** Driver slips printed at once: beyond it, print slot by slot. */
export const MAX_DRIVER_SLIPS = 250;

/** `?date=yyyy-MM-dd&slot=<label>` of the board and its print views. */
export const dayBoardQuerySchema = z.object({
  date: z.string().refine(isStoreDate).optional().catch(undefined),
  // A NUL would reach the database (which refuses it) as the slot to look up.
  slot: filterText(40).optional().catch(undefined),
});

/** The date (today in the store's zone when absent or not a date) and slot a board URL asks for. */
export function boardQuery(url: URL, now: Date): { date: string; slot?: string; isToday: boolean } {
  const parsed = dayBoardQuerySchema.parse({
    date: url.searchParams.get("date") || undefined,
    slot: url.searchParams.get("slot") || undefined,
  });
  const today = storeClock(now).date;
  const date = parsed.date ?? today;
  return { date, ...(parsed.slot ? { slot: parsed.slot } : {}), isToday: date === today };
}

/** `/admin/today` URLs: the board and its print views keep the date (and slot) they were opened for. */
export function boardHref(path: string, date: string, slot?: string) {
  const params = new URLSearchParams({ date });
  if (slot) params.set("slot", slot);
  return `${path}?${params.toString()}`;
}

const NEW_ORDERS_PREFIX = /^\(\d+\) New orders · /;

/** The tab title with the count of new orders in front ('(2) New orders · Incoming Orders | Admin'). */
export function alertTitle(title: string, newOrders: number) {
  const base = title.replace(NEW_ORDERS_PREFIX, "");
  return newOrders > 0 ? `(${newOrders}) New orders · ${base}` : base;
}

/** Orders a print view takes at once when staff print a selection (`?order=…` repeated). */
export const MAX_SELECTED_ORDERS = 100;

const ORDER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What a print view's URL asks beyond its date and slot: pending orders too (`?pending=1`, the
 * visible switch), or a selection of orders (`?order=<id>&order=<id>`, printed from the incoming
 * list; a selection prints what staff chose, pending ones included and labelled).
 */
export function downstreamQuery(url: URL): { includePending: boolean; orderIds?: string[] } {
  const orderIds = url.searchParams
    .getAll("order")
    .filter((id) => ORDER_ID.test(id))
    .slice(0, MAX_SELECTED_ORDERS);
  if (orderIds.length > 0) return { includePending: true, orderIds };
  return { includePending: url.searchParams.get("pending") === "1" };
}
