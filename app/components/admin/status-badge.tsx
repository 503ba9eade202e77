import { Badge } from "#app/components/ui/badge.tsx";
import { type OrderStatus, STATUS_LABELS } from "#app/features/orders/order-status.ts";

const VARIANTS = {
  pending: "pending",
  confirmed: "confirmed",
  out_for_delivery: "accent",
  delivered: "delivered",
  cancelled: "cancelled",
  returning: "warning",
} as const;

/**
 * K-9: pending yellow, confirmed blue, delivered green, cancelled red, anything else grey;
 * out for delivery (P-23) in the accent colour, returning (P-32) as a warning. The status reads as its label ('Out for delivery').
 */
export function StatusBadge({ status }: { status: string }) {
  const variant = VARIANTS[status as keyof typeof VARIANTS] ?? "neutral";
  return <Badge variant={variant}>{STATUS_LABELS[status as OrderStatus] ?? status}</Badge>;
}
