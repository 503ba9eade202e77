import { Link } from "react-router";
import { OrdersScreen, RefreshButton } from "#app/components/admin/orders-screen.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { staffOrderAction } from "#app/features/orders/order-action.server.ts";
import { loadOrdersScreen } from "#app/features/orders/orders-screen.server.ts";
import { requireAdmin } from "#app/features/staff/guard.server.ts";
import { orderActionResponse } from "#app/routes/shared/order-action-response.server.ts";
import type { Route } from "./+types/completed";

export function meta() {
  return [{ title: "Completed Orders | Admin" }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const screen = await loadOrdersScreen(request, "completed", requireAdmin(context));
  return { ...screen, error: screen.failed ? "Failed to fetch completed orders" : null };
}

/** Reopening a delivered or cancelled order (P-23). */
export async function action({ context }: Route.ActionArgs) {
  return orderActionResponse(await staffOrderAction(context));
}

export default function CompletedOrders({ loaderData }: Route.ComponentProps) {
  return (
    <OrdersScreen
      title="Completed Orders"
      description="Delivered and cancelled orders (with their reason), newest first."
      {...loaderData}
      emptyText={loaderData.error ?? "No completed orders found"}
      scope="completed"
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
