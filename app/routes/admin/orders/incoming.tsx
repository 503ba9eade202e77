import { Link } from "react-router";
import { NewOrderAlert } from "#app/components/admin/new-order-alert.tsx";
import { OrdersScreen, RefreshButton } from "#app/components/admin/orders-screen.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { requireAdmin } from "#app/features/admin-auth/guard.server.ts";
import { staffOrderAction } from "#app/features/orders/order-action.server.ts";
import { loadOrdersScreen } from "#app/features/orders/orders-screen.server.ts";
import { orderActionResponse } from "#app/routes/shared/order-action-response.server.ts";
import type { Route } from "./+types/incoming";

export function meta() {
  return [{ title: "Incoming Orders | Admin" }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const screen = await loadOrdersScreen(request, "incoming", requireAdmin(context));
  return { ...screen, error: screen.failed ? "Failed to fetch orders" : null };
}

export async function action({ context }: Route.ActionArgs) {
  return orderActionResponse(await staffOrderAction(context));
}

export default function IncomingOrders({ loaderData }: Route.ComponentProps) {
  return (
    <OrdersScreen
      title="Incoming Orders"
      description="Every order still to deliver, newest first. New orders appear on their own."
      {...loaderData}
      emptyText={loaderData.error ?? "No incoming orders found"}
      scope="incoming"
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
