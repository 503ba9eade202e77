import { isOnSale, unitPriceCents } from "#app/features/catalog/catalog.ts";
import { cn } from "#app/utils/cn.ts";
import { formatCents } from "#app/utils/money.ts";

/** The price of a size: the sale price with the regular price struck through when on sale (K-2). */
export function Price({
  size,
  className,
}: {
  size: { priceCents: number; salePriceCents: number | null };
  className?: string;
}) {
  const onSale = isOnSale(size);
  return (
    <p className={cn("flex flex-wrap items-baseline gap-x-2", className)}>
      <span className={cn("font-semibold", onSale ? "text-destructive" : "text-foreground")}>
        {onSale ? <span className="sr-only">Sale price </span> : null}
        {formatCents(unitPriceCents(size))}
      </span>
      {onSale ? (
        <s className="text-sm text-muted-foreground">
          <span className="sr-only">Regular price </span>
          {formatCents(size.priceCents)}
        </s>
      ) : null}
    </p>
  );
}
