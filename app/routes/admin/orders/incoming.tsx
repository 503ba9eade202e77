import { Link } from "react-router";
import { NewOrderAlert } from "#app/components/admin/new-order-alert.tsx";
import { OrdersScreen, RefreshButton } from "#app/components/admin/orders-screen.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { requireAdmin } from "#app/features/admin-auth/guard.server.ts";
import { listOrders } from "#app/features/orders/admin-orders.server.ts";
import { countPlacedOrders } from "#app/features/orders/day-board.server.ts";
import { handleOrderAction } from "#app/features/orders/order-action.server.ts";
import { parseOrderFilters } from "#app/features/orders/order-search.schema.ts";
import { readFormData } from "#app/utils/form-data.server.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import { storeDay } from "#app/utils/store-time.ts";
import type { Route } from "./+types/incoming";

export function meta() {
  return [{ title: "Incoming Orders | Admin" }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const params = new URL(request.url).searchParams;
  const before = params.get("before");
  const filters = parseOrderFilters(params);
  const today = storeDay(new Date());
  try {
    const page = await listOrders("incoming", { cursor: before, filters });
    return { ...page, isFirstPage: !before, filters, today, placed: await countPlacedOrders(), error: null };
  } catch (error) {
    log.error("Failed to fetch orders", { error: errorMessage(error) });
    return {
      orders: [],
      nextCursor: null,
      isFirstPage: true,
      filters,
      today,
      placed: null,
      error: "Failed to fetch orders",
    };
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  return handleOrderAction(await readFormData(request), admin.userId);
}

export default function IncomingOrders({ loaderData }: Route.ComponentProps) {
  return (
    <OrdersScreen
      title="Incoming Orders"
      description="Every order still to deliver, newest first. New orders appear on their own."
      orders={loaderData.orders}
      nextCursor={loaderData.nextCursor}
      isFirstPage={loaderData.isFirstPage}
      emptyText={loaderData.error ?? "No incoming orders found"}
      scope="incoming"
      filters={loaderData.filters}
      today={loaderData.today}
      error={loaderData.error}
      buttons={
        <>
          <Link to="/admin/dashboard" className={buttonVariants({ variant: "outline" })}>
            <Icon name="arrow-left" /> Back to Dashboard
          </Link>
          <Link to="/admin/completed-orders" className={buttonVariants({ variant: "secondary" })}>
            <Icon name="check-check" /> View Completed Orders
          </Link>
          {loaderData.placed !== null ? <NewOrderAlert placed={loaderData.placed} /> : null}
          <RefreshButton />
        </>
      }
    />
  );
}
