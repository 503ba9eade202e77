import { type ReactNode, useId, useState } from "react";
import { Form, useLocation } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { changeToBringText } from "#app/features/delivery/cash-change.ts";
import { idOnFileText } from "#app/features/media/id-on-file.ts";
import type { AdminOrder } from "#app/features/orders/admin-orders.server.ts";
import { cn } from "#app/utils/cn.ts";
import { formatCents } from "#app/utils/money.ts";
import { formatPhone } from "#app/utils/phone.ts";
import { formatStoreDate, nextDate, STORE_TIME_ZONE } from "#app/utils/store-time.ts";
import { CsrfInput } from "./csrf.tsx";
import { StatusBadge } from "./status-badge.tsx";

const placedAt = new Intl.DateTimeFormat("en-US", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: STORE_TIME_ZONE,
});

/** 'Sat, Nov 28' for a yyyy-MM-dd delivery date, with 'Today' / 'Tomorrow' against the store's `today`. */
export function DeliveryDate({ date, today }: { date: string; today: string }) {
  const words = formatStoreDate(date);
  const tag = date === today ? "Today" : date === nextDate(today) ? "Tomorrow" : null;
  return (
    <>
      <time dateTime={date}>{words}</time>
      {tag ? (
        <Badge variant={tag === "Today" ? "primary" : "outline"} className="ml-1">
          {tag}
        </Badge>
      ) : null}
    </>
  );
}

/**
 * One order as staff need it (K-2 'Admin incoming orders', P-8: every item listed). `today`
 * is the store's date (from the loader, so the server and the browser tag the same days).
 */
export function OrderCard({
  order,
  actions,
  footer,
  today,
  select,
  flag,
}: {
  order: AdminOrder;
  actions?: React.ReactNode;
  /** Below the actions: the order's own history, for those who may read it. */
  footer?: React.ReactNode;
  today: string;
  /** Before the order number: the box that ticks it for a bulk action. */
  select?: React.ReactNode;
  /** Under the header: a warning such as 'Auto-cancels at 2:00 PM if not confirmed'. */
  flag?: React.ReactNode;
}) {
  const first = order.items[0];
  return (
    <Card id={`order-${order.id}`} className="overflow-hidden scroll-mt-20">
      <div className="flex flex-wrap items-center justify-between gap-2 border-border border-b bg-muted/60 px-4 py-3 sm:px-5">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          {select}
          <h2 className="font-mono font-semibold text-base">Order #{order.id.slice(0, 8)}</h2>
          <StatusBadge status={order.status} />
          {order.status === "cancelled" && order.cancelReason ? (
            <span className="text-muted-foreground text-sm">({order.cancelReason})</span>
          ) : null}
          {order.idPhotoId ? null : <Badge variant="warning">No ID photo – check at the door</Badge>}
        </div>
        <p className="text-muted-foreground text-sm">
          <time dateTime={order.createdAt}>{placedAt.format(new Date(order.createdAt))}</time>
        </p>
        {order.delivered ? (
          <p className="w-full text-sm">
            Delivered
            {order.delivered.by ? (
              <>
                {" "}
                by <span className="font-medium">{order.delivered.by}</span>
              </>
            ) : null}{" "}
            <time dateTime={order.delivered.at}>{placedAt.format(new Date(order.delivered.at))}</time>
          </p>
        ) : null}
      </div>
      {flag}
      <div className="grid gap-5 p-4 sm:p-5 lg:grid-cols-[1fr_1fr_1.4fr]">
        <OrderCardSection title="Customer" orderId={order.id}>
          <ul className="space-y-1.5 text-sm">
            <li className="flex items-center gap-2">
              <Icon name="user" className="size-4 text-muted-foreground" /> {order.customerName}
            </li>
            <li className="flex items-center gap-2 break-all">
              <Icon name="mail" className="size-4 shrink-0 text-muted-foreground" />
              <a className="underline-offset-2 hover:underline" href={`mailto:${order.userEmail}`}>
                {order.userEmail}
              </a>
            </li>
            <li className="flex items-center gap-2">
              <Icon name="phone" className="size-4 text-muted-foreground" />
              <a className="underline-offset-2 hover:underline" href={`tel:${order.phone}`}>
                {formatPhone(order.phone)}
              </a>
            </li>
          </ul>
          <IdPhoto photoId={order.idPhotoId} name={order.customerName} />
          {order.idFile ? <IdOnFilePanel orderId={order.id} expiresOn={order.idFile.expiresOn} /> : null}
        </OrderCardSection>
        <OrderCardSection title="Delivery" orderId={order.id}>
          <ul className="space-y-1.5 text-sm">
            <li className="flex items-start gap-2">
              <Icon name="map-pin" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />{" "}
              {order.deliveryAddress}
            </li>
            <li className="flex items-center gap-2">
              <Icon name="calendar-clock" className="size-4 shrink-0 text-muted-foreground" />
              <span>
                <DeliveryDate date={order.deliveryDate} today={today} />, {order.deliveryTime}
              </span>
            </li>
          </ul>
          <OrderNotes notes={order.notes} className="mt-3 text-sm" />
        </OrderCardSection>
        <OrderCardSection title="Order details" orderId={order.id}>
          <div className="flex gap-3">
            {first?.imageUrl ? (
              <img
                src={first.imageUrl}
                alt=""
                className="size-16 shrink-0 rounded-md border border-border object-cover"
                loading="lazy"
              />
            ) : null}
            <ul className="min-w-0 flex-1 space-y-1 text-sm">
              {order.items.map((item) => (
                <li key={item.id} className="flex justify-between gap-3">
                  <span className="min-w-0">
                    <span className="font-medium">{item.productName}</span>{" "}
                    <span className="text-muted-foreground">
                      ({item.sizeLabel}) × {item.quantity} @ {formatCents(item.unitPriceCents)}
                    </span>
                  </span>
                  <span className="shrink-0 tabular-nums">{formatCents(item.totalPriceCents)}</span>
                </li>
              ))}
            </ul>
          </div>
          <p className="mt-3 flex justify-between border-border border-t pt-2 font-semibold">
            <span>
              Total <span className="font-normal text-muted-foreground text-sm">(qty {order.quantity})</span>
            </span>
            <span className="tabular-nums">{formatCents(order.totalAmountCents)}</span>
          </p>
          <CashNote order={order} />
        </OrderCardSection>
      </div>
      <DoorNote order={order} />
      {actions ? (
        <div className="flex flex-wrap gap-2 border-border border-t px-4 py-3 sm:px-5">{actions}</div>
      ) : null}
      {footer}
    </Card>
  );
}

/**
 * What the driver recorded at the door (record 051): the proof of a delivery with the customer's
 * signature (loaded only when opened: each opening is audited), and each 'Could not deliver'.
 */
function DoorNote({ order }: { order: AdminOrder }) {
  const [showSignature, setShowSignature] = useState(false);
  const door = order.door;
  if (!door || (!door.proof && door.failures.length === 0)) return null;
  const label = `order #${order.id.slice(0, 8)}`;
  return (
    <section
      aria-label={`At the door, ${label}`}
      className="space-y-2 border-border border-t px-4 py-3 text-sm sm:px-5"
    >
      {door.failures.map((failure) => (
        <p key={failure.at} className="flex flex-wrap items-center gap-x-2">
          <Badge variant="warning">Could not deliver</Badge>
          <span className="font-medium">{failure.text}</span>
          <time className="text-muted-foreground" dateTime={failure.at}>
            {placedAt.format(new Date(failure.phoneTime ?? failure.at))}
          </time>
        </p>
      ))}
      {door.proof ? (
        <div className="space-y-2">
          <p>
            <span className="font-semibold">Proof at the door:</span> ID checked (age {door.proof.ageYears}) ·
            cash {formatCents(door.proof.cashReceivedCents)} · change {formatCents(door.proof.changeCents)}
          </p>
          <details onToggle={(event) => setShowSignature(event.currentTarget.open)}>
            <summary className="inline-flex min-h-11 cursor-pointer items-center font-medium text-primary underline-offset-2 hover:underline">
              Show signature
            </summary>
            {showSignature ? (
              <img
                src={`/admin/orders/${order.id}/signature`}
                alt={`Signature of ${order.customerName}`}
                className="mt-2 h-auto w-full max-w-md rounded-md border border-border bg-white"
              />
            ) : (
              <a
                href={`/admin/orders/${order.id}/signature`}
                target="_blank"
                rel="noreferrer"
                className="mt-2 block underline"
              >
                Open the signature
              </a>
            )}
          </details>
        </div>
      ) : null}
    </section>
  );
}

/** What the driver brings (P-24): 'Bring $13.50 change' when the customer pays with more. */
function CashNote({ order }: { order: AdminOrder }) {
  const change = changeToBringText(order.totalAmountCents, order.payWithCents);
  if (change === null || order.payWithCents === null) return null;
  return (
    <p className="mt-2 flex items-center gap-2 rounded-md bg-secondary px-3 py-2 text-sm">
      <Icon name="banknote" className="size-4 shrink-0 text-primary" />
      <span>
        <span className="font-semibold">{change}</span>{" "}
        <span className="text-muted-foreground">(pays with {formatCents(order.payWithCents)})</span>
      </span>
    </p>
  );
}

/**
 * The customer's ID: admin-only URL, hidden if it fails to load. The thumbnail's view is
 * recorded once an hour per person; opening it (the link) is recorded each time.
 */
export function IdPhoto({ photoId, name }: { photoId: string | null; name: string }) {
  const [failed, setFailed] = useState(false);
  if (!photoId || failed) return null;
  return (
    <a href={`/admin/id-photos/${photoId}`} target="_blank" rel="noreferrer" className="mt-3 block w-fit">
      <img
        src={`/admin/id-photos/${photoId}?view=thumbnail`}
        alt={`ID of ${name}`}
        className="h-24 w-auto max-w-full rounded-md border border-border object-cover"
        loading="lazy"
        onError={() => setFailed(true)}
      />
    </a>
  );
}

/**
 * The customer ticked 'Keep my ID on file for next time' on this order (record 058): staff who
 * checked the photo record the ID's expiry to keep it, and can take it off file at any time.
 */
function IdOnFilePanel({ orderId, expiresOn }: { orderId: string; expiresOn: string | null }) {
  const location = useLocation();
  const dateId = useId();
  const action = `/admin/orders/${orderId}/id-on-file`;
  const returnTo = `${location.pathname}${location.search}`;
  return (
    <div className="mt-3 space-y-2 rounded-md border border-border bg-muted/40 px-3 py-2 text-sm">
      {expiresOn ? (
        <p className="flex items-center gap-2 font-medium">
          <Icon name="circle-check" className="size-4 shrink-0 text-success" />
          {idOnFileText(expiresOn)}
        </p>
      ) : (
        <Form method="post" action={action} className="space-y-2">
          <CsrfInput />
          <input type="hidden" name="intent" value="verify" />
          <input type="hidden" name="returnTo" value={returnTo} />
          <p className="font-medium">The customer asked to keep this ID on file.</p>
          <label htmlFor={dateId} className="block text-muted-foreground">
            ID expires
          </label>
          <div className="flex flex-wrap gap-2">
            <Input id={dateId} name="expiresOn" type="date" required className="h-11 w-44" />
            <Button type="submit" className="min-h-11">
              Verify and keep on file
            </Button>
          </div>
        </Form>
      )}
      <Form method="post" action={action}>
        <CsrfInput />
        <input type="hidden" name="intent" value="revoke" />
        <input type="hidden" name="returnTo" value={returnTo} />
        <Button type="submit" variant="outline" className="min-h-11">
          {expiresOn ? "Revoke ID on file" : "Do not keep this ID"}
        </Button>
      </Form>
    </div>
  );
}

/** The customer's notes on an order, marked so that staff do not miss them (nothing without notes). */
export function OrderNotes({ notes, className }: { notes: string | null; className?: string }) {
  if (!notes) return null;
  return (
    <p className={cn("rounded-md bg-honey-100 px-3 py-2", className)}>
      <span className="font-semibold">Notes: </span>
      {notes}
    </p>
  );
}

function OrderCardSection(props: { title: string; orderId: string; children: ReactNode }) {
  return (
    <section aria-label={`${props.title}, order #${props.orderId.slice(0, 8)}`}>
      <h3 className="mb-2 font-semibold text-muted-foreground text-xs uppercase tracking-wider">
        {props.title}
      </h3>
      {props.children}
    </section>
  );
}
