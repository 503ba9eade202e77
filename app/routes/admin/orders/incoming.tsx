import { data, Link } from "react-router";
import { NewOrderAlert } from "#app/components/admin/new-order-alert.tsx";
import { OrdersScreen, RefreshButton } from "#app/components/admin/orders-screen.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { requireAdmin } from "#app/features/admin-auth/guard.server.ts";
import { listOrders, setOrderStatus } from "#app/features/orders/admin-orders.server.ts";
import { countPlacedOrders } from "#app/features/orders/day-board.server.ts";
import { ORDER_INTENTS, orderStatusSchema } from "#app/features/orders/order-status.schema.ts";
import { readFormData } from "#app/utils/form-data.server.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import type { Route } from "./+types/incoming";

export function meta() {
  return [{ title: "Incoming Orders | Admin" }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const before = new URL(request.url).searchParams.get("before");
  try {
    const page = await listOrders("incoming", { cursor: before });
    return { ...page, isFirstPage: !before, placed: await countPlacedOrders(), error: null };
  } catch (error) {
    log.error("Failed to fetch orders", { error: errorMessage(error) });
    return { orders: [], nextCursor: null, isFirstPage: true, placed: null, error: "Failed to fetch orders" };
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin(context);
  const parsed = orderStatusSchema.safeParse(Object.fromEntries(await readFormData(request)));
  const failed = { ok: false, title: "Error", description: "Failed to update order status" };
  if (!parsed.success) return data(failed, { status: 400 });
  try {
    const result = await setOrderStatus(parsed.data.orderId, ORDER_INTENTS[parsed.data.intent]);
    if (result.ok) return { ok: true, title: "Success", description: "Order status updated" };
    if (result.reason === "out-of-stock") {
      return data(
        { ...failed, description: `Not enough stock to reopen this order: ${result.itemName}` },
        { status: 409 },
      );
    }
    return data(failed, { status: 404 });
  } catch (error) {
    log.error("Failed to update order status", { error: errorMessage(error) });
    return data(failed, { status: 500 });
  }
}

export default function IncomingOrders({ loaderData }: Route.ComponentProps) {
  return (
    <OrdersScreen
      title="Incoming Orders"
      description="Every order not yet delivered, newest first. New orders appear on their own."
      orders={loaderData.orders}
      nextCursor={loaderData.nextCursor}
      isFirstPage={loaderData.isFirstPage}
      emptyText={loaderData.error ?? "No incoming orders found"}
      withActions
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
