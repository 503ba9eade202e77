import { data, Link, redirect } from "react-router";
import { NewOrderAlert } from "#app/components/admin/new-order-alert.tsx";
import { OrdersScreen, RefreshButton } from "#app/components/admin/orders-screen.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { auditBy } from "#app/features/audit/audit.server.ts";
import { handleBulkPost } from "#app/features/orders/bulk-orders.server.ts";
import { staffScopeOf } from "#app/features/orders/driver-scope.server.ts";
import { staffOrderAction } from "#app/features/orders/order-action.server.ts";
import { isBulkIntent } from "#app/features/orders/order-bulk.schema.ts";
import { loadOrdersScreen } from "#app/features/orders/orders-screen.server.ts";
import { adminForm, requireAdmin } from "#app/features/staff/guard.server.ts";
import { can } from "#app/features/staff/permissions.ts";
import { orderActionResponse } from "#app/routes/shared/order-action-response.server.ts";
import type { Route } from "./+types/incoming";

export function meta() {
  return [{ title: "Incoming Orders | Admin" }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  const screen = await loadOrdersScreen(request, "incoming", admin);
  return {
    ...screen,
    error: screen.failed ? "Failed to fetch orders" : null,
    canPlan: can(admin.role, "today.plan"),
  };
}

/** An order's own buttons (one order), or a bulk action on the ticked orders (its review, then its report). */
export async function action({ context }: Route.ActionArgs) {
  const form = adminForm(context);
  if (!isBulkIntent(form.get("intent"))) return orderActionResponse(await staffOrderAction(context));
  const admin = requireAdmin(context);
  const answer = await handleBulkPost(form, auditBy(admin, context), staffScopeOf(admin));
  if (answer.kind === "print") throw redirect(answer.location);
  return data({ bulk: answer }, { status: answer.kind === "invalid" ? 400 : 200 });
}

export default function IncomingOrders({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <OrdersScreen
      title="Incoming Orders"
      description={
        loaderData.view === "slots"
          ? "Every order still to deliver, by delivery date and time. Tick orders or a whole slot to confirm, assign, print or cancel them together. New orders appear on their own."
          : "Every order still to deliver, newest first. New orders appear on their own."
      }
      {...loaderData}
      bulk={actionData && "bulk" in actionData ? actionData.bulk : null}
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
