import { Icon } from "#app/components/ui/icon.tsx";
import type { OrderStatus } from "#app/features/orders/order-status.ts";

/** The big mark above a customer's order: a cross once cancelled, a tick otherwise. */
export function OrderStatusIcon({ status }: { status: OrderStatus }) {
  return (
    <Icon
      name={status === "cancelled" ? "x" : "circle-check"}
      className={`mx-auto size-14 ${status === "cancelled" ? "text-destructive" : "text-success"}`}
    />
  );
}
