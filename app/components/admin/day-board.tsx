import { Form, Link, useFetcher } from "react-router";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { NativeSelect } from "#app/components/ui/input.tsx";
import { changeDueCents } from "#app/features/delivery/cash-change.ts";
import { autoCancelNotice } from "#app/features/orders/auto-cancel-notice.ts";
import type { BoardOrder, BoardSlot } from "#app/features/orders/day-board.server.ts";
import { boardHref, mapSearchUrl } from "#app/features/orders/day-board.ts";
import { CLOSED_STATUSES, type OrderAction } from "#app/features/orders/order-status.ts";
import { formatCents } from "#app/utils/money.ts";
import { formatPhone } from "#app/utils/phone.ts";
import { AutoCancelFlag } from "./auto-cancel-flag.tsx";
import { CsrfInput } from "./csrf.tsx";
import { IdPhoto, OrderNotes } from "./order-card.tsx";
import { OrderActions } from "./orders-screen.tsx";
import { StatusBadge } from "./status-badge.tsx";

/** The date picker of the board: a GET form (works without JavaScript), submitted on change with it. */
export function BoardDatePicker({
  date,
  previous,
  next,
  today,
}: {
  date: string;
  previous: string;
  next: string;
  today: string;
}) {
  return (
    <Form method="get" className="flex flex-wrap items-end gap-x-2 gap-y-3 print:hidden">
      <div className="flex items-end gap-1">
        <DayStep date={previous} label="Previous day" icon="chevron-left" />
        <label className="flex flex-col gap-1 font-medium text-sm">
          Delivery date
          <input
            type="date"
            name="date"
            defaultValue={date}
            key={date}
            required
            onChange={(event) => event.currentTarget.form?.requestSubmit()}
            className="min-h-11 rounded-md border border-input bg-card px-3 text-base"
          />
        </label>
        <DayStep date={next} label="Next day" icon="chevron-right" />
      </div>
      <div className="flex gap-2">
        <button type="submit" className={buttonVariants({ variant: "outline" })}>
          Show
        </button>
        {date === today ? null : (
          <Link to="/admin/today" className={buttonVariants({ variant: "secondary" })}>
            Today
          </Link>
        )}
      </div>
    </Form>
  );
}

/**
 * Who is looking at the board: an owner or manager plans it (print views, assigning drivers from
 * `drivers`); a driver runs it (their orders and unassigned ones, three status moves).
 */
export type BoardRole = { planning: true; drivers: { id: string; name: string }[] } | { planning: false };

/** Why a driver cannot take an order out yet, in plain words (a pending order on their run). */
export const NOT_CONFIRMED_YET =
  "Not confirmed yet: the shop has to confirm this order before it can go out for delivery.";

/** A driver's moves (P-26). */
const DRIVER_ACTIONS: readonly OrderAction[] = ["out-for-delivery", "deliver", "cancel"];

/**
 * Assigns an order, or a slot's open orders, to a driver: a plain form (works without
 * JavaScript); with it, a fetcher keeps the board where it is.
 */
function AssignDriverForm({
  drivers,
  current,
  fields,
  label,
  hint,
}: {
  drivers: { id: string; name: string }[];
  current: string | null;
  fields: Record<string, string>;
  label: string;
  /** What the assignment takes, said beside the button. */
  hint?: string;
}) {
  const fetcher = useFetcher();
  const busy = fetcher.state !== "idle";
  const selectId = `driver-${Object.values(fields)
    .join("-")
    .replace(/[^0-9A-Za-z-]+/g, "-")}`;
  return (
    <fetcher.Form method="post" className="flex flex-wrap items-center gap-2 print:hidden">
      <CsrfInput />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <label htmlFor={selectId} className="sr-only">
        {label}
      </label>
      <NativeSelect
        id={selectId}
        name="driverId"
        defaultValue={current ?? ""}
        compact
        className="w-40 min-w-0 shrink"
      >
        <option value="">No driver</option>
        {drivers.map((driver) => (
          <option key={driver.id} value={driver.id}>
            {driver.name}
          </option>
        ))}
      </NativeSelect>
      <Button type="submit" variant="outline" size="sm" disabled={busy}>
        <Icon name="truck" /> {busy ? "Assigning..." : label}
      </Button>
      {hint ? <span className="text-muted-foreground text-xs">{hint}</span> : null}
    </fetcher.Form>
  );
}

/**
 * Orders of the day the driver could not deliver, still to be checked back in or sent out again
 * (P-32): above the slots, each linking to its card.
 */
export function ReturningSummary({ slots }: { slots: BoardSlot[] }) {
  const returning = slots.flatMap((slot) => slot.orders).filter((order) => order.status === "returning");
  if (returning.length === 0) return null;
  return (
    <section
      aria-labelledby="returning-orders"
      className="mb-6 space-y-2 rounded-lg border-2 border-warning bg-warning-muted px-4 py-3"
    >
      <h2 id="returning-orders" className="font-semibold text-warning">
        Could not deliver ({returning.length}): returning to the store
      </h2>
      <ul className="space-y-1 text-sm">
        {returning.map((order) => (
          <li key={order.id} className="[overflow-wrap:anywhere]">
            <a href={`#board-order-${order.id}`} className="font-medium underline underline-offset-2">
              {order.customerName}
            </a>{" "}
            · {order.deliveryTime}
            {order.door?.failures.at(-1) ? ` · ${order.door.failures.at(-1)?.text}` : ""}
            {order.driverName ? ` · ${order.driverName}` : ""}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** One delivery slot of the board: count (against capacity when known), cash to collect, orders. */
export function BoardSlotSection({
  slot,
  date,
  showingOne,
  role,
  now,
}: {
  slot: BoardSlot;
  date: string;
  showingOne: boolean;
  role: BoardRole;
  /** The loader's clock (ISO), for the auto-cancel warnings. */
  now: string;
}) {
  const headingId = `slot-${slot.label.replace(/[^0-9A-Za-z]+/g, "-")}`;
  const full = slot.capacity !== undefined && slot.count >= slot.capacity;
  const hidden = slot.count - slot.orders.length;
  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 border-border border-b pb-2">
        <h2 id={headingId} className="font-display text-primary text-xl">
          {slot.label}
        </h2>
        <p className="flex flex-wrap items-center gap-x-3 text-sm">
          <span className={full ? "font-semibold text-destructive" : "font-semibold"}>
            {slot.capacity === undefined
              ? `${slot.count} ${slot.count === 1 ? "order" : "orders"}`
              : `${slot.count} / ${slot.capacity} orders`}
          </span>
          {slot.cancelled > 0 ? (
            <span className="text-muted-foreground">{slot.cancelled} cancelled</span>
          ) : null}
          {slot.closedReason !== undefined ? (
            <span className="rounded-md bg-warning-muted px-1.5 font-semibold text-warning">
              Closed ({slot.closedReason}): orders kept
            </span>
          ) : null}
          {slot.toCollectCents > 0 ? (
            <span className="text-muted-foreground">{formatCents(slot.toCollectCents)} to collect</span>
          ) : null}
        </p>
      </div>
      {slot.count > 0 && role.planning ? (
        <div className="flex flex-wrap items-end gap-2 print:hidden">
          <Link
            to={boardHref("/admin/today/pick-list", date, slot.label)}
            className={buttonVariants({ variant: "outline", size: "sm" })}
          >
            <Icon name="clipboard-list" /> Pick list
          </Link>
          <Link
            to={boardHref("/admin/today/driver-slips", date, slot.label)}
            className={buttonVariants({ variant: "outline", size: "sm" })}
          >
            <Icon name="truck" /> Driver slips
          </Link>
          {role.drivers.length > 0 ? (
            <AssignDriverForm
              drivers={role.drivers}
              current={null}
              fields={{ intent: "assign-slot", date, slot: slot.label }}
              label="Assign slot"
              hint="Confirmed orders only"
            />
          ) : null}
        </div>
      ) : null}
      {slot.orders.length === 0 ? (
        <p className="rounded-lg border border-border border-dashed px-4 py-6 text-center text-muted-foreground text-sm">
          No orders in this slot
        </p>
      ) : (
        <ul className="grid grid-cols-1 gap-3 lg:grid-cols-2">
          {slot.orders.map((order) => (
            <li key={order.id} id={`board-order-${order.id}`} className="scroll-mt-20">
              <BoardOrderCard order={order} role={role} now={now} />
            </li>
          ))}
        </ul>
      )}
      {hidden > 0 && !showingOne ? (
        <Link
          to={boardHref("/admin/today", date, slot.label)}
          className={buttonVariants({ variant: "secondary" })}
        >
          Show all {slot.count} orders of {slot.label} <Icon name="chevron-right" />
        </Link>
      ) : null}
    </section>
  );
}

/** An order as the person packing or driving needs it, on a phone: tap to call, tap for the map. */
export function BoardOrderCard({ order, role, now }: { order: BoardOrder; role: BoardRole; now: string }) {
  const change = changeDueCents(order.totalAmountCents, order.payWithCents);
  const open = order.status !== "delivered" && order.status !== "cancelled" && order.status !== "returning";
  const failure = order.door?.failures.at(-1);
  const proof = order.door?.proof;
  const pending = order.status === "pending";
  const autoCancel = autoCancelNotice(order, new Date(now));
  return (
    <Card className="flex h-full flex-col">
      <div className="flex flex-wrap items-center justify-between gap-2 border-border border-b bg-muted/60 px-4 py-2">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <h3 className="min-w-0 font-semibold [overflow-wrap:anywhere]">{order.customerName}</h3>
          <StatusBadge status={order.status} />
        </div>
        <span className="font-mono text-muted-foreground text-xs">#{order.id.slice(0, 8)}</span>
      </div>
      {autoCancel ? <AutoCancelFlag text={autoCancel} /> : null}
      {order.status === "returning" ? (
        <p role="note" className="bg-warning-muted px-4 py-2 font-semibold text-sm text-warning">
          Could not deliver{failure ? `: ${failure.text}` : ""}. Check it back in or send it out again.
        </p>
      ) : null}
      {proof ? (
        <p className="bg-secondary px-4 py-2 text-sm">
          ID checked (age {proof.ageYears}) · cash {formatCents(proof.cashReceivedCents)} · change{" "}
          {formatCents(proof.changeCents)} · signed
        </p>
      ) : null}
      <div className="flex flex-1 flex-col gap-2 px-4 py-3 text-sm">
        <a
          href={`tel:${order.phone}`}
          className="-mx-2 flex min-h-11 items-center gap-2 rounded-md px-2 font-medium text-primary hover:bg-muted"
        >
          <Icon name="phone" className="size-4 shrink-0" /> {formatPhone(order.phone)}
        </a>
        <a
          href={mapSearchUrl(order.deliveryAddress)}
          target="_blank"
          rel="noreferrer"
          className="-mx-2 flex min-h-11 items-center gap-2 rounded-md px-2 text-primary hover:bg-muted"
        >
          <Icon name="map-pin" className="size-4 shrink-0" />
          <span className="underline-offset-2 hover:underline">{order.deliveryAddress}</span>
        </a>
        <OrderNotes notes={order.notes} />
        <p className="flex min-h-6 items-center gap-2 text-muted-foreground">
          <Icon name="truck" className="size-4 shrink-0" />
          {order.driverName ? `Driver: ${order.driverName}` : "No driver yet"}
        </p>
        <IdPhoto photoId={order.idPhotoId} name={order.customerName} />
        <ul aria-label="Items" className="space-y-0.5">
          {order.items.map((item) => (
            <li key={item.id}>
              <span className="font-semibold tabular-nums">{item.quantity} ×</span> {item.productName}{" "}
              <span className="text-muted-foreground">({item.sizeLabel})</span>
            </li>
          ))}
        </ul>
        <p className="mt-auto flex flex-wrap items-baseline justify-between gap-x-3 border-border border-t pt-2">
          <span>
            Total <span className="font-semibold tabular-nums">{formatCents(order.totalAmountCents)}</span>
          </span>
          {open ? (
            <span className="font-semibold">
              <Icon name="banknote" className="mr-1 inline size-4 align-[-2px]" />
              Collect {formatCents(order.totalAmountCents)} cash
              {change !== null ? (
                <span className="block font-normal text-muted-foreground text-xs">
                  Pays with {formatCents(order.payWithCents as number)}: bring {formatCents(change)} change
                </span>
              ) : null}
            </span>
          ) : null}
        </p>
      </div>
      <div className="space-y-3 border-border border-t px-4 py-3 print:hidden">
        {!role.planning && pending ? (
          <p role="note" className="rounded-md bg-honey-100 px-3 py-2 text-sm">
            {NOT_CONFIRMED_YET}
          </p>
        ) : (
          <OrderActions
            order={order}
            scope={(CLOSED_STATUSES as readonly string[]).includes(order.status) ? "completed" : "incoming"}
            only={role.planning ? undefined : DRIVER_ACTIONS}
          />
        )}
        {role.planning && open && role.drivers.length > 0 ? (
          pending && !order.driverId ? (
            <p className="text-muted-foreground text-sm">Confirm it to give it to a driver.</p>
          ) : (
            <AssignDriverForm
              drivers={role.drivers}
              current={order.driverId ?? null}
              fields={{ intent: "assign", orderId: order.id }}
              label="Assign"
            />
          )
        ) : null}
      </div>
    </Card>
  );
}

/** The arrow to the day before or after on the board. */
function DayStep({
  date,
  label,
  icon,
}: {
  date: string;
  label: string;
  icon: "chevron-left" | "chevron-right";
}) {
  return (
    <Link
      to={boardHref("/admin/today", date)}
      className={buttonVariants({ variant: "ghost", size: "icon" })}
      aria-label={label}
    >
      <Icon name={icon} />
    </Link>
  );
}
