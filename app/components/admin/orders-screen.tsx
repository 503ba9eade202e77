import { useEffect } from "react";
import { Link, useFetcher, useLocation, useRevalidator } from "react-router";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import type { AdminOrder } from "#app/features/orders/admin-orders.server.ts";
import { toast } from "#app/utils/toast-client.ts";
import { CsrfInput } from "./csrf.tsx";
import { OrderCard } from "./order-card.tsx";
import { AdminPageHeader } from "./page-header.tsx";

/** New orders show up without a manual refresh: the list reloads every 15 s while the tab is visible. */
export function usePolling(intervalMs = 15_000) {
  const revalidator = useRevalidator();
  useEffect(() => {
    const id = window.setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle")
        void revalidator.revalidate();
    }, intervalMs);
    return () => window.clearInterval(id);
  }, [revalidator, intervalMs]);
  return revalidator;
}

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

export function Pager({ nextCursor, isFirstPage }: { nextCursor: string | null; isFirstPage: boolean }) {
  const location = useLocation();
  if (!nextCursor && isFirstPage) return null;
  return (
    <nav aria-label="Pages" className="mt-6 flex flex-wrap justify-between gap-2">
      {isFirstPage ? (
        <span />
      ) : (
        <Link to={location.pathname} className={buttonVariants({ variant: "outline" })}>
          <Icon name="chevron-left" /> Newest orders
        </Link>
      )}
      {nextCursor ? (
        <Link
          to={`${location.pathname}?before=${nextCursor}`}
          className={buttonVariants({ variant: "outline" })}
        >
          Older orders <Icon name="chevron-right" />
        </Link>
      ) : null}
    </nav>
  );
}

const ACTIONS = [
  { intent: "confirm", status: "confirmed", label: "Confirm", variant: "primary" },
  { intent: "deliver", status: "delivered", label: "Mark Delivered", variant: "secondary" },
  { intent: "cancel", status: "cancelled", label: "Cancel", variant: "outline" },
] as const;

type StatusActionData = { ok: boolean; title: string; description: string };

/** Confirm / Mark Delivered / Cancel, the button of the current status disabled (spec §2). */
export function OrderActions({ order }: { order: AdminOrder }) {
  const fetcher = useFetcher<StatusActionData>();
  const pendingIntent = fetcher.state !== "idle" ? fetcher.formData?.get("intent") : null;
  // The answer arrives while the list reloads (a delivered order leaves it): toast at once.
  const result = fetcher.data;
  useEffect(() => {
    if (!result) return;
    if (result.ok) toast.success(result.title, { description: result.description });
    else toast.error(result.title, { description: result.description });
  }, [result]);
  return (
    <fetcher.Form method="post" className="flex flex-wrap gap-2">
      <CsrfInput />
      <input type="hidden" name="orderId" value={order.id} />
      {ACTIONS.map((action) => (
        <Button
          key={action.intent}
          type="submit"
          name="intent"
          value={action.intent}
          variant={action.intent === "cancel" ? "outlineDestructive" : action.variant}
          disabled={order.status === action.status || fetcher.state !== "idle"}
        >
          {pendingIntent === action.intent ? "Updating..." : action.label}
        </Button>
      ))}
    </fetcher.Form>
  );
}

export function OrdersScreen({
  title,
  description,
  orders,
  nextCursor,
  isFirstPage,
  emptyText,
  buttons,
  withActions,
  error,
}: {
  title: string;
  description: string;
  orders: AdminOrder[];
  nextCursor: string | null;
  isFirstPage: boolean;
  emptyText: string;
  buttons: React.ReactNode;
  withActions: boolean;
  /** Spec §8: 'Failed to fetch orders' / 'Failed to fetch completed orders'. */
  error?: string | null;
}) {
  usePolling();
  useEffect(() => {
    if (error) toast.error("Error", { description: error });
  }, [error]);
  return (
    <>
      <AdminPageHeader title={title} description={description}>
        {buttons}
      </AdminPageHeader>
      {orders.length === 0 ? (
        <p className="rounded-lg border border-border border-dashed bg-card px-6 py-16 text-center text-muted-foreground">
          {emptyText}
        </p>
      ) : (
        <ul className="space-y-4">
          {orders.map((order) => (
            <li key={order.id}>
              <OrderCard order={order} actions={withActions ? <OrderActions order={order} /> : undefined} />
            </li>
          ))}
        </ul>
      )}
      <Pager nextCursor={nextCursor} isFirstPage={isFirstPage} />
    </>
  );
}
