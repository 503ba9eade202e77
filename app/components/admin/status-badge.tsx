import { Badge } from "#app/components/ui/badge.tsx";

const VARIANTS = {
  pending: "pending",
  confirmed: "confirmed",
  delivered: "delivered",
  cancelled: "cancelled",
} as const;

/** Spec §9: pending yellow, confirmed blue, delivered green, cancelled red, anything else grey. */
export function StatusBadge({ status }: { status: string }) {
  const variant = VARIANTS[status as keyof typeof VARIANTS] ?? "neutral";
  return (
    <Badge variant={variant} className="capitalize">
      {status}
    </Badge>
  );
}
