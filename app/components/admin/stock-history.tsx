import { Link } from "react-router";
import { Card } from "#app/components/ui/card.tsx";
import type { StockMovementView } from "#app/features/catalog/stock.server.ts";
import { OPEN_STATUSES, type OrderStatus } from "#app/features/orders/order-status.ts";
import { STORE_TIME_ZONE } from "#app/utils/store-time.ts";
import { type Column, DataTable } from "./data-table.tsx";

const at = new Intl.DateTimeFormat("en-US", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: STORE_TIME_ZONE,
});

const REASONS: Record<StockMovementView["reason"], string> = {
  order: "Order",
  cancel: "Order cancelled",
  reopen: "Order reopened",
  received: "Received",
  correction: "Correction",
  import: "Import",
  return: "Returned by the driver",
};

export type SizeHistory = {
  id: string;
  sku: string;
  label: string;
  onHand: number;
  movements: StockMovementView[];
};

export function orderHref(movement: Pick<StockMovementView, "orderId" | "orderStatus">) {
  const status = movement.orderStatus;
  const open = status !== null && (OPEN_STATUSES as readonly OrderStatus[]).includes(status);
  return `${open ? "/admin/orders" : "/admin/completed-orders"}#order-${movement.orderId}`;
}

const MOVEMENT_COLUMNS: Column<StockMovementView>[] = [
  {
    header: "Time",
    th: "px-4 py-2 font-medium",
    td: "whitespace-nowrap px-4 py-2",
    cell: (movement) => at.format(new Date(movement.createdAt)),
  },
  {
    header: "Change",
    th: "px-4 py-2 text-right font-medium",
    td: "px-4 py-2 text-right font-mono tabular-nums",
    cell: (movement) => (movement.delta > 0 ? `+${movement.delta}` : String(movement.delta)),
  },
  {
    header: "Reason",
    th: "px-4 py-2 font-medium",
    td: "px-4 py-2",
    cell: (movement) => (
      <>
        {REASONS[movement.reason]}
        {movement.orderId ? (
          <>
            {" "}
            <Link to={orderHref(movement)} className="font-mono underline">
              #{movement.orderId.slice(0, 8)}
            </Link>
          </>
        ) : null}
        {movement.note ? <span className="block text-muted-foreground">{movement.note}</span> : null}
      </>
    ),
  },
  {
    header: "Who",
    th: "px-4 py-2 font-medium",
    td: "px-4 py-2",
    cell: (movement) => movement.actorEmail ?? (movement.reason === "order" ? "Shopper" : "—"),
  },
];

/** The last 20 stock movements of each size (record 026), newest first. */
export function StockHistory({ sizes }: { sizes: SizeHistory[] }) {
  if (sizes.length === 0) return null;
  return (
    <section aria-labelledby="stock-history" className="mt-8 space-y-4">
      <h2 id="stock-history" className="font-semibold text-lg">
        Stock history
      </h2>
      {sizes.map((size) => (
        <Card key={size.id} className="overflow-hidden">
          <div className="flex flex-wrap items-baseline justify-between gap-2 border-border border-b bg-muted/60 px-4 py-3">
            <h3 className="font-medium">
              {size.label} <span className="font-mono text-muted-foreground text-sm">{size.sku}</span>
            </h3>
            <p className="text-sm">{size.onHand} in stock</p>
          </div>
          {size.movements.length === 0 ? (
            <p className="px-4 py-3 text-muted-foreground text-sm">No stock movements yet.</p>
          ) : (
            <div className="overflow-x-auto">
              <DataTable
                caption={`Last ${size.movements.length} stock movements of ${size.label}`}
                className="w-full text-left text-sm"
                headClassName="text-muted-foreground"
                rowClassName="border-border border-t align-top"
                columns={MOVEMENT_COLUMNS}
                rows={size.movements}
                rowKey={(movement) => movement.id}
              />
            </div>
          )}
        </Card>
      ))}
    </section>
  );
}
