import { Link } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import type { LowStockSize } from "#app/features/catalog/low-stock.server.ts";

export type LowStockSummary = { sizes: LowStockSize[]; total: number };

/**
 * The dashboard's 'Low stock' panel: every size at or below its threshold,
 * sold-out first, each a link to its product's edit page. `null`: the list could not be loaded.
 */
export function LowStockPanel({ lowStock }: { lowStock: LowStockSummary | null }) {
  return (
    <section aria-labelledby="low-stock-heading" className="mt-6">
      <Card className="p-5">
        <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="low-stock-heading" className="font-semibold">
            Low stock
          </h2>
          {lowStock && lowStock.total > 0 ? (
            <p className="text-muted-foreground text-sm">
              {lowStock.total} {lowStock.total === 1 ? "size" : "sizes"} at or below their threshold
            </p>
          ) : null}
        </div>
        {lowStock === null ? (
          <p className="py-4 text-center text-muted-foreground">Stock levels could not be loaded.</p>
        ) : lowStock.sizes.length === 0 ? (
          <p className="flex items-center justify-center gap-2 py-4 text-center text-muted-foreground">
            <Icon name="package-check" className="size-5 text-forest-500" /> Every size is above its low-stock
            threshold.
          </p>
        ) : (
          <ul className="divide-y divide-border">
            {lowStock.sizes.map((size) => (
              <li key={size.sizeId}>
                <Link
                  to={`/admin/products/edit/${size.productId}`}
                  className="-mx-2 flex min-h-11 items-center justify-between gap-3 rounded-md px-2 py-2 hover:bg-secondary focus-visible:outline-3 focus-visible:outline-ring"
                >
                  <span className="min-w-0">
                    <span className="block truncate font-medium">{size.productName}</span>
                    <span className="block text-muted-foreground text-xs">
                      {size.size} · low at {size.lowStockThreshold}
                    </span>
                  </span>
                  {size.inventoryCount === 0 ? (
                    <Badge variant="sale" className="shrink-0">
                      Sold out
                    </Badge>
                  ) : (
                    <span className="shrink-0 font-semibold text-sm tabular-nums">
                      {size.inventoryCount} left
                    </span>
                  )}
                </Link>
              </li>
            ))}
          </ul>
        )}
        {lowStock && lowStock.total > lowStock.sizes.length ? (
          <p className="mt-3 text-muted-foreground text-sm">
            And {lowStock.total - lowStock.sizes.length} more.{" "}
            <Link to="/admin/products" className="text-primary underline-offset-4 hover:underline">
              All products
            </Link>
          </p>
        ) : null}
      </Card>
    </section>
  );
}
