import { StatusBadge } from "#app/components/admin/status-badge.tsx";
import { OrderPaymentNote } from "#app/components/order-payment-note.tsx";
import { OrderStatusMark } from "#app/components/order-status-mark.tsx";
import { StoreLink } from "#app/components/store-link.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { privatePageMeta } from "#app/features/catalog/seo.ts";
import type { OrderStatus } from "#app/features/orders/order-status.ts";
import { getOrderOfRequest } from "#app/features/orders/orders.server.ts";
import { formatCents } from "#app/utils/money.ts";
import type { Route } from "./+types/order-confirmation";

export function meta({ matches }: Route.MetaArgs) {
  return privatePageMeta(matches, "Order confirmation");
}

export { privateNoStoreHeaders as headers } from "#app/utils/cache-headers.ts";

export async function loader({ request }: Route.LoaderArgs) {
  const order = await getOrderOfRequest(request);
  if (!order) return { order: null };
  return {
    order: {
      id: order.id,
      status: order.status,
      totalAmountCents: order.totalAmountCents,
      payWithCents: order.payWithCents,
      customerEmail: order.userEmail,
    },
  };
}

export default function OrderConfirmationPage({ loaderData }: Route.ComponentProps) {
  const { order } = loaderData;
  if (!order) {
    return (
      <div className="mx-auto flex max-w-md flex-col items-center px-4 pt-16 pb-28 text-center">
        <h1 className="font-display text-3xl font-semibold text-primary">Order not found</h1>
        <StoreLink to="/" className={buttonVariants({ size: "lg", className: "mt-6" })}>
          Return Home
        </StoreLink>
      </div>
    );
  }
  return (
    <div className="mx-auto w-full max-w-lg px-4 pt-10 pb-28 sm:pt-14">
      <Card className="p-6 text-center sm:p-8">
        <OrderStatusMark status={order.status} />
        <h1 className="mt-4 font-display text-3xl font-semibold text-primary">
          {confirmationHeadline(order.status)}
        </h1>
        <dl className="mt-6 space-y-3 text-left">
          <Row label="Order ID">
            <span className="font-mono text-sm break-all">{order.id}</span>
          </Row>
          <Row label="Total">{formatCents(order.totalAmountCents)}</Row>
          <Row label="Status">
            <StatusBadge status={order.status} />
          </Row>
          <Row label="Email">{order.customerEmail}</Row>
        </dl>
        <div className="text-left">
          <OrderPaymentNote
            status={order.status}
            totalCents={order.totalAmountCents}
            payWithCents={order.payWithCents}
          />
        </div>
        <StoreLink to="/" className={buttonVariants({ size: "lg", className: "mt-8 w-full" })}>
          Return Home
        </StoreLink>
      </Card>
    </div>
  );
}

/** The spec's 'Order Confirmed!' while the order stands; a cancelled or delivered order says so. */
function confirmationHeadline(status: OrderStatus) {
  if (status === "cancelled") return "Order Cancelled";
  if (status === "delivered") return "Order Delivered";
  return "Order Confirmed!";
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-4 border-b border-border pb-3 last:border-0">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-right font-medium">{children}</dd>
    </div>
  );
}
