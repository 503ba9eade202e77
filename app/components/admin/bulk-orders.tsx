import { useEffect, useState, useSyncExternalStore } from "react";
import { Form, Link, useLocation, useNavigation } from "react-router";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Input, Label, NativeSelect } from "#app/components/ui/input.tsx";
import type { BulkPostAnswer } from "#app/features/orders/bulk-orders.server.ts";
import { BULK_ACTIONS, type BulkAction } from "#app/features/orders/order-bulk.schema.ts";
import { CANCEL_OTHER_MAX, STATUS_LABELS } from "#app/features/orders/order-status.ts";
import { formatCents } from "#app/utils/money.ts";
import { formatStoreDate } from "#app/utils/store-time.ts";
import { toast } from "#app/utils/toast-client.ts";
import { CancelReasonSelect } from "./cancel-reason-select.tsx";
import { DialogButtons, QuestionDialog } from "./confirm-dialog.tsx";
import { CsrfInput } from "./csrf.tsx";

/** The id of the one form every tick box of the list belongs to (`form=` attribute: no nesting). */
export const BULK_FORM_ID = "bulk-orders";

/** A slot of a delivery date, as the list groups orders and the form names a whole slot. */
export function slotKey(order: { deliveryDate: string; deliveryTime: string }) {
  return `${order.deliveryDate}|${order.deliveryTime}`;
}

function boxes(selector: string) {
  return [...document.querySelectorAll<HTMLInputElement>(selector)];
}

function announceSelection() {
  document.dispatchEvent(new Event("bulk-selection"));
}

/** How many orders are ticked (in the browser; the server answers with the exact list either way). */
function useSelectedCount() {
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    const update = () => setCount(boxes(`input[name="orderIds"]:checked`).length);
    update();
    document.addEventListener("bulk-selection", update);
    return () => document.removeEventListener("bulk-selection", update);
  }, []);
  return count;
}

/** The tick box of one order, part of the bulk form wherever the card is. */
export function SelectOrderBox({ orderId, group }: { orderId: string; group: string }) {
  return (
    <label className="-my-2 -ml-2 flex size-11 cursor-pointer items-center justify-center">
      <input
        type="checkbox"
        name="orderIds"
        value={orderId}
        form={BULK_FORM_ID}
        data-slot={group}
        className="size-5 accent-primary"
        aria-label={`Select order #${orderId.slice(0, 8)}`}
        onChange={(event) => {
          if (!event.currentTarget.checked) {
            for (const box of boxes(`input[data-group="${CSS.escape(group)}"]`)) box.checked = false;
          }
          announceSelection();
        }}
      />
    </label>
  );
}

/**
 * A whole slot ticked. Without JavaScript it is posted as the slot itself (the server takes every
 * open order of it, and the confirmation lists them); with JavaScript it ticks the slot's orders
 * shown, and only those are posted (a search may show part of a slot).
 */
export function SelectSlotBox({ group, label }: { group: string; label: string }) {
  const hydrated = useHydrated();
  return (
    <label className="flex min-h-11 cursor-pointer items-center gap-2 text-sm">
      <input
        type="checkbox"
        name={hydrated ? undefined : "slots"}
        data-group={group}
        value={group}
        form={BULK_FORM_ID}
        className="size-5 accent-primary"
        onChange={(event) => {
          const checked = event.currentTarget.checked;
          for (const box of boxes(`input[name="orderIds"][data-slot="${CSS.escape(group)}"]`)) {
            box.checked = checked;
          }
          announceSelection();
        }}
      />
      {label}
    </label>
  );
}

const BAR_ACTIONS: { intent: BulkAction; variant: "primary" | "outline" | "outlineDestructive" }[] = [
  { intent: "bulk-confirm", variant: "primary" },
  { intent: "bulk-assign", variant: "outline" },
  { intent: "bulk-print", variant: "outline" },
  { intent: "bulk-cancel", variant: "outlineDestructive" },
];

/**
 * The bar of the bulk actions: one POST form that the tick boxes of the list belong to. Each button
 * asks the server first (the one confirmation lists the orders it will change), printing excepted.
 */
export function BulkBar({ canAssign, shown }: { canAssign: boolean; shown: number }) {
  const selected = useSelectedCount();
  const navigation = useNavigation();
  const busy =
    navigation.state !== "idle" && navigation.formData?.get("intent")?.toString().startsWith("bulk-");
  return (
    <Form
      id={BULK_FORM_ID}
      method="post"
      className="mb-6 flex flex-wrap items-center gap-2 rounded-lg border border-border bg-card p-3 print:hidden"
      aria-label="Selected orders"
    >
      <CsrfInput />
      {selected === null ? (
        <span className="mr-auto text-sm">Tick orders or a whole slot, then:</span>
      ) : (
        <label className="mr-auto flex min-h-11 cursor-pointer items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-5 accent-primary"
            checked={shown > 0 && selected === shown}
            onChange={(event) => {
              const checked = event.currentTarget.checked;
              for (const box of boxes(`input[name="orderIds"]`)) box.checked = checked;
              for (const box of boxes("input[data-group]")) box.checked = checked;
              announceSelection();
            }}
          />
          <span>
            Select all shown <span className="text-muted-foreground">({selected} selected)</span>
          </span>
        </label>
      )}
      {BAR_ACTIONS.filter(
        ({ intent }) => canAssign || (intent !== "bulk-assign" && intent !== "bulk-print"),
      ).map(({ intent, variant }) => (
        <Button key={intent} type="submit" name="intent" value={intent} variant={variant} disabled={busy}>
          {BULK_ACTIONS[intent].label}
        </Button>
      ))}
    </Form>
  );
}

type Review = Extract<BulkPostAnswer, { kind: "review" }>["review"];
type Report = Extract<BulkPostAnswer, { kind: "report" }>["report"];

const QUESTIONS: Record<Exclude<BulkAction, "bulk-print">, (count: number) => string> = {
  "bulk-confirm": (count) => `Confirm ${count} ${count === 1 ? "order" : "orders"}?`,
  "bulk-assign": (count) => `Assign ${count} ${count === 1 ? "order" : "orders"} to a driver?`,
  "bulk-cancel": (count) => `Cancel ${count} ${count === 1 ? "order" : "orders"}?`,
};

const SUBMIT_VERBS: Record<Exclude<BulkAction, "bulk-print">, string> = {
  "bulk-confirm": "Confirm",
  "bulk-assign": "Assign",
  "bulk-cancel": "Cancel",
};

const CONSEQUENCES: Record<Exclude<BulkAction, "bulk-print">, string> = {
  "bulk-confirm": "Each customer gets the confirmation e-mail.",
  "bulk-assign": "They go on the driver's run.",
  "bulk-cancel": "Their items go back in stock and each customer is told by e-mail, with the reason.",
};

const noSubscription = () => () => {};

/** False on the server and while hydrating, true in the browser after: JavaScript is running. */
function useHydrated() {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/**
 * The one confirmation of a bulk action: the orders it changes (and those it leaves, with why), the
 * driver or the reason it needs, one button. A dialog with JavaScript; without it the same form
 * shows in the page (the post came back as a page).
 */
export function BulkReviewQuestion({
  review,
  drivers,
}: {
  review: Review;
  drivers: { id: string; name: string }[];
}) {
  const hydrated = useHydrated();
  // Closed for this review only: the next post's review opens again.
  const [dismissed, setDismissed] = useState<Review | null>(null);
  const open = dismissed !== review;
  const setOpen = (value: boolean) => setDismissed(value ? null : review);
  const intent = review.intent as Exclude<BulkAction, "bulk-print">;
  const taken = review.orders.filter((order) => !order.skip);
  const title = QUESTIONS[intent](taken.length);
  const description =
    taken.length === 0 ? "None of the selected orders can take this action." : CONSEQUENCES[intent];
  const body = <BulkReviewForm review={review} drivers={drivers} taken={taken.length} inDialog={hydrated} />;
  if (hydrated) {
    return open ? (
      <QuestionDialog onOpenChange={setOpen} title={title} description={description}>
        {body}
      </QuestionDialog>
    ) : null;
  }
  return (
    <Card className="mb-6 border-primary p-4 sm:p-5" role="region" aria-label={title}>
      <h2 className="font-display text-primary text-xl">{title}</h2>
      <p className="mt-2 text-muted-foreground text-sm">{description}</p>
      {body}
    </Card>
  );
}

function BulkReviewForm({
  review,
  drivers,
  taken,
  inDialog,
}: {
  review: Review;
  drivers: { id: string; name: string }[];
  taken: number;
  /** In the dialog 'Go back' closes it; in the page (no JavaScript) it is a link back to the list. */
  inDialog: boolean;
}) {
  const navigation = useNavigation();
  const location = useLocation();
  const busy = navigation.state === "submitting";
  const [reason, setReason] = useState("");
  const intent = review.intent as Exclude<BulkAction, "bulk-print">;
  const submit =
    taken > 0 ? (
      <Button
        type="submit"
        variant={review.intent === "bulk-cancel" ? "destructive" : "primary"}
        disabled={busy}
      >
        {busy ? "Updating..." : `${SUBMIT_VERBS[intent]} ${taken} ${taken === 1 ? "order" : "orders"}`}
      </Button>
    ) : null;
  return (
    <Form method="post" className="mt-4 space-y-4">
      <CsrfInput />
      <input type="hidden" name="intent" value={review.intent} />
      <input type="hidden" name="confirmed" value="yes" />
      {review.orders
        .filter((order) => !order.skip)
        .map((order) => (
          <input key={order.id} type="hidden" name="orderIds" value={order.id} />
        ))}
      <ul
        aria-label="Orders"
        className="max-h-64 divide-y divide-border overflow-y-auto rounded-md border border-border text-sm"
      >
        {review.orders.map((order) => (
          <li key={order.id} className="flex flex-wrap items-baseline justify-between gap-x-3 px-3 py-2">
            <span className="min-w-0">
              <span className="font-mono text-xs">#{order.id.slice(0, 8)}</span> {order.customerName}{" "}
              <span className="text-muted-foreground">
                · {formatStoreDate(order.deliveryDate)}, {order.deliveryTime} · {STATUS_LABELS[order.status]}
              </span>
            </span>
            {order.skip ? (
              <span className="text-muted-foreground">Left out: {order.skip}</span>
            ) : (
              <span className="tabular-nums">{formatCents(order.totalAmountCents)}</span>
            )}
          </li>
        ))}
      </ul>
      {review.intent === "bulk-assign" ? (
        <div className="space-y-1.5">
          <Label htmlFor="bulk-driver">Driver</Label>
          <NativeSelect id="bulk-driver" name="driverId" required defaultValue="" className="w-full">
            <option value="" disabled>
              Choose a driver
            </option>
            {drivers.map((driver) => (
              <option key={driver.id} value={driver.id}>
                {driver.name}
              </option>
            ))}
          </NativeSelect>
        </div>
      ) : null}
      {review.intent === "bulk-cancel" ? (
        <>
          <CancelReasonSelect id="bulk-reason" value={reason} onChange={setReason} />
          <div className="space-y-1.5">
            <Label htmlFor="bulk-reason-text">What happened? (for 'Other')</Label>
            <Input id="bulk-reason-text" name="reasonText" maxLength={CANCEL_OTHER_MAX} className="w-full" />
          </div>
        </>
      ) : null}
      {inDialog ? (
        <DialogButtons backLabel="Go back">{submit}</DialogButtons>
      ) : (
        <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Link
            to={`${location.pathname}${location.search}`}
            className={buttonVariants({ variant: "outline" })}
          >
            Go back
          </Link>
          {submit}
        </div>
      )}
    </Form>
  );
}

/** What a bulk action did, order by order: how many succeeded, and each refusal with its reason. */
export function BulkReportPanel({ report }: { report: Report }) {
  const done = report.outcomes.filter((outcome) => outcome.ok);
  const failed = report.outcomes.filter((outcome) => !outcome.ok);
  const verb = BULK_ACTIONS[report.intent].verb;
  const summary = `${done.length} ${done.length === 1 ? "order" : "orders"} ${verb}${
    failed.length > 0 ? `, ${failed.length} not` : ""
  }`;
  useEffect(() => {
    if (failed.length === 0) toast.success("Success", { description: summary });
    else toast.error("Some orders were not changed", { description: summary });
  }, [summary, failed.length]);
  return (
    <div
      role="status"
      className={`mb-6 rounded-lg border px-4 py-3 text-sm ${failed.length > 0 ? "border-destructive bg-card" : "border-border bg-card"}`}
    >
      <p className="font-semibold">{summary}.</p>
      {failed.length > 0 ? (
        <ul className="mt-2 list-disc space-y-1 pl-5">
          {failed.map((outcome) => (
            <li key={outcome.id}>
              Order #{outcome.id.slice(0, 8)}
              {outcome.customerName ? ` (${outcome.customerName})` : ""}: {outcome.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
