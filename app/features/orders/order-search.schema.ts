import { calendarDate, filterText, urlFilters } from "#app/utils/url-filters.ts";
import { z } from "#app/utils/zod.ts";
import { ALL_STATUSES } from "./order-status.ts";

/**
 * The admin order lists' search and filters, read from the URL (bookmarkable): `q` (order number,
 * customer name, phone or e-mail; case-insensitive), `status`, `from` / `to` (delivery dates,
 * yyyy-MM-dd, inclusive). A bad value is dropped, not an error: the list shows everything instead
 * (the CSV export refuses it: `invalidOrderFilters`). Dropped before any query, so the database never
 * sees a date it refuses or a NUL.
 */
export const orderFiltersSchema = z.object({
  q: filterText(100).optional().catch(undefined),
  status: z.enum(ALL_STATUSES).optional().catch(undefined),
  from: calendarDate.optional().catch(undefined),
  to: calendarDate.optional().catch(undefined),
});

export type OrderFilters = z.infer<typeof orderFiltersSchema>;

export const ORDER_FILTER_KEYS = ["q", "status", "from", "to"] as const;

const orderUrlFilters = urlFilters<OrderFilters>(ORDER_FILTER_KEYS, orderFiltersSchema.shape);
export const parseOrderFilters = orderUrlFilters.parse;
/** The filters of a URL that are given but not valid (the export answers 400 naming them). */
export const invalidOrderFilters = orderUrlFilters.invalid;
/** The filters as a query string (no leading '?'), for links that keep them (pager, CSV export). */
export const orderFiltersQuery = orderUrlFilters.query;
