import { Link } from "react-router";
import { OrdersScreen, RefreshButton } from "#app/components/admin/orders-screen.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { requireAdmin } from "#app/features/admin-auth/guard.server.ts";
import { listOrders } from "#app/features/orders/admin-orders.server.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import type { Route } from "./+types/completed";

export function meta() {
  return [{ title: "Completed Orders | Admin" }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const before = new URL(request.url).searchParams.get("before");
  try {
    const page = await listOrders("completed", { cursor: before });
    return { ...page, isFirstPage: !before, error: null };
  } catch (error) {
    log.error("Failed to fetch completed orders", { error: errorMessage(error) });
    return { orders: [], nextCursor: null, isFirstPage: true, error: "Failed to fetch completed orders" };
  }
}

export default function CompletedOrders({ loaderData }: Route.ComponentProps) {
  return (
    <OrdersScreen
      title="Completed Orders"
      description="Delivered orders, newest first."
      orders={loaderData.orders}
      nextCursor={loaderData.nextCursor}
      isFirstPage={loaderData.isFirstPage}
      emptyText={loaderData.error ?? "No completed orders found"}
      withActions={false}
      error={loaderData.error}
      buttons={
        <>
          <Link to="/admin/orders" className={buttonVariants({ variant: "outline" })}>
            <Icon name="arrow-left" /> Back to Incoming Orders
          </Link>
          <RefreshButton />
        </>
      }
    />
  );
}
