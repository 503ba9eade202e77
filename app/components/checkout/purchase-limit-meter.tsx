import { weightAgainstLimit } from "#app/features/purchase-limits/purchase-limits.ts";
import { cn } from "#app/utils/cn.ts";

/** One row of the running weight against a limit: "Flower equivalent (Virginia)  12.5 g of 28 g". */
export function PurchaseLimitMeter({
  label,
  totalMg,
  limitMg,
}: {
  label: string;
  totalMg: number;
  limitMg: number;
}) {
  const over = totalMg > limitMg;
  const percent = limitMg > 0 ? Math.min(100, Math.round((totalMg / limitMg) * 100)) : 100;
  return (
    <div className="space-y-1 text-sm" data-testid="purchase-limit">
      <div className="flex items-baseline justify-between gap-3">
        <span className="text-muted-foreground">{label}</span>
        <span className={cn("font-medium tabular-nums", over && "text-destructive")}>
          {weightAgainstLimit(totalMg, limitMg)}
        </span>
      </div>
      <div className="h-1.5 overflow-hidden rounded-full bg-muted" aria-hidden="true">
        <div
          className={cn("h-full rounded-full", over ? "bg-destructive" : "bg-primary")}
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
