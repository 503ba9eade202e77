import type * as React from "react";
import { Link, useLocation } from "react-router";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { changeDueCents } from "#app/features/delivery/cash-change.ts";
import type { BoardOrder, PickSlot } from "#app/features/orders/day-board.server.ts";
import { boardHref } from "#app/features/orders/day-board.ts";
import { formatCents } from "#app/utils/money.ts";
import { formatPhone } from "#app/utils/phone.ts";
import { formatStoreDate } from "#app/utils/store-time.ts";
import { type Column, DataTable } from "./data-table.tsx";
import { AdminPageHeader } from "./page-header.tsx";

/**
 * A print view's page: its title and what it holds for the day and slot (not printed), the print
 * bar, then the view, or the error when the orders could not be read.
 */
export function PrintPage({
  title,
  summary,
  date,
  slot,
  error,
  includePending,
  selected,
  children,
}: {
  title: string;
  summary: string;
  date: string;
  slot?: string;
  error: string | null;
  /** Whether pending orders are in the view (staff asked for them); null: no switch (a selection). */
  includePending: boolean | null;
  /** Printing orders chosen on the incoming list rather than a date. */
  selected?: number;
  children: React.ReactNode;
}) {
  const location = useLocation();
  const switched = new URLSearchParams(location.search);
  if (includePending) switched.delete("pending");
  else switched.set("pending", "1");
  return (
    <>
      <div className="print:hidden">
        <AdminPageHeader
          title={title}
          description={
            selected !== undefined
              ? `${selected} selected ${selected === 1 ? "order" : "orders"}: ${summary}`
              : `${formatStoreDate(date)}${slot ? ` · ${slot}` : " · every slot"}: ${summary}`
          }
        />
      </div>
      {includePending === null ? null : (
        <div
          className={`mb-4 flex flex-wrap items-center justify-between gap-3 rounded-lg border px-4 py-3 text-sm print:hidden ${
            includePending ? "border-honey-400 bg-honey-100" : "border-border bg-card"
          }`}
        >
          <p>
            {includePending
              ? "Including pending orders: they are not confirmed yet and may still be cancelled."
              : "Confirmed orders only. Pending orders are left out until someone confirms them."}
          </p>
          <Link
            to={`${location.pathname}?${switched.toString()}`}
            className={buttonVariants({ variant: "outline", size: "sm" })}
            role="switch"
            aria-checked={includePending}
          >
            {includePending ? "Confirmed orders only" : "Include pending orders"}
          </Link>
        </div>
      )}
      <PrintBar date={date} slot={slot} title={title.toLowerCase()} />
      {error ? (
        <p role="alert" className="py-12 text-center text-destructive">
          {error}
        </p>
      ) : (
        children
      )}
    </>
  );
}

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

const PICK_COLUMNS: Column<PickSlot["lines"][number]>[] = [
  {
    header: <span className="sr-only">Packed</span>,
    th: "w-12 py-2 pr-2 print:w-8",
    td: "py-2 pr-2",
    cell: () => <span aria-hidden className="inline-block size-4 border border-foreground" />,
  },
  { header: "Product", th: "py-2 pr-2", td: "py-2 pr-2 font-medium", cell: (line) => line.productName },
  { header: "Size", th: "py-2 pr-2", td: "py-2 pr-2", cell: (line) => line.sizeLabel },
  {
    header: "Qty",
    th: "py-2 pr-2 text-right",
    td: "py-2 pr-2 text-right font-semibold tabular-nums",
    cell: (line) => line.quantity,
  },
  {
    header: "Orders",
    th: "py-2 text-right",
    td: "py-2 text-right tabular-nums",
    cell: (line) => line.orders,
  },
];

const SLIP_COLUMNS: Column<BoardOrder["items"][number]>[] = [
  {
    header: "Item",
    th: "py-1 pr-2",
    td: "py-1 pr-2",
    cell: (item) => `${item.productName} (${item.sizeLabel})`,
  },
  {
    header: "Qty",
    th: "py-1 pr-2 text-right",
    td: "py-1 pr-2 text-right tabular-nums",
    cell: (item) => item.quantity,
  },
  {
    header: "Price",
    th: "py-1 text-right",
    td: "py-1 text-right tabular-nums",
    cell: (item) => formatCents(item.totalPriceCents),
  },
];

/** Pick list (P-25): per slot, every product and size of the orders to pack, quantities summed. */
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
            {slot.orders} {slot.orders === 1 ? "order" : "orders"} to pack (confirmed, not yet delivered)
            {slot.pending > 0 ? (
              <span className="font-semibold text-foreground">
                {" "}
                · {slot.pending} of them pending: not confirmed yet
              </span>
            ) : null}
          </p>
          <DataTable
            className="w-full border-collapse text-left text-sm print:text-base"
            headRowClassName="border-border border-b-2"
            rowClassName="border-border border-b"
            columns={PICK_COLUMNS}
            rows={slot.lines}
            rowKey={(line) => `${line.productName}|${line.sizeLabel}`}
          />
        </section>
      ))}
    </div>
  );
}

/** One driver slip (P-25): who, where, what, how much; the ID check and a signature line. */
export function DriverSlip({ order }: { order: BoardOrder }) {
  const change = changeDueCents(order.totalAmountCents, order.payWithCents);
  const dayText = formatStoreDate(order.deliveryDate);
  return (
    <article
      aria-label={`Driver slip for ${order.customerName}`}
      className="break-inside-avoid rounded-lg border border-border bg-card p-4 text-sm print:mb-6 print:rounded-none print:border-2 print:border-black print:text-base"
    >
      <header className="mb-2 flex flex-wrap items-baseline justify-between gap-2 border-border border-b pb-2">
        <h2 className="font-semibold text-lg">
          {order.customerName}
          {order.status === "pending" ? (
            <span className="ml-2 rounded-md border-2 border-foreground px-1.5 py-0.5 align-middle font-bold text-xs uppercase">
              Pending: not confirmed yet
            </span>
          ) : null}
        </h2>
        <p className="font-mono text-xs">
          Order #{order.id.slice(0, 8)} · {dayText} · {order.deliveryTime}
        </p>
      </header>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="font-semibold">Phone</dt>
        <dd>{formatPhone(order.phone)}</dd>
        <dt className="font-semibold">Address</dt>
        <dd>{order.deliveryAddress}</dd>
        <dt className="font-semibold">Notes</dt>
        <dd>{order.notes ?? "None"}</dd>
      </dl>
      <DataTable
        className="mt-3 w-full border-collapse text-left"
        headRowClassName="border-border border-b"
        rowClassName="border-border border-b"
        columns={SLIP_COLUMNS}
        rows={order.items}
        rowKey={(item) => item.id}
      />
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
