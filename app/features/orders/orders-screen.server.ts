/**
 * The loader of the two admin order lists (incoming and completed): one page of the scope narrowed
 * by the URL's search and filters, for those who may read the audit log (owners, P-26) each
 * order's own history, the store's day, and on the incoming list the count of placed orders the
 * new-order alert compares with. A failed query answers an empty list with the error.
 */
import type { AdminSession } from "#app/features/admin-auth/sessions.server.ts";
import { type OrderHistoryEntry, orderHistories } from "#app/features/staff/audit-log.server.ts";
import { can } from "#app/features/staff/permissions.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import { storeDay } from "#app/utils/store-time.ts";
import { listOrders, type OrderScope } from "./admin-orders.server.ts";
import { countPlacedOrders } from "./day-board.server.ts";
import { parseOrderFilters } from "./order-search.schema.ts";

const FAILED: Record<OrderScope, string> = {
  incoming: "Failed to fetch orders",
  completed: "Failed to fetch completed orders",
};

export type OrderHistories = Record<string, OrderHistoryEntry[]> | null;

export async function loadOrdersScreen(
  request: Request,
  scope: OrderScope,
  session: Pick<AdminSession, "role">,
) {
  const params = new URL(request.url).searchParams;
  const before = params.get("before");
  const filters = parseOrderFilters(params);
  const today = storeDay(new Date());
  try {
    const page = await listOrders(scope, { cursor: before, filters });
    const histories: OrderHistories = can(session.role, "audit")
      ? await orderHistories(page.orders.map((order) => order.id))
      : null;
    const placed = scope === "incoming" ? await countPlacedOrders() : null;
    return { ...page, histories, isFirstPage: !before, filters, today, placed, error: null };
  } catch (error) {
    log.error(FAILED[scope], { error: errorMessage(error) });
    return {
      orders: [],
      histories: null,
      nextCursor: null,
      isFirstPage: true,
      filters,
      today,
      placed: null,
      error: FAILED[scope],
    };
  }
}
