import { Icon } from "#app/components/ui/icon.tsx";
import { customerPayment } from "#app/features/orders/customer-payment.ts";
import type { OrderStatus } from "#app/features/orders/order-status.ts";
import { cn } from "#app/utils/cn.ts";

/** The order page's payment box: what is due, in the order's current status. */
export function OrderPaymentNote({
  status,
  totalCents,
  payWithCents,
}: {
  status: OrderStatus;
  totalCents: number;
  payWithCents: number | null;
}) {
  const payment = customerPayment(status, totalCents, payWithCents);
  const open = payment.cashToPrepare !== null;
  return (
    <div
      className={cn(
        "mt-4 flex items-center gap-3 rounded-md px-4 py-3",
        open ? "bg-honey-100" : "bg-secondary",
      )}
    >
      <Icon
        name={status === "cancelled" ? "x" : "banknote"}
        className={cn("size-5 shrink-0", open ? "text-honey-700" : "text-muted-foreground")}
      />
      <div>
        <p className="font-semibold">{payment.title}</p>
        <p className="text-sm">{payment.detail}</p>
        {payment.cashToPrepare ? <p className="text-sm">{payment.cashToPrepare}</p> : null}
      </div>
    </div>
  );
}
