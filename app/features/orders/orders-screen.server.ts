/**
 * The loader of the two admin order lists (incoming and completed): one page of the scope narrowed
 * by the URL's search and filters, for those who may read the audit log (owners, P-26) each
 * order's own history, the store's day, and on the incoming list the count of placed orders the
 * new-order alert compares with. A failed query answers an empty list, `failed: true` (the route
 * words the error).
 */

import { db } from "#app/db/client.server.ts";
import { type OrderHistoryEntry, orderHistories } from "#app/features/audit/audit-log.server.ts";
import { can } from "#app/features/staff/permissions.ts";
import type { AdminSession } from "#app/features/staff/sessions.server.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import { storeDay } from "#app/utils/store-time.ts";
import {
  type AdminOrder,
  listOrders,
  type OrderScope,
  type OrdersPage,
  withDoorRecords,
  withIdFiles,
} from "./admin-orders.server.ts";
import { incomingBySlot } from "./bulk-orders.server.ts";
import { countPlacedOrders } from "./day-board.server.ts";
import { type ActiveDriver, listActiveDrivers } from "./driver-assignment.server.ts";
import { parseOrderFilters } from "./order-search.schema.ts";

export type OrderHistories = Record<string, OrderHistoryEntry[]> | null;

/**
 * How the incoming list is laid out: by delivery date and slot (the day's work, bulk actions by
 * slot; the default) or newest first with pages. The completed list is always newest first.
 */
export type OrdersView = "slots" | "newest";

export function ordersViewOf(params: URLSearchParams, scope: OrderScope): OrdersView {
  return scope === "incoming" && params.get("view") !== "newest" ? "slots" : "newest";
}

export async function loadOrdersScreen(
  request: Request,
  scope: OrderScope,
  session: Pick<AdminSession, "role">,
) {
  const params = new URL(request.url).searchParams;
  const before = params.get("before");
  const filters = parseOrderFilters(params);
  const now = new Date();
  const today = storeDay(now);
  const view = ordersViewOf(params, scope);
  const common = { filters, today, view, now: now.toISOString() };
  try {
    const page: OrdersPage & { more?: boolean } =
      view === "slots"
        ? { ...(await incomingBySlot(filters)), nextCursor: null }
        : await listOrders(scope, { cursor: before, filters });
    await withDoorRecords(await db(), page.orders);
    await withIdFiles(await db(), page.orders);
    const histories: OrderHistories = can(session.role, "audit")
      ? await orderHistories(page.orders.map((order: AdminOrder) => order.id))
      : null;
    const placed = scope === "incoming" ? await countPlacedOrders() : null;
    const drivers: ActiveDriver[] =
      scope === "incoming" && can(session.role, "today.plan") ? await listActiveDrivers() : [];
    return {
      orders: page.orders,
      nextCursor: page.nextCursor,
      more: page.more ?? false,
      histories,
      isFirstPage: !before,
      ...common,
      placed,
      drivers,
      failed: false,
    };
  } catch (error) {
    log.error(`Failed to fetch the ${scope} orders`, { error: errorMessage(error) });
    return {
      orders: [],
      nextCursor: null,
      more: false,
      histories: null,
      isFirstPage: true,
      ...common,
      placed: null,
      drivers: [],
      failed: true,
    };
  }
}
