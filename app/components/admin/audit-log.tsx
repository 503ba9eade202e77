import { Form, Link, useLocation } from "react-router";
import { Card } from "#app/components/ui/card.tsx";
import { Field, Input, NativeSelect } from "#app/components/ui/input.tsx";
import {
  AUDIT_ACTION_LABELS,
  type AuditFilters,
  type AuditRow,
  auditActionLabel,
  auditSummary,
} from "#app/features/audit/audit-actions.ts";
import type { ChainStatus } from "#app/features/audit/audit-chain.server.ts";
import { type FoldedHistoryEvent, foldedText } from "#app/features/audit/order-history.ts";
import { STORE_TIME_ZONE } from "#app/utils/store-time.ts";
import { FilterActions } from "./filter-actions.tsx";

const when = new Intl.DateTimeFormat("en-US", {
  dateStyle: "medium",
  timeStyle: "medium",
  timeZone: STORE_TIME_ZONE,
});

/** The audit log's filters: a GET form (works without JavaScript), and the export of the same filter. */
export function AuditFilterForm({
  filters,
  actors,
  exportHref,
}: {
  filters: AuditFilters;
  actors: { id: string; email: string }[];
  exportHref: string;
}) {
  const location = useLocation();
  return (
    <Form
      method="get"
      className="mb-6 grid gap-3 rounded-lg border border-border bg-card p-4 sm:grid-cols-2 lg:grid-cols-4"
    >
      <Field stacked id="audit-actor" label="Who">
        <NativeSelect id="audit-actor" name="actor" defaultValue={filters.actor ?? ""}>
          <option value="">Anyone</option>
          {actors.map((actor) => (
            <option key={actor.id} value={actor.id}>
              {actor.email}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field stacked id="audit-action" label="Action">
        <NativeSelect id="audit-action" name="action" defaultValue={filters.action ?? ""}>
          <option value="">Any action</option>
          {Object.entries(AUDIT_ACTION_LABELS).map(([action, label]) => (
            <option key={action} value={action}>
              {label}
            </option>
          ))}
          {filters.action && !(filters.action in AUDIT_ACTION_LABELS) ? (
            <option value={filters.action}>{filters.action}</option>
          ) : null}
        </NativeSelect>
      </Field>
      <Field stacked id="audit-target-type" label="Target">
        <NativeSelect id="audit-target-type" name="targetType" defaultValue={filters.targetType ?? ""}>
          <option value="">Anything</option>
          <option value="order">Order</option>
          <option value="product">Product</option>
          <option value="settings">Settings</option>
          <option value="delivery_zone">Delivery zone</option>
          <option value="admin_user">Staff member</option>
          <option value="catalogue">Catalogue</option>
          <option value="orders">Orders (export)</option>
          <option value="audit">Audit log</option>
        </NativeSelect>
      </Field>
      <Field stacked id="audit-target-id" label="Target id">
        <Input
          id="audit-target-id"
          name="targetId"
          defaultValue={filters.targetId ?? ""}
          placeholder="Order or product id"
        />
      </Field>
      <Field stacked id="audit-from" label="From">
        <Input id="audit-from" name="from" type="date" defaultValue={filters.from ?? ""} />
      </Field>
      <Field stacked id="audit-to" label="To">
        <Input id="audit-to" name="to" type="date" defaultValue={filters.to ?? ""} />
      </Field>
      <FilterActions
        submitLabel="Filter"
        filtered={location.search !== ""}
        exportHref={exportHref}
        className="sm:col-span-2"
      />
    </Form>
  );
}

function Target({ event }: { event: AuditRow }) {
  if (!event.targetType) return null;
  const short = event.targetId ? `#${event.targetId.slice(0, 8)}` : "";
  const href =
    event.targetType === "product" && event.targetId
      ? `/admin/products/edit/${event.targetId}`
      : event.targetId
        ? `/admin/audit?targetType=${event.targetType}&targetId=${event.targetId}`
        : null;
  const text = `${event.targetType.replace("_", " ")} ${short}`.trim();
  return href ? (
    <Link to={href} className="text-primary underline-offset-2 hover:underline">
      {text}
    </Link>
  ) : (
    <span>{text}</span>
  );
}

/**
 * How far the log's hash chain verified (record 036): each event's hash covers the one before it,
 * so a deleted or changed event breaks the chain at that point.
 */
export function AuditChainStatus({ chain }: { chain: ChainStatus }) {
  if (chain.broken) {
    return (
      <p role="alert" className="rounded-lg border border-destructive bg-destructive/10 px-4 py-3 text-sm">
        <span className="font-semibold">Chain broken at event {chain.broken.at}</span>: {chain.broken.reason}.
        {chain.verifiedUpTo ? ` Verified up to event ${chain.verifiedUpTo}.` : ""}
      </p>
    );
  }
  return (
    <p className="text-muted-foreground text-sm" data-testid="audit-chain-status">
      {chain.verifiedUpTo === null ? (
        "Chain verified: nothing recorded yet."
      ) : (
        <>
          Chain verified up to event {chain.verifiedUpTo}
          {chain.lastHash ? (
            <>
              {" "}
              (hash <code className="break-all">{chain.lastHash.slice(0, 16)}…</code>)
            </>
          ) : null}
          {chain.pending ? "; newer events are checked within the hour." : "."}
        </>
      )}
    </p>
  );
}

/** The events, newest first: a card per event on a phone, a table row from `md` up. */
export function AuditEventList({ events }: { events: AuditRow[] }) {
  return (
    <ul className="space-y-2">
      {events.map((event) => {
        const summary = auditSummary(event.action, event.details);
        return (
          <li key={event.id}>
            <Card className="grid gap-1 px-4 py-3 text-sm md:grid-cols-[12rem_1fr_1.5fr] md:gap-4">
              <time dateTime={event.createdAt} className="text-muted-foreground tabular-nums">
                {when.format(new Date(event.createdAt))}
              </time>
              <span className="min-w-0 break-all">
                {event.actorEmail ?? "The shop"}{" "}
                {event.actorRole ? <span className="text-muted-foreground">({event.actorRole})</span> : null}
              </span>
              <span className="min-w-0">
                <span className="font-semibold">{auditActionLabel(event.action)}</span>{" "}
                <Target event={event} />
                {summary ? <span className="block text-muted-foreground">{summary}</span> : null}
              </span>
            </Card>
          </li>
        );
      })}
    </ul>
  );
}

export type OrderHistoryView = FoldedHistoryEvent;

/** An order's own history on its card (who confirmed it, who viewed the ID, when): a disclosure. */
export function OrderHistory({ orderId, history }: { orderId: string; history: OrderHistoryView[] }) {
  return (
    <details className="border-border border-t px-4 py-2 text-sm sm:px-5">
      <summary className="flex min-h-11 cursor-pointer items-center font-medium">
        History ({history.length === 0 ? "nothing recorded yet" : history.length})
      </summary>
      {history.length > 0 ? (
        <ol className="space-y-1 pb-2">
          {history.map((entry) => (
            <li key={`${entry.createdAt}-${entry.action}`} className="flex flex-wrap gap-x-2">
              <time dateTime={entry.createdAt} className="text-muted-foreground tabular-nums">
                {when.format(new Date(entry.createdAt))}
              </time>
              <span>{entry.actorEmail ?? "The shop"}</span>
              <span className="font-medium">{auditActionLabel(entry.action)}</span>
              <span className="text-muted-foreground">
                {entry.count > 1 ? foldedText(entry) : auditSummary(entry.action, entry.details)}
              </span>
            </li>
          ))}
        </ol>
      ) : null}
      <Link
        to={`/admin/audit?targetType=order&targetId=${orderId}`}
        className="inline-flex min-h-11 items-center text-primary underline-offset-2 hover:underline"
      >
        Full history in the audit log
      </Link>
    </details>
  );
}
