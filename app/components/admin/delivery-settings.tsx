import { useEffect, useRef, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Field, Input, NativeSelect, SelectOptions, Textarea } from "#app/components/ui/input.tsx";
import { MIN_ORDER_TEXT } from "#app/features/cart/cart.ts";
import type { DeliveryClosure, DeliveryZone } from "#app/features/delivery/delivery.server.ts";
import {
  capacityField,
  closureFormSchema,
  cutoffField,
  deliverySettingsFormSchema,
  formErrorsOf,
  zoneFormSchema,
} from "#app/features/delivery/delivery-settings.schema.ts";
import { WEEKDAY_NAMES } from "#app/features/delivery/delivery-settings.ts";
import { DELIVERY_SLOT_LABELS, slotsOfWeekday } from "#app/features/delivery/delivery-slots.ts";
import type { ClosingQuestion } from "#app/features/orders/delivery-admin.server.ts";
import { STATUS_LABELS } from "#app/features/orders/order-status.ts";
import { STATE_NAMES, US_STATES } from "#app/features/purchase-limits/purchase-limits.ts";
import { centsToDollarString, formatCents } from "#app/utils/money.ts";
import { formatStoreDate } from "#app/utils/store-time.ts";
import type { z } from "#app/utils/zod.ts";
import { useCheckedSubmit } from "./checked-submit.ts";
import { CsrfInput } from "./csrf.tsx";

type Failed = { form: string; fieldErrors: Record<string, string>; closing?: ClosingQuestion | null } | null;

/** Short column heads for the capacity table: "10–12", "12–2" … */
const SLOT_HEADS = ["10–12", "12–2", "2–4", "4–6", "6–8"];

/** Checks a form with its schema before it posts; shows the messages and stops it when invalid. */
/** The browser's check of a settings form against its schema (the server parses it again). */
function useSchemaCheck(schema: z.ZodType) {
  return useCheckedSubmit((form) => {
    const parsed = schema.safeParse(
      Object.fromEntries([...form].filter(([, value]) => typeof value === "string")),
    );
    return parsed.success ? null : formErrorsOf(parsed.error);
  });
}

function errorsFor(failed: Failed, form: string, client: Record<string, string> | null) {
  return client ?? (failed?.form === form ? failed.fieldErrors : {});
}

export function DeliverySettingsScreen({
  zones,
  values,
  closures,
  today,
  failed,
}: {
  zones: DeliveryZone[];
  values: Record<string, string>;
  closures: DeliveryClosure[];
  today: string;
  failed: Failed;
}) {
  return (
    <div className="space-y-8">
      {failed?.closing ? <OpenOrdersQuestion closing={failed.closing} errors={failed.fieldErrors} /> : null}
      <SettingsSection
        id="zones-heading"
        title="Delivery zones"
        description={`Checkout takes a ZIP code only from an active zone of the chosen state. A zone may have its own minimum order; the shop's ${MIN_ORDER_TEXT} is the floor.`}
      >
        <ul className="space-y-3">
          {zones.map((zone) => (
            <li key={zone.id}>
              <ZoneCard zone={zone} failed={failed} />
            </li>
          ))}
        </ul>
        <Card className="p-4 sm:p-5">
          <details open={failed?.form === "zone-new" || undefined}>
            <summary className="flex min-h-11 cursor-pointer items-center font-semibold">Add a zone</summary>
            <ZoneForm failed={failed} />
          </details>
        </Card>
      </SettingsSection>

      <SlotSettingsForm values={values} failed={failed} />

      <ClosuresSection closures={closures} today={today} failed={failed} />
    </div>
  );
}

function ZoneCard({ zone, failed }: { zone: DeliveryZone; failed: Failed }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("id") === zone.id;
  const form = `zone-${zone.id}`;
  return (
    <Card className="p-4 sm:p-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="flex flex-wrap items-center gap-2 font-semibold">
            {zone.name}
            <Badge variant="outline">{zone.state}</Badge>
            {zone.active ? (
              <Badge variant="confirmed">Active</Badge>
            ) : (
              <Badge variant="neutral">Inactive</Badge>
            )}
          </h3>
          <p className="mt-1 text-muted-foreground text-sm">
            {zone.zipCodes.length} ZIP code{zone.zipCodes.length === 1 ? "" : "s"} · minimum{" "}
            {zone.minimumOrderCents === null ? "$80.00 (shop)" : formatCents(zone.minimumOrderCents)}
          </p>
        </div>
        <Form method="post">
          <CsrfInput />
          <input type="hidden" name="id" value={zone.id} />
          <Button
            type="submit"
            name="intent"
            value={zone.active ? "deactivate" : "activate"}
            variant={zone.active ? "outlineDestructive" : "outline"}
            size="sm"
            disabled={busy}
          >
            {zone.active ? "Deactivate" : "Activate"}
          </Button>
        </Form>
      </div>
      {failed?.form === form && !failed.fieldErrors.zipCodes && failed.fieldErrors.name ? (
        <p className="mt-2 text-destructive text-sm" role="alert">
          {failed.fieldErrors.name}
        </p>
      ) : null}
      <details className="mt-2" open={failed?.form === form || undefined}>
        <summary className="flex min-h-11 cursor-pointer items-center text-primary text-sm">
          Edit zone and ZIP codes
        </summary>
        <ZoneForm zone={zone} failed={failed} />
      </details>
    </Card>
  );
}

function ZoneForm({ zone, failed }: { zone?: DeliveryZone; failed: Failed }) {
  const formName = `zone-${zone?.id ?? "new"}`;
  const checked = useSchemaCheck(zoneFormSchema);
  const errors = errorsFor(failed, formName, checked.errors);
  const id = (field: string) => `${formName}-${field}`;
  return (
    <Form method="post" noValidate onSubmit={checked.onSubmit} className="mt-3 grid gap-4 sm:grid-cols-2">
      <CsrfInput />
      <input type="hidden" name="intent" value="zone" />
      <input type="hidden" name="id" value={zone?.id ?? ""} />
      <Field id={id("name")} label="Name" error={errors.name}>
        <Input
          id={id("name")}
          name="name"
          defaultValue={zone?.name ?? ""}
          aria-invalid={errors.name ? true : undefined}
        />
      </Field>
      <div className="grid grid-cols-2 gap-4">
        <Field id={id("state")} label="State">
          <NativeSelect id={id("state")} name="state" defaultValue={zone?.state ?? "VA"}>
            <SelectOptions values={US_STATES} label={(state) => STATE_NAMES[state]} />
          </NativeSelect>
        </Field>
        <Field id={id("minimumOrder")} label="Own minimum ($)" error={errors.minimumOrder}>
          <Input
            id={id("minimumOrder")}
            name="minimumOrder"
            inputMode="decimal"
            placeholder="80.00"
            defaultValue={zone?.minimumOrderCents == null ? "" : centsToDollarString(zone.minimumOrderCents)}
            aria-invalid={errors.minimumOrder ? true : undefined}
          />
        </Field>
      </div>
      <Field id={id("zipCodes")} label="ZIP codes" className="sm:col-span-2" error={errors.zipCodes}>
        <Textarea
          id={id("zipCodes")}
          name="zipCodes"
          rows={4}
          className="font-mono text-sm"
          placeholder="Paste ZIP codes: one a line, or separated by commas or spaces"
          defaultValue={zone?.zipCodes.join(", ") ?? ""}
          aria-invalid={errors.zipCodes ? true : undefined}
        />
      </Field>
      <label className="flex min-h-11 items-center gap-3 text-sm">
        <input
          type="checkbox"
          name="active"
          value="on"
          defaultChecked={zone?.active ?? true}
          className="size-5 accent-primary"
        />
        Active (checkout accepts its ZIP codes)
      </label>
      <div className="flex justify-end sm:items-end">
        <Button type="submit">{zone ? "Save zone" : "Add zone"}</Button>
      </div>
    </Form>
  );
}

function SlotSettingsForm({ values, failed }: { values: Record<string, string>; failed: Failed }) {
  const checked = useSchemaCheck(deliverySettingsFormSchema);
  const errors = errorsFor(failed, "settings", checked.errors);
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === "settings";
  const firstError = Object.entries(errors)[0];
  return (
    <SettingsSection
      id="slots-heading"
      title="Delivery times"
      description="Orders each delivery time takes per date (cancelled orders free their place), and the same-day cut-off: after it no delivery time of that day is offered."
    >
      <Form method="post" noValidate onSubmit={checked.onSubmit}>
        <CsrfInput />
        <input type="hidden" name="intent" value="settings" />
        <Card className="p-0">
          <div className="overflow-x-auto">
            <table className="w-full min-w-[34rem] text-sm">
              <caption className="sr-only">Orders per delivery time and same-day cut-off, by weekday</caption>
              <thead>
                <tr className="border-border border-b text-left text-muted-foreground">
                  <th scope="col" className="px-3 py-2 font-medium">
                    Day
                  </th>
                  {SLOT_HEADS.map((head, index) => (
                    <th key={head} scope="col" className="px-1 py-2 text-center font-medium">
                      <abbr title={DELIVERY_SLOT_LABELS[index]} className="no-underline">
                        {head}
                      </abbr>
                    </th>
                  ))}
                  <th scope="col" className="px-3 py-2 font-medium">
                    Cut-off
                  </th>
                </tr>
              </thead>
              <tbody>
                {WEEKDAY_NAMES.map((dayName, day) => {
                  const offered = slotsOfWeekday(day) as string[];
                  return (
                    <tr key={dayName} className="border-border border-b last:border-0">
                      <th scope="row" className="px-3 py-1.5 text-left font-medium">
                        {dayName.slice(0, 3)}
                      </th>
                      {DELIVERY_SLOT_LABELS.map((label, slot) => {
                        const name = capacityField(day, slot);
                        if (!offered.includes(label)) {
                          return (
                            <td key={label} className="px-1 py-1.5 text-center text-muted-foreground">
                              <input type="hidden" name={name} value={values[name]} />
                              <span title="Not offered on Sundays">—</span>
                            </td>
                          );
                        }
                        return (
                          <td key={label} className="px-1 py-1.5">
                            <Input
                              name={name}
                              aria-label={`${dayName} ${label}: orders`}
                              inputMode="numeric"
                              defaultValue={values[name]}
                              aria-invalid={errors[name] ? true : undefined}
                              className="w-full min-w-12 px-2 text-center tabular-nums"
                            />
                          </td>
                        );
                      })}
                      <td className="px-3 py-1.5">
                        <Input
                          type="time"
                          name={cutoffField(day)}
                          aria-label={`${dayName} same-day cut-off`}
                          defaultValue={values[cutoffField(day)]}
                          aria-invalid={errors[cutoffField(day)] ? true : undefined}
                          className="min-w-28 px-2"
                        />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <div className="flex flex-col gap-4 border-border border-t p-4 sm:flex-row sm:items-end sm:justify-between sm:p-5">
            <Field id="field-leadMinutes" label="Same-day lead time (minutes)">
              <Input
                id="field-leadMinutes"
                name="leadMinutes"
                inputMode="numeric"
                defaultValue={values.leadMinutes}
                aria-invalid={errors.leadMinutes ? true : undefined}
                aria-describedby="hint-leadMinutes"
                className="sm:w-40"
              />
              <p id="hint-leadMinutes" className="text-muted-foreground text-xs">
                A delivery time of today is offered until this long before it ends.
              </p>
            </Field>
            <Button type="submit" size="lg" disabled={saving}>
              {saving ? "Saving..." : "Save Delivery Times"}
            </Button>
          </div>
          {firstError ? (
            <p className="px-4 pb-4 text-destructive text-sm sm:px-5" role="alert">
              {firstError[1]}
            </p>
          ) : null}
        </Card>
      </Form>
    </SettingsSection>
  );
}

function ClosuresSection({
  closures,
  today,
  failed,
}: {
  closures: DeliveryClosure[];
  today: string;
  failed: Failed;
}) {
  const checked = useSchemaCheck(closureFormSchema);
  const errors = errorsFor(failed, "closure", checked.errors);
  return (
    <SettingsSection
      id="closures-heading"
      title="Days off and closed times"
      description="Close a whole date (a holiday) or one delivery time. Shoppers see it as Closed, with your reason."
    >
      <Card className="p-4 sm:p-5">
        {closures.length === 0 ? (
          <p className="text-muted-foreground text-sm">No closures ahead: every date is open.</p>
        ) : (
          <ul className="divide-y divide-border">
            {closures.map((closure) => (
              <li key={closure.id} className="flex flex-wrap items-center justify-between gap-3 py-2">
                <span className="min-w-0 text-sm">
                  <span className="font-semibold">{formatStoreDate(closure.date)}</span>{" "}
                  <span className="text-muted-foreground">{closure.slot ?? "Whole day"}</span> —{" "}
                  {closure.reason}
                </span>
                <Form method="post">
                  <CsrfInput />
                  <input type="hidden" name="id" value={closure.id} />
                  <Button type="submit" name="intent" value="reopen" variant="outline" size="sm">
                    Reopen
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        )}
        <Form
          method="post"
          noValidate
          onSubmit={checked.onSubmit}
          className="mt-4 grid gap-4 border-border border-t pt-4 sm:grid-cols-[auto_auto_1fr_auto] sm:items-end"
        >
          <CsrfInput />
          <input type="hidden" name="intent" value="close" />
          <Field id="closure-date" label="Date" error={errors.date}>
            <Input
              id="closure-date"
              name="date"
              type="date"
              min={today}
              aria-invalid={errors.date ? true : undefined}
            />
          </Field>
          <Field id="closure-slot" label="Delivery time">
            <NativeSelect id="closure-slot" name="slot" defaultValue="">
              <option value="">Whole day</option>
              <SelectOptions values={DELIVERY_SLOT_LABELS} />
            </NativeSelect>
          </Field>
          <Field id="closure-reason" label="Reason shoppers see" error={errors.reason}>
            <Input
              id="closure-reason"
              name="reason"
              placeholder="e.g. Thanksgiving"
              aria-invalid={errors.reason ? true : undefined}
            />
          </Field>
          <Button type="submit" variant="secondary">
            Close
          </Button>
        </Form>
      </Card>
    </SettingsSection>
  );
}

/**
 * Closing a date or slot that has open orders: what becomes of them — kept, moved to another time
 * (each customer e-mailed) or cancelled with the closure's reason. A plain form (radio buttons).
 */
function OpenOrdersQuestion({
  closing,
  errors,
}: {
  closing: ClosingQuestion;
  errors: Record<string, string>;
}) {
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === "close";
  const where = `${formatStoreDate(closing.date)} · ${closing.slot ?? "whole day"}`;
  const count = closing.orders.length;
  const headingId = "closing-orders-heading";
  const [choice, setChoice] = useState<string>("");
  const heading = useRef<HTMLHeadingElement>(null);
  // The question replaces a post made at the foot of the page: bring it into view.
  useEffect(() => heading.current?.focus(), []);
  return (
    <Card className="border-primary p-4 sm:p-5" role="region" aria-labelledby={headingId}>
      <h2
        id={headingId}
        ref={heading}
        className="font-display text-primary text-xl outline-none"
        tabIndex={-1}
      >
        {count} open {count === 1 ? "order" : "orders"} in {where}
      </h2>
      <p className="mt-1 text-muted-foreground text-sm">
        Closing it ({closing.reason}) does not change them by itself: choose what happens to them.
      </p>
      <ul
        aria-label="Open orders"
        className="mt-3 divide-y divide-border rounded-md border border-border text-sm"
      >
        {closing.orders.map((order) => (
          <li key={order.id} className="flex flex-wrap justify-between gap-x-3 px-3 py-2">
            <span>
              <span className="font-mono text-xs">#{order.id.slice(0, 8)}</span> {order.customerName}{" "}
              <span className="text-muted-foreground">
                · {order.deliveryTime} · {STATUS_LABELS[order.status]}
              </span>
            </span>
            <span className="tabular-nums">{formatCents(order.totalAmountCents)}</span>
          </li>
        ))}
      </ul>
      <Form method="post" className="mt-4 space-y-3">
        <CsrfInput />
        <input type="hidden" name="intent" value="close" />
        <input type="hidden" name="date" value={closing.date} />
        <input type="hidden" name="slot" value={closing.slot ?? ""} />
        <input type="hidden" name="reason" value={closing.reason} />
        <fieldset
          className="space-y-2"
          aria-describedby={errors.openOrders ? "open-orders-error" : undefined}
        >
          <legend className="mb-1 font-semibold text-sm">What happens to them?</legend>
          <Choice name="keep" choice={choice} onChoose={setChoice}>
            Keep them: deliver them as booked
          </Choice>
          <Choice name="move" choice={choice} onChoose={setChoice}>
            Move them to another delivery time (each customer gets an e-mail)
          </Choice>
          <div className="pl-9">
            <Field id="closing-move-to" label="Move to" error={errors.moveTo}>
              <NativeSelect
                id="closing-move-to"
                name="moveTo"
                defaultValue=""
                className="w-full sm:w-auto"
                aria-invalid={errors.moveTo ? true : undefined}
                onChange={() => setChoice("move")}
              >
                <option value="">Choose a delivery time</option>
                {closing.targets.map((target) => (
                  <option key={target.value} value={target.value} disabled={target.placesLeft < count}>
                    {formatStoreDate(target.date)}, {target.slot} ({Math.max(target.placesLeft, 0)}{" "}
                    {target.placesLeft === 1 ? "place" : "places"} left)
                  </option>
                ))}
              </NativeSelect>
            </Field>
          </div>
          <Choice name="cancel" choice={choice} onChoose={setChoice}>
            Cancel them, telling each customer the reason: “{closing.reason}”
          </Choice>
          {errors.openOrders ? (
            <p id="open-orders-error" className="text-destructive text-sm" role="alert">
              {errors.openOrders}
            </p>
          ) : null}
        </fieldset>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Link to="/admin/settings/delivery" className={buttonVariants({ variant: "outline" })}>
            Don't close
          </Link>
          <Button type="submit" variant="secondary" disabled={saving}>
            {saving ? "Closing..." : "Close"}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

function Choice({
  name,
  choice,
  onChoose,
  children,
}: {
  name: string;
  choice: string;
  onChoose: (name: string) => void;
  children: React.ReactNode;
}) {
  return (
    <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm">
      <input
        type="radio"
        name="openOrders"
        value={name}
        required
        checked={choice === name}
        onChange={() => onChoose(name)}
        className="size-5 shrink-0 accent-primary"
      />
      <span>{children}</span>
    </label>
  );
}

/** A part of the delivery settings: its heading and what it decides, then its list or form. */
function SettingsSection({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <div>
        <h2 id={id} className="font-display text-2xl">
          {title}
        </h2>
        <p className="text-muted-foreground text-sm">{description}</p>
      </div>
      {children}
    </section>
  );
}
