import { Link } from "react-router";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { changeDueCents } from "#app/features/delivery/cash-change.ts";
import type { BoardOrder, PickSlot } from "#app/features/orders/day-board.server.ts";
import { boardHref } from "#app/features/orders/day-board.ts";
import { formatCents } from "#app/utils/money.ts";

/** Back to the board and 'Print' above a print view; none of it is printed. */
export function PrintBar({ date, slot, title }: { date: string; slot?: string; title: string }) {
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3 print:hidden">
      <Link to={boardHref("/admin/today", date, slot)} className={buttonVariants({ variant: "outline" })}>
        <Icon name="arrow-left" /> Back to the board
      </Link>
      <Button type="button" onClick={() => window.print()}>
        <Icon name="printer" /> Print {title}
      </Button>
    </div>
  );
}

/** Pick list (decision 25): per slot, every product and size of the orders to pack, quantities summed. */
export function PickListView({ dayText, slots }: { dayText: string; slots: PickSlot[] }) {
  if (slots.length === 0) {
    return <p className="py-12 text-center text-muted-foreground">Nothing to pack for {dayText}.</p>;
  }
  return (
    <div className="space-y-8 print:space-y-0">
      {slots.map((slot) => (
        <section
          key={slot.label}
          aria-label={`Pick list ${slot.label}`}
          className="break-inside-avoid rounded-lg border border-border bg-card p-4 print:break-after-page print:rounded-none print:border-0 print:p-0 print:last:break-after-auto"
        >
          <h2 className="font-display text-2xl text-primary print:text-black">
            Pick list · {dayText} · {slot.label}
          </h2>
          <p className="mb-3 text-muted-foreground text-sm print:text-black">
            {slot.orders} {slot.orders === 1 ? "order" : "orders"} to pack (not yet delivered or cancelled)
          </p>
          <table className="w-full border-collapse text-left text-sm print:text-base">
            <thead>
              <tr className="border-border border-b-2">
                <th scope="col" className="w-12 py-2 pr-2 print:w-8">
                  <span className="sr-only">Packed</span>
                </th>
                <th scope="col" className="py-2 pr-2">
                  Product
                </th>
                <th scope="col" className="py-2 pr-2">
                  Size
                </th>
                <th scope="col" className="py-2 pr-2 text-right">
                  Qty
                </th>
                <th scope="col" className="py-2 text-right">
                  Orders
                </th>
              </tr>
            </thead>
            <tbody>
              {slot.lines.map((line) => (
                <tr key={`${line.productName}|${line.sizeLabel}`} className="border-border border-b">
                  <td className="py-2 pr-2">
                    <span aria-hidden className="inline-block size-4 border border-foreground" />
                  </td>
                  <td className="py-2 pr-2 font-medium">{line.productName}</td>
                  <td className="py-2 pr-2">{line.sizeLabel}</td>
                  <td className="py-2 pr-2 text-right font-semibold tabular-nums">{line.quantity}</td>
                  <td className="py-2 text-right tabular-nums">{line.orders}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </div>
  );
}

/** One driver slip (decision 25): who, where, what, how much; the ID check and a signature line. */
export function DriverSlip({ order, dayText }: { order: BoardOrder; dayText: string }) {
  const change = changeDueCents(order.totalAmountCents, order.payWithCents);
  return (
    <article
      aria-label={`Driver slip for ${order.customerName}`}
      className="break-inside-avoid rounded-lg border border-border bg-card p-4 text-sm print:mb-6 print:rounded-none print:border-2 print:border-black print:text-base"
    >
      <header className="mb-2 flex flex-wrap items-baseline justify-between gap-2 border-border border-b pb-2">
        <h2 className="font-semibold text-lg">{order.customerName}</h2>
        <p className="font-mono text-xs">
          Order #{order.id.slice(0, 8)} · {dayText} · {order.deliveryTime}
        </p>
      </header>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="font-semibold">Phone</dt>
        <dd>{order.phone}</dd>
        <dt className="font-semibold">Address</dt>
        <dd>{order.deliveryAddress}</dd>
        <dt className="font-semibold">Notes</dt>
        <dd>{order.notes ?? "None"}</dd>
      </dl>
      <table className="mt-3 w-full border-collapse text-left">
        <thead>
          <tr className="border-border border-b">
            <th scope="col" className="py-1 pr-2">
              Item
            </th>
            <th scope="col" className="py-1 pr-2 text-right">
              Qty
            </th>
            <th scope="col" className="py-1 text-right">
              Price
            </th>
          </tr>
        </thead>
        <tbody>
          {order.items.map((item) => (
            <tr key={item.id} className="border-border border-b">
              <td className="py-1 pr-2">
                {item.productName} ({item.sizeLabel})
              </td>
              <td className="py-1 pr-2 text-right tabular-nums">{item.quantity}</td>
              <td className="py-1 text-right tabular-nums">{formatCents(item.totalPriceCents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 text-right font-semibold text-base">
        Total to collect: {formatCents(order.totalAmountCents)} (cash)
      </p>
      {change !== null ? (
        <p className="text-right font-semibold">
          Pays with {formatCents(order.payWithCents as number)}: bring {formatCents(change)} change
        </p>
      ) : null}
      <p className="mt-3 rounded-md border-2 border-foreground px-3 py-2 font-semibold">
        Check ID: name and 21+
      </p>
      <div className="mt-8 flex items-end gap-3">
        <span className="shrink-0">Signature</span>
        <span aria-hidden className="flex-1 border-foreground border-b" />
      </div>
    </article>
  );
}
