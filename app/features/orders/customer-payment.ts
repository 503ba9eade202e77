/**
 * What the customer reads about paying, on every page and e-mail of their order: it follows the
 * order's status (nothing is due once cancelled, it is paid once delivered) and what they said they
 * would pay with (the driver brings the change). Pure: the pages, the e-mails and the tests share it.
 */
import { changeDueCents } from "#app/features/delivery/cash-change.ts";
import { formatCents } from "#app/utils/money.ts";
import type { OrderStatus } from "./order-status.ts";

export type CustomerPayment = {
  /** 'Cash on Delivery', 'Paid in cash' or 'Nothing is due'. */
  title: string;
  /** 'Payment due at delivery' while the order is open. */
  detail: string;
  /** While open: the cash to have ready, and the change when they pay with more. */
  cashToPrepare: string | null;
};

/** 'Prepare the exact amount in cash: $80.00.' or, paying with $150, the change the driver brings. */
export function cashToPrepareText(totalCents: number, payWithCents: number | null | undefined) {
  const change = changeDueCents(totalCents, payWithCents);
  if (change === null || payWithCents == null) {
    return `Prepare the exact amount in cash: ${formatCents(totalCents)}.`;
  }
  return `You'll pay with ${formatCents(payWithCents)}: your driver brings ${formatCents(change)} change (your total is ${formatCents(totalCents)}).`;
}

export function customerPayment(
  status: OrderStatus,
  totalCents: number,
  payWithCents: number | null | undefined,
): CustomerPayment {
  if (status === "cancelled") {
    return {
      title: "Nothing is due",
      detail: "This order is cancelled: you pay nothing.",
      cashToPrepare: null,
    };
  }
  if (status === "delivered") {
    return {
      title: "Paid in cash",
      detail: `Paid at delivery: ${formatCents(totalCents)}`,
      cashToPrepare: null,
    };
  }
  return {
    title: "Cash on Delivery",
    detail: "Payment due at delivery",
    cashToPrepare: cashToPrepareText(totalCents, payWithCents),
  };
}
