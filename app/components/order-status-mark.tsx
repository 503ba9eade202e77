import { Icon } from "#app/components/ui/icon.tsx";
import type { OrderStatus } from "#app/features/orders/order-status.ts";

/** The mark above a customer's order page: a cross once the order is cancelled, else a tick. */
export function OrderStatusMark({ status }: { status: OrderStatus }) {
  const cancelled = status === "cancelled";
  return (
    <Icon
      name={cancelled ? "x" : "circle-check"}
      className={`mx-auto size-14 ${cancelled ? "text-destructive" : "text-success"}`}
    />
  );
}
