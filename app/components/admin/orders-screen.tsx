import { useEffect, useState } from "react";
import { Form, Link, useFetcher, useLocation, useRevalidator } from "react-router";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { Field, Input, Label, NativeSelect, SelectOptions } from "#app/components/ui/input.tsx";
import type { AdminOrder, OrderScope } from "#app/features/orders/admin-orders.server.ts";
import { autoCancelNotice } from "#app/features/orders/auto-cancel-notice.ts";
import type { BulkPostAnswer } from "#app/features/orders/bulk-orders.server.ts";
import { type OrderFilters, orderFiltersQuery } from "#app/features/orders/order-search.schema.ts";
import {
  actionsFor,
  CANCEL_OTHER_MAX,
  CLOSED_STATUSES,
  OPEN_STATUSES,
  ORDER_ACTIONS,
  type OrderAction,
  STATUS_LABELS,
} from "#app/features/orders/order-status.ts";
import { toast } from "#app/utils/toast-client.ts";
import { OrderHistory, type OrderHistoryView } from "./audit-log.tsx";
import { AutoCancelFlag } from "./auto-cancel-flag.tsx";
import {
  BulkBar,
  BulkReportPanel,
  BulkReviewQuestion,
  SelectOrderBox,
  SelectSlotBox,
  slotKey,
} from "./bulk-orders.tsx";
import { CancelReasonSelect } from "./cancel-reason-select.tsx";
import { DialogButtons, QuestionDialog } from "./confirm-dialog.tsx";
import { CsrfInput } from "./csrf.tsx";
import { FilterActions } from "./filter-actions.tsx";
import { DeliveryDate, OrderCard } from "./order-card.tsx";
import { AdminPageHeader } from "./page-header.tsx";
import { usePolling } from "./use-polling.ts";
import { type ToastResult, useResultToast } from "./use-result-toast.ts";

export function RefreshButton() {
  const revalidator = useRevalidator();
  const busy = revalidator.state !== "idle";
  return (
    <Button type="button" variant="outline" onClick={() => void revalidator.revalidate()} disabled={busy}>
      <Icon name="refresh-cw" className={busy ? "animate-spin" : undefined} />
      Refresh
    </Button>
  );
}

export function Pager({
  nextCursor,
  isFirstPage,
  filters = {},
  query: givenQuery,
  noun = "orders",
}: {
  nextCursor: string | null;
  isFirstPage: boolean;
  filters?: OrderFilters;
  /** Another list's filters as a query string (the audit log's). */
  query?: string;
  noun?: string;
}) {
  const location = useLocation();
  if (!nextCursor && isFirstPage) return null;
  const query = givenQuery ?? orderFiltersQuery(filters);
  return (
    <nav aria-label="Pages" className="mt-6 flex flex-wrap justify-between gap-2">
      {isFirstPage ? (
        <span />
      ) : (
        <Link
          to={query ? `${location.pathname}?${query}` : location.pathname}
          className={buttonVariants({ variant: "outline" })}
        >
          <Icon name="chevron-left" /> Newest {noun}
        </Link>
      )}
      {nextCursor ? (
        <Link
          to={`${location.pathname}?${query ? `${query}&` : ""}before=${nextCursor}`}
          className={buttonVariants({ variant: "outline" })}
        >
          Older {noun} <Icon name="chevron-right" />
        </Link>
      ) : null}
    </nav>
  );
}

/** The buttons each list shows: the first shop's three and 'Out for Delivery' on incoming; 'Reopen' on completed. */
const LIST_ACTIONS: Record<OrderScope, OrderAction[]> = {
  incoming: ["confirm", "out-for-delivery", "deliver", "cancel"],
  completed: ["reopen"],
};
/** What staff do with an order the driver brings back (P-32). */
const RETURN_ACTIONS: OrderAction[] = ["check-in", "send-out-again"];

const ACTION_VARIANTS: Record<OrderAction, "primary" | "secondary" | "outline" | "outlineDestructive"> = {
  confirm: "primary",
  "out-for-delivery": "secondary",
  deliver: "secondary",
  cancel: "outlineDestructive",
  reopen: "outline",
  "check-in": "secondary",
  "send-out-again": "primary",
};

/**
 * The status flow's buttons (`order-status.ts`); one the order's status does not allow is disabled
 * (K-2). 'Mark Delivered', 'Cancel' (with its reason) and 'Reopen' ask first (P-23).
 */
export function OrderActions({
  order,
  scope,
  only,
}: {
  order: AdminOrder;
  scope: OrderScope;
  /** The moves this role may make (a driver: out for delivery, delivered, cancel); all by default. */
  only?: readonly OrderAction[];
}) {
  const fetcher = useFetcher<ToastResult>();
  const [asking, setAsking] = useState<OrderAction | null>(null);
  const pendingIntent = fetcher.state !== "idle" ? fetcher.formData?.get("intent") : null;
  useResultToast(fetcher.data);
  useEffect(() => {
    if (fetcher.state === "submitting") setAsking(null);
  }, [fetcher.state]);
  const offered = new Set(actionsFor(order.status));
  return (
    <>
      <fetcher.Form method="post" className="flex flex-wrap gap-2">
        <CsrfInput />
        <input type="hidden" name="orderId" value={order.id} />
        {(order.status === "returning" ? RETURN_ACTIONS : LIST_ACTIONS[scope])
          .filter((action) => !only || only.includes(action))
          .map((action) => {
            const { label, confirm } = ORDER_ACTIONS[action];
            const disabled = !offered.has(action) || fetcher.state !== "idle";
            const text = pendingIntent === action ? "Updating..." : label;
            return confirm ? (
              <Button
                key={action}
                type="button"
                variant={ACTION_VARIANTS[action]}
                disabled={disabled}
                onClick={() => setAsking(action)}
              >
                {text}
              </Button>
            ) : (
              <Button
                key={action}
                type="submit"
                name="intent"
                value={action}
                variant={ACTION_VARIANTS[action]}
                disabled={disabled}
              >
                {text}
              </Button>
            );
          })}
      </fetcher.Form>
      {asking ? (
        <ConfirmAction
          action={asking}
          order={order}
          fetcher={fetcher}
          onOpenChange={(open) => (open ? null : setAsking(null))}
        />
      ) : null}
    </>
  );
}

const QUESTIONS: Partial<Record<OrderAction, { title: string; body: string; submit: string }>> = {
  deliver: {
    title: "Mark this order delivered?",
    body: "Only when the customer has the order, their ID was checked and the cash collected. The customer gets a receipt by e-mail.",
    submit: "Mark Delivered",
  },
  cancel: {
    title: "Cancel this order?",
    body: "Its items go back in stock and the customer is told by e-mail, with the reason.",
    submit: "Cancel order",
  },
  "check-in": {
    title: "Check this order back in?",
    body: "Its items go back in stock (a return in the stock ledger) and the order is cancelled; the customer is told by e-mail.",
    submit: "Check back in",
  },
  "send-out-again": {
    title: "Send this order out again?",
    body: "It goes back to the confirmed orders, on its driver's run.",
    submit: "Send out again",
  },
  reopen: {
    title: "Reopen this order?",
    body: "It goes back to the incoming orders as confirmed; its items are taken from stock again.",
    submit: "Reopen order",
  },
};

function ConfirmAction({
  action,
  order,
  fetcher,
  onOpenChange,
}: {
  action: OrderAction;
  order: AdminOrder;
  fetcher: ReturnType<typeof useFetcher<ToastResult>>;
  onOpenChange: (open: boolean) => void;
}) {
  const question = QUESTIONS[action] ?? {
    title: "Are you sure?",
    body: "",
    submit: ORDER_ACTIONS[action].label,
  };
  const [reason, setReason] = useState<string>("");
  const busy = fetcher.state !== "idle";
  return (
    <QuestionDialog
      onOpenChange={onOpenChange}
      title={question.title}
      description={`Order #${order.id.slice(0, 8)} for ${order.customerName}. ${question.body}`}
    >
      <fetcher.Form method="post" className="mt-4 space-y-4">
        <CsrfInput />
        <input type="hidden" name="orderId" value={order.id} />
        <input type="hidden" name="intent" value={action} />
        {action === "cancel" ? (
          <>
            <CancelReasonSelect id={`reason-${order.id}`} value={reason} onChange={setReason} />
            {reason === "other" ? (
              <div className="space-y-1.5">
                <Label htmlFor={`reason-text-${order.id}`}>What happened?</Label>
                <Input
                  id={`reason-text-${order.id}`}
                  name="reasonText"
                  required
                  maxLength={CANCEL_OTHER_MAX}
                  className="w-full"
                />
              </div>
            ) : null}
          </>
        ) : null}
        <DialogButtons backLabel={action === "cancel" ? "Keep order" : "Go back"}>
          <Button type="submit" variant={action === "cancel" ? "destructive" : "primary"} disabled={busy}>
            {busy ? "Updating..." : question.submit}
          </Button>
        </DialogButtons>
      </fetcher.Form>
    </QuestionDialog>
  );
}

/** Search and filters as a GET form: the URL holds them (bookmarkable), no JavaScript needed. */
export function OrderSearch({
  scope,
  filters,
  view,
}: {
  scope: OrderScope;
  filters: OrderFilters;
  view?: "slots" | "newest";
}) {
  const statuses = scope === "incoming" ? OPEN_STATUSES : CLOSED_STATUSES;
  const query = orderFiltersQuery(filters);
  const exportHref = `/admin/orders/export?${new URLSearchParams({ scope, ...filters }).toString()}`;
  return (
    <Form
      method="get"
      role="search"
      aria-label="Find orders"
      className="mb-6 grid gap-3 rounded-lg border border-border bg-card p-4 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr_auto]"
    >
      {view === "newest" ? <input type="hidden" name="view" value="newest" /> : null}
      <Field id="order-search-q" label="Search orders" className="sm:col-span-2 lg:col-span-1">
        <Input
          id="order-search-q"
          type="search"
          name="q"
          defaultValue={filters.q ?? ""}
          placeholder="Order number, name, phone or e-mail"
          className="w-full"
          maxLength={100}
        />
      </Field>
      <Field id="order-search-status" label="Status">
        <NativeSelect
          id="order-search-status"
          name="status"
          defaultValue={filters.status ?? ""}
          className="w-full"
        >
          <option value="">All</option>
          <SelectOptions values={statuses} label={(status) => STATUS_LABELS[status]} />
        </NativeSelect>
      </Field>
      {(["from", "to"] as const).map((bound) => (
        <Field key={bound} id={`order-search-${bound}`} label={`Delivery ${bound}`}>
          <Input
            id={`order-search-${bound}`}
            type="date"
            name={bound}
            defaultValue={filters[bound] ?? ""}
            className="w-full"
          />
        </Field>
      ))}
      <FilterActions
        submitLabel="Search"
        filtered={query !== ""}
        exportHref={exportHref}
        className="sm:col-span-2 lg:col-span-1"
      />
    </Form>
  );
}

type OrdersScreenProps = {
  title: string;
  description: string;
  orders: AdminOrder[];
  nextCursor: string | null;
  isFirstPage: boolean;
  emptyText: string;
  buttons: React.ReactNode;
  scope: OrderScope;
  filters: OrderFilters;
  /** The store's date (yyyy-MM-dd), for the 'Today' / 'Tomorrow' tags. */
  today: string;
  /** K-8: 'Failed to fetch orders' / 'Failed to fetch completed orders'. */
  error?: string | null;
  /** Each order's own history, for those who may read the audit log. */
  histories?: Record<string, OrderHistoryView[]> | null;
  /** The incoming list's layout: by delivery date and slot (with bulk actions) or newest first. */
  view?: "slots" | "newest";
  /** The loader's clock (ISO): the auto-cancel warnings read it. */
  now?: string;
  /** More open orders than the grouped view shows. */
  more?: boolean;
  /** Drivers a selection can be given to (empty: this role does not assign). */
  drivers?: { id: string; name: string }[];
  /** Whether this role may assign drivers and print slips. */
  canPlan?: boolean;
  /** The answer to a bulk post: its review (the one confirmation) or its report. */
  bulk?: BulkPostAnswer | null;
};

export function OrdersScreen({
  title,
  description,
  orders,
  nextCursor,
  isFirstPage,
  emptyText,
  buttons,
  scope,
  filters,
  today,
  error,
  histories,
  view = "newest",
  now,
  more,
  drivers = [],
  canPlan = false,
  bulk,
}: OrdersScreenProps) {
  usePolling();
  useEffect(() => {
    if (error) toast.error("Error", { description: error });
  }, [error]);
  const filtered = orderFiltersQuery(filters) !== "";
  const bulkActions = scope === "incoming";
  const card = (order: AdminOrder) => {
    const autoCancel = now ? autoCancelNotice(order, new Date(now)) : null;
    return (
      <OrderCard
        order={order}
        today={today}
        select={bulkActions ? <SelectOrderBox orderId={order.id} group={slotKey(order)} /> : undefined}
        flag={autoCancel ? <AutoCancelFlag text={autoCancel} /> : undefined}
        actions={<OrderActions order={order} scope={scope} />}
        footer={histories ? <OrderHistory orderId={order.id} history={histories[order.id] ?? []} /> : null}
      />
    );
  };
  return (
    <>
      <AdminPageHeader title={title} description={description}>
        {buttons}
      </AdminPageHeader>
      {scope === "incoming" ? <ViewTabs view={view} filters={filters} /> : null}
      <OrderSearch scope={scope} filters={filters} view={view} />
      {bulk?.kind === "review" ? <BulkReviewQuestion review={bulk.review} drivers={drivers} /> : null}
      {bulk?.kind === "report" ? <BulkReportPanel report={bulk.report} /> : null}
      {bulk?.kind === "invalid" ? (
        <p role="alert" className="mb-6 rounded-lg border border-destructive bg-card px-4 py-3 text-sm">
          {bulk.message}
        </p>
      ) : null}
      {bulkActions && orders.length > 0 ? <BulkBar canAssign={canPlan} shown={orders.length} /> : null}
      {orders.length === 0 ? (
        <p className="rounded-lg border border-border border-dashed bg-card px-6 py-16 text-center text-muted-foreground">
          {filtered && !error ? "No orders match this search" : emptyText}
        </p>
      ) : view === "slots" ? (
        <SlotGroups orders={orders} today={today} card={card} />
      ) : (
        <ul className="space-y-4">
          {orders.map((order) => (
            <li key={order.id}>{card(order)}</li>
          ))}
        </ul>
      )}
      {more ? (
        <p className="mt-6 rounded-md bg-honey-100 px-3 py-2 text-sm">
          Showing the first {orders.length} open orders by delivery time: choose a delivery date above for the
          rest, or list them newest first.
        </p>
      ) : null}
      <Pager
        nextCursor={nextCursor}
        isFirstPage={isFirstPage}
        filters={filters}
        query={view === "newest" && scope === "incoming" ? viewQuery(filters, "newest") : undefined}
      />
    </>
  );
}

function viewQuery(filters: OrderFilters, view: "slots" | "newest") {
  const params = new URLSearchParams(orderFiltersQuery(filters));
  if (view === "newest") params.set("view", "newest");
  return params.toString();
}

/** 'By delivery time' (the default) or 'Newest first', keeping the search. */
function ViewTabs({ view, filters }: { view: "slots" | "newest"; filters: OrderFilters }) {
  const location = useLocation();
  return (
    <nav aria-label="Order list layout" className="mb-4 flex gap-2">
      {(
        [
          ["slots", "By delivery time"],
          ["newest", "Newest first"],
        ] as const
      ).map(([name, label]) => {
        const query = viewQuery(filters, name);
        return (
          <Link
            key={name}
            to={query ? `${location.pathname}?${query}` : location.pathname}
            aria-current={view === name ? "page" : undefined}
            className={buttonVariants({ variant: view === name ? "secondary" : "ghost", size: "sm" })}
          >
            {label}
          </Link>
        );
      })}
    </nav>
  );
}

/** Open orders grouped by delivery date and slot, each slot with the box that ticks all of it. */
function SlotGroups({
  orders,
  today,
  card,
}: {
  orders: AdminOrder[];
  today: string;
  card: (order: AdminOrder) => React.ReactNode;
}) {
  const groups: { key: string; date: string; slot: string; orders: AdminOrder[] }[] = [];
  for (const order of orders) {
    const key = slotKey(order);
    const last = groups[groups.length - 1];
    if (last?.key === key) last.orders.push(order);
    else groups.push({ key, date: order.deliveryDate, slot: order.deliveryTime, orders: [order] });
  }
  return (
    <div className="space-y-8">
      {groups.map((group) => {
        const headingId = `group-${group.key.replace(/[^0-9A-Za-z]+/g, "-")}`;
        const count = group.orders.length;
        const pending = group.orders.filter((order) => order.status === "pending").length;
        return (
          <section key={group.key} aria-labelledby={headingId} className="space-y-3">
            <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 border-border border-b pb-2">
              <h2 id={headingId} className="font-display text-primary text-xl">
                <DeliveryDate date={group.date} today={today} /> · {group.slot}
              </h2>
              <div className="flex flex-wrap items-center gap-x-4 text-sm">
                <span className="text-muted-foreground">
                  {count} {count === 1 ? "order" : "orders"}
                  {pending > 0 ? ` · ${pending} pending` : ""}
                </span>
                <SelectSlotBox group={group.key} label={`Select all ${count} of this slot`} />
              </div>
            </div>
            <ul className="space-y-4">
              {group.orders.map((order) => (
                <li key={order.id}>{card(order)}</li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
