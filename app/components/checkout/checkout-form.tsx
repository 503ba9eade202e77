/**
 * The checkout form (K-2 Checkout, K-4 Checkout, K-5). It posts as a plain multipart form and,
 * with JavaScript, through a fetcher so the page shows 'Processing', keeps what was typed on an
 * error and clears the cart on success. The server checks everything again.
 */
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { useFetcher, useNavigate } from "react-router";
import { useCart } from "#app/components/cart-context.tsx";
import { StockShortfallNotice } from "#app/components/stock-shortfall-notice.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import {
  Field,
  FieldError,
  Input,
  NativeSelect,
  SelectOptions,
  Textarea,
} from "#app/components/ui/input.tsx";
import {
  type CartLine,
  isBelowMinimumOrder,
  lineTotalCents,
  minimumOrderCents,
} from "#app/features/cart/cart.ts";
import {
  CHECKOUT_TOASTS,
  type CheckoutField,
  checkoutSchema,
  checkoutValues,
  type DeliveryState,
  type FieldErrors,
  fieldErrorsOf,
  idFileProblem,
  minimumOrderLines,
  minimumOrderToast,
  type StockShortfall,
  type ToastMessage,
  US_STATES,
} from "#app/features/checkout/checkout.schema.ts";
import {
  DELIVERY_DATE_HINT,
  type DeliveryDay,
  type SlotAvailability,
  slotStatusText,
} from "#app/features/checkout/delivery-slots.ts";
import { ID_IMAGE_ACCEPT, ID_IMAGE_HINT } from "#app/features/checkout/limits.ts";
import { type PurchaseLimits, STATE_NAMES } from "#app/features/checkout/purchase-limits.ts";
import { changeDueCents, payWithTooLowMessage } from "#app/features/delivery/cash-change.ts";
import {
  type DeliveryZoneLike,
  zipRefusalMessage,
  zoneForZip,
} from "#app/features/delivery/delivery-area.ts";
import { cn } from "#app/utils/cn.ts";
import { dollarsToCents, formatCents } from "#app/utils/money.ts";
import { toast } from "#app/utils/toast-client.ts";
import { PurchaseLimitMeter } from "./purchase-limit-meter.tsx";
import { useCartWeight } from "./use-cart-weight.ts";

export type CheckoutActionData =
  | { ok: true; token: string }
  | { ok: false; fieldErrors: FieldErrors; toast: ToastMessage | null; shortfall?: StockShortfall | null };

type TextField = "name" | "email" | "phone" | "address" | "city" | "zipCode" | "notes" | "payWith";

/** A day as the server sees it now: its slots with their places left or closures (P-22). */
export type CheckoutDeliveryDay = DeliveryDay & { availability: SlotAvailability[] };

/** The active delivery zones as the ZIP check needs them (P-21). */
export type CheckoutZone = DeliveryZoneLike & { minimumOrderCents: number | null };

const bookable = (slot: SlotAvailability) => slot.status === "open" || slot.status === "few";

const FIELD_ORDER: CheckoutField[] = [
  "deliveryDate",
  "timeSlot",
  "name",
  "email",
  "phone",
  "address",
  "city",
  "state",
  "zipCode",
  "notes",
  "payWith",
  "idFront",
  "ageConfirmed",
];

export function showToast(message: ToastMessage) {
  const show = message.type === "error" ? toast.error : message.type === "info" ? toast.info : toast.success;
  show(message.title, { description: message.description });
}

function cartPayload(items: CartLine[]) {
  return JSON.stringify(
    items.map((line) => ({ productId: line.productId, sizeId: line.sizeId, quantity: line.quantity })),
  );
}

export function CheckoutForm({
  items,
  totalCents,
  days,
  defaultDate,
  idempotencyKey,
  limits,
  zones,
  onPlaced,
}: {
  items: CartLine[];
  /** The purchase limits (P-28); the weights of the sizes are fetched. */
  limits: PurchaseLimits;
  totalCents: number;
  days: CheckoutDeliveryDay[];
  zones: CheckoutZone[];
  defaultDate: string;
  idempotencyKey: string;
  onPlaced: () => void;
}) {
  const fetcher = useFetcher<CheckoutActionData>();
  const navigate = useNavigate();
  const { setStockNotice } = useCart();
  const formRef = useRef<HTMLFormElement>(null);
  const baseId = useId();
  const [values, setValues] = useState<Record<TextField, string>>({
    name: "",
    email: "",
    phone: "",
    address: "",
    city: "",
    zipCode: "",
    notes: "",
    payWith: "",
  });
  const [state, setState] = useState<DeliveryState>("DC");
  const [deliveryDate, setDeliveryDate] = useState(defaultDate);
  const [timeSlot, setTimeSlot] = useState("");
  const [ageConfirmed, setAgeConfirmed] = useState(false);
  const [idFile, setIdFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  // The ID photo goes ahead as soon as it is picked (P-8); the post then names its token.
  const sentPhoto = useRef<{ file: File; token: Promise<string | null> } | null>(null);
  const [awaitingPhoto, setAwaitingPhoto] = useState(false);
  const processing = fetcher.state !== "idle" || awaitingPhoto;
  const handled = useRef<unknown>(null);

  const day = days.find((candidate) => candidate.date === deliveryDate) ?? days[0];
  const slots = day?.availability ?? [];
  // The zone of the ZIP typed so far (P-21): its own minimum order applies.
  const zone = useMemo(() => {
    const found = zoneForZip(zones, values.zipCode, state);
    return found.ok ? found.zone : null;
  }, [zones, values.zipCode, state]);
  const minimumCents = minimumOrderCents(zone?.minimumOrderCents);
  const payWithCents = dollarsToCents(values.payWith);
  const change = changeDueCents(totalCents, payWithCents);

  // A slot that filled up or closed since the page was read (the server's answer refreshes the
  // list) cannot stay chosen; the server's message stays beside the list.
  useEffect(() => {
    if (timeSlot && !slots.some((slot) => slot.label === timeSlot && bookable(slot))) setTimeSlot("");
  }, [slots, timeSlot]);

  useEffect(() => {
    if (!idFile) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(idFile);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [idFile]);

  // What the server said about the last submit.
  useEffect(() => {
    const result = fetcher.data;
    if (!result || fetcher.state !== "idle" || handled.current === result) return;
    handled.current = result;
    if (result.ok) {
      onPlaced();
      showToast(CHECKOUT_TOASTS.success);
      navigate(`/thank-you?order=${encodeURIComponent(result.token)}`);
      return;
    }
    setErrors(result.fieldErrors);
    setStockNotice(result.shortfall ?? null);
    // The server did not take the photo sent ahead: the next submit carries the file itself.
    if (result.fieldErrors.idFront) sentPhoto.current = null;
    if (result.toast) showToast(result.toast);
    focusFirstError(formRef.current, result.fieldErrors);
  }, [fetcher.data, fetcher.state, navigate, onPlaced, setStockNotice]);

  const missing = useMemo(() => {
    const list: string[] = [];
    if (!timeSlot) list.push("a delivery time");
    if (!values.name.trim()) list.push("your full name");
    if (!values.email.trim()) list.push("your email");
    if (!values.phone.trim()) list.push("your phone");
    if (!values.address.trim()) list.push("your street address");
    if (!values.city.trim()) list.push("your city");
    if (!values.zipCode.trim()) list.push("your ZIP code");
    if (!idFile) list.push("a photo of your ID");
    if (!ageConfirmed) list.push("the age confirmation");
    return list;
  }, [values, timeSlot, idFile, ageConfirmed]);

  const weight = useCartWeight(items, limits);
  const limitProblem = weight.problemFor(state);

  // K-4: disabled while processing, without the age box, a slot, any required field or the ID;
  // P-28: and while the cart is over a purchase limit.
  const disabled = processing || missing.length > 0 || limitProblem !== null;

  /** The ZIP's refusal when the shop does not deliver there (checked as the shopper leaves the field). */
  function zipProblem(zip: string, forState: DeliveryState) {
    if (!zip.trim()) return undefined;
    const found = zoneForZip(zones, zip, forState);
    return found.ok ? undefined : zipRefusalMessage(found, forState);
  }

  function payWithProblem(text: string) {
    if (!text.trim()) return undefined;
    const cents = dollarsToCents(text);
    if (cents === undefined) return "Enter an amount in dollars, like 100";
    return cents < totalCents ? payWithTooLowMessage(totalCents) : undefined;
  }

  function update(field: TextField, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  }

  function sendPhotoAhead(file: File | null) {
    if (!file) {
      sentPhoto.current = null;
      return;
    }
    const body = new FormData();
    body.set("idFront", file);
    // Any failure here only means the file travels with the order post, as without JavaScript.
    const token = fetch("/api/id-photo", { method: "POST", body })
      .then(async (response) => (response.ok ? ((await response.json()) as { token?: string }).token : null))
      .then((value) => value ?? null)
      .catch(() => null);
    sentPhoto.current = { file, token };
  }

  async function submit(formData: FormData) {
    const sent = sentPhoto.current;
    if (sent && sent.file === idFile) {
      setAwaitingPhoto(true);
      const token = await sent.token;
      setAwaitingPhoto(false);
      if (token) {
        formData.delete("idFront");
        formData.set("idPhotoToken", token);
      }
    }
    // With the photo sent ahead the post holds text only: urlencoded, cheaper to send and to read
    // than multipart (record 023). A photo that could not go ahead travels in a multipart post.
    const holdsFile = [...formData.values()].some((value) => typeof value !== "string");
    fetcher.submit(formData, {
      method: "post",
      action: "/checkout",
      encType: holdsFile ? "multipart/form-data" : "application/x-www-form-urlencoded",
    });
  }

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (processing) return;
    const formData = new FormData(event.currentTarget);
    formData.set("items", cartPayload(items));
    formData.set("_client", "js");
    if (!ageConfirmed) {
      showToast(CHECKOUT_TOASTS.age);
      return;
    }
    if (items.length === 0) {
      showToast(CHECKOUT_TOASTS.cartEmpty);
      return;
    }
    if (isBelowMinimumOrder(totalCents, minimumCents)) {
      showToast(minimumOrderToast(totalCents, minimumCents));
      return;
    }
    const parsed = checkoutSchema.safeParse(checkoutValues(formData));
    const fieldErrors: FieldErrors = parsed.success ? {} : fieldErrorsOf(parsed.error);
    fieldErrors.zipCode ??= zipProblem(values.zipCode, state);
    fieldErrors.payWith ??= payWithProblem(values.payWith);
    const fileProblem = idFileProblem(idFile);
    if (fileProblem) fieldErrors.idFront = fileProblem;
    if (Object.values(fieldErrors).some(Boolean)) {
      setErrors(fieldErrors);
      focusFirstError(formRef.current, fieldErrors);
      toast.error("Please check your details", { description: "Some fields need your attention." });
      return;
    }
    setErrors({});
    void submit(formData);
  }

  /** A field's label, error and their ids (`Field`'s props). */
  const fieldOf = (field: CheckoutField, label: string) => ({
    id: `${baseId}-${field}`,
    label,
    error: errors[field],
    errorId: `${baseId}-${field}-error`,
    stacked: true,
  });

  /** A text field's control: its id, name and error state, its value and its change handler. */
  const bind = (field: TextField) => ({
    ...fieldProps(field),
    value: values[field],
    onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      update(field, event.target.value),
  });

  const fieldProps = (field: CheckoutField) => ({
    id: `${baseId}-${field}`,
    name: field,
    "data-field": field,
    "aria-invalid": errors[field] ? true : undefined,
    "aria-describedby": errors[field] ? `${baseId}-${field}-error` : undefined,
  });

  const shortfall = minimumOrderLines(totalCents, minimumCents);

  return (
    <form
      ref={formRef}
      method="post"
      action="/checkout"
      encType="multipart/form-data"
      onSubmit={onSubmit}
      noValidate
      className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_380px] lg:items-start lg:gap-10"
    >
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <input type="hidden" name="items" value={cartPayload(items)} />

      <aside aria-labelledby={`${baseId}-summary`} className="lg:sticky lg:top-24 lg:order-2">
        <Card className="p-5 sm:p-6">
          <h2 id={`${baseId}-summary`} className="font-display text-xl font-semibold">
            Order Summary
          </h2>
          <ul className="mt-4 divide-y divide-border">
            {items.map((line) => (
              <li key={`${line.productId}:${line.sizeId}`} className="flex gap-3 py-3">
                <SummaryImage src={line.imageUrl} />
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium">{line.productName}</p>
                  <p className="text-sm text-muted-foreground">
                    {line.sizeLabel} · Qty {line.quantity}
                  </p>
                </div>
                <p className="font-semibold tabular-nums">{formatCents(lineTotalCents(line))}</p>
              </li>
            ))}
          </ul>
          <dl className="mt-2 space-y-2 border-t border-border pt-4 text-sm">
            <div className="flex justify-between">
              <dt className="text-muted-foreground">Delivery</dt>
              <dd className="font-medium">Free</dd>
            </div>
            <div className="flex justify-between text-base">
              <dt className="font-semibold">Total</dt>
              <dd className="font-semibold tabular-nums" data-testid="checkout-total">
                {formatCents(totalCents)}
              </dd>
            </div>
          </dl>
          {weight.totalMg !== null ? (
            <div className="mt-4">
              <PurchaseLimitMeter
                label={`Flower equivalent, ${STATE_NAMES[state]}`}
                totalMg={weight.totalMg}
                limitMg={(weight.limits ?? limits).stateLimitsMg[state]}
              />
            </div>
          ) : null}
          <StockShortfallNotice className="mt-4" />
          {limitProblem ? (
            <p className="mt-4 rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive" role="alert">
              {limitProblem.message}
            </p>
          ) : null}
          {shortfall ? (
            <div className="mt-4 rounded-md bg-warning-muted px-3 py-2 text-sm text-warning" role="status">
              <p className="font-semibold">{shortfall.required}</p>
              <p>{shortfall.missing}</p>
            </div>
          ) : null}
        </Card>
      </aside>

      <div className="space-y-6 lg:order-1">
        <Section icon={<Icon name="calendar-days" />} title="Delivery date and time" step={1}>
          <fieldset>
            <legend className="text-sm font-medium">Delivery date</legend>
            <div className="mt-2 grid grid-cols-2 gap-3">
              {days.map((option) => (
                <label
                  key={option.date}
                  className={cn(
                    "flex min-h-14 cursor-pointer flex-col justify-center rounded-md border px-4 py-2 transition-colors has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-ring",
                    deliveryDate === option.date
                      ? "border-primary bg-secondary"
                      : "border-input bg-card hover:bg-muted",
                    option.slots.length === 0 && "opacity-60",
                  )}
                >
                  <input
                    type="radio"
                    name="deliveryDate"
                    value={option.date}
                    checked={deliveryDate === option.date}
                    disabled={option.slots.length === 0}
                    data-field={option.date === deliveryDate ? "deliveryDate" : undefined}
                    onChange={() => {
                      setDeliveryDate(option.date);
                      if (!option.availability.some((slot) => slot.label === timeSlot && bookable(slot))) {
                        setTimeSlot("");
                      }
                    }}
                    className="sr-only"
                  />
                  <span className="font-semibold">{option.relative}</span>
                  <span className="text-sm text-muted-foreground">
                    {option.label}
                    {dayNote(option)}
                  </span>
                </label>
              ))}
            </div>
            <p className="mt-2 text-sm text-muted-foreground">{DELIVERY_DATE_HINT}</p>
            <FieldError id={`${baseId}-deliveryDate-error`}>{errors.deliveryDate}</FieldError>
          </fieldset>

          <fieldset
            className="mt-5"
            aria-describedby={errors.timeSlot ? `${baseId}-timeSlot-error` : undefined}
          >
            <legend className="text-sm font-medium">Delivery time</legend>
            {slots.length === 0 ? (
              <p className="mt-2 text-sm text-muted-foreground">
                {day?.closedForToday
                  ? "We're closed for today: same-day orders end at the cut-off. Please choose tomorrow."
                  : "No delivery times are left on this day. Please choose another date."}
              </p>
            ) : (
              <div className="mt-2 grid gap-3 sm:grid-cols-2">
                {slots.map((slot, index) => {
                  const open = bookable(slot);
                  const chosen = open && timeSlot === slot.label;
                  return (
                    <label
                      key={slot.label}
                      className={cn(
                        "flex min-h-14 items-center gap-3 rounded-md border px-4 py-2 transition-colors has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-ring",
                        chosen ? "border-primary bg-secondary" : "border-input bg-card",
                        open ? "cursor-pointer hover:bg-muted" : "cursor-not-allowed bg-muted/60 opacity-70",
                      )}
                    >
                      <input
                        type="radio"
                        name="timeSlot"
                        value={slot.label}
                        checked={chosen}
                        disabled={!open}
                        onChange={() => {
                          setTimeSlot(slot.label);
                          setErrors((current) => ({ ...current, timeSlot: undefined }));
                        }}
                        data-field={index === 0 ? "timeSlot" : undefined}
                        className="sr-only"
                      />
                      <span
                        aria-hidden="true"
                        className={cn(
                          "flex size-5 shrink-0 items-center justify-center rounded-full border",
                          chosen ? "border-primary bg-primary text-primary-foreground" : "border-input",
                        )}
                      >
                        {chosen ? <Icon name="check" className="size-3" /> : null}
                      </span>
                      <span className="flex min-w-0 flex-col">
                        <span className={cn("font-semibold", !open && "line-through decoration-1")}>
                          {slot.label}
                        </span>
                        <span
                          className={cn(
                            "text-sm",
                            slot.status === "few" ? "font-medium text-warning" : "text-muted-foreground",
                          )}
                        >
                          {slotStatusText(slot)}
                        </span>
                      </span>
                    </label>
                  );
                })}
              </div>
            )}
            <FieldError id={`${baseId}-timeSlot-error`}>{errors.timeSlot}</FieldError>
          </fieldset>
        </Section>

        <Section icon={<Icon name="map-pin" />} title="Delivery address" step={2}>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field {...fieldOf("name", "Full name")}>
              <Input {...bind("name")} autoComplete="name" required />
            </Field>
            <Field {...fieldOf("email", "Email")}>
              <Input {...bind("email")} type="email" autoComplete="email" inputMode="email" required />
            </Field>
            <Field {...fieldOf("phone", "Phone")}>
              <Input {...bind("phone")} type="tel" autoComplete="tel" required />
            </Field>
            <Field {...fieldOf("address", "Street address")} className="sm:col-span-2">
              <Input {...bind("address")} autoComplete="street-address" required />
            </Field>
            <Field {...fieldOf("city", "City")}>
              <Input {...bind("city")} autoComplete="address-level2" required />
            </Field>
            <div className="grid grid-cols-2 gap-4">
              <Field {...fieldOf("state", "State")}>
                <NativeSelect
                  {...fieldProps("state")}
                  autoComplete="address-level1"
                  value={state}
                  onChange={(event) => {
                    const next = event.target.value as DeliveryState;
                    setState(next);
                    if (values.zipCode.trim()) {
                      setErrors((current) => ({ ...current, zipCode: zipProblem(values.zipCode, next) }));
                    }
                  }}
                >
                  <SelectOptions values={US_STATES} />
                </NativeSelect>
              </Field>
              <Field {...fieldOf("zipCode", "ZIP code")}>
                <Input
                  {...bind("zipCode")}
                  autoComplete="postal-code"
                  inputMode="numeric"
                  required
                  onBlur={(event) => {
                    const problem = zipProblem(event.target.value, state);
                    setErrors((current) => ({ ...current, zipCode: problem }));
                  }}
                />
              </Field>
            </div>
            <Field {...fieldOf("notes", "Additional instructions (optional)")} className="sm:col-span-2">
              <Textarea {...bind("notes")} rows={3} placeholder="Apartment, gate code, where to meet you…" />
            </Field>
          </div>
        </Section>

        <Section icon={<Icon name="banknote" />} title="Payment method" step={3}>
          <div className="flex items-center gap-3 rounded-md border border-primary bg-secondary px-4 py-3">
            <Icon name="banknote" className="size-5 text-primary" />
            <div>
              <p className="font-semibold">Cash Only</p>
              <p className="text-sm text-muted-foreground">
                Payment on delivery. Please have the exact amount ready.
              </p>
            </div>
          </div>
          <Field {...fieldOf("payWith", "I'll pay with (optional)")} className="mt-4 sm:w-1/2">
            <Input
              {...bind("payWith")}
              inputMode="decimal"
              autoComplete="off"
              placeholder="e.g. $100"
              aria-describedby={
                errors.payWith
                  ? `${baseId}-payWith-error`
                  : change !== null
                    ? `${baseId}-payWith-change`
                    : undefined
              }
              onBlur={(event) => {
                const problem = payWithProblem(event.target.value);
                setErrors((current) => ({ ...current, payWith: problem }));
              }}
            />
            {change !== null && !errors.payWith ? (
              <p id={`${baseId}-payWith-change`} className="text-sm text-muted-foreground">
                Your driver brings {formatCents(change)} change.
              </p>
            ) : null}
          </Field>
        </Section>

        <Section icon={<Icon name="id-card" />} title="ID verification" step={4}>
          <p className="text-sm text-muted-foreground">
            Upload a clear photo of the front of your government-issued ID. We check it again in person at
            delivery.
          </p>
          <label
            htmlFor={`${baseId}-idFront`}
            className={cn(
              "mt-3 flex min-h-28 cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed px-4 py-5 text-center transition-colors has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-ring",
              errors.idFront ? "border-destructive" : "border-input hover:bg-muted",
            )}
          >
            {preview ? (
              <img src={preview} alt="Preview of your ID" className="max-h-32 rounded-md object-contain" />
            ) : (
              <Icon name="upload" className="size-6 text-muted-foreground" />
            )}
            <span className="font-semibold">{idFile ? idFile.name : "Upload front of ID"}</span>
            <span className="text-sm text-muted-foreground">
              {idFile ? "Tap to choose another photo" : ID_IMAGE_HINT}
            </span>
            <input
              {...fieldProps("idFront")}
              type="file"
              accept={ID_IMAGE_ACCEPT}
              required
              className="sr-only"
              onChange={(event) => {
                const file = event.target.files?.[0] ?? null;
                const problem = file ? idFileProblem(file) : null;
                setIdFile(file && !problem ? file : null);
                sendPhotoAhead(file && !problem ? file : null);
                setErrors((current) => ({ ...current, idFront: problem ?? undefined }));
                if (problem) event.target.value = "";
              }}
            />
          </label>
          <FieldError id={`${baseId}-idFront-error`}>{errors.idFront}</FieldError>
        </Section>

        <Card className="p-5 sm:p-6">
          <label className="flex cursor-pointer items-start gap-3">
            <input
              {...fieldProps("ageConfirmed")}
              type="checkbox"
              value="on"
              checked={ageConfirmed}
              onChange={(event) => setAgeConfirmed(event.target.checked)}
              className="mt-0.5 size-5 shrink-0 accent-primary"
            />
            <span className="text-sm">
              <span className="font-semibold">I confirm that I am 21 years of age or older.</span>{" "}
              <span className="text-muted-foreground">A valid ID is required at delivery.</span>
            </span>
          </label>
          <FieldError id={`${baseId}-ageConfirmed-error`}>{errors.ageConfirmed}</FieldError>

          <Button
            type="submit"
            size="lg"
            className="mt-5 w-full"
            disabled={disabled}
            aria-describedby={missing.length > 0 && !processing ? `${baseId}-missing` : undefined}
          >
            {processing ? (
              <>
                <Icon name="loader-circle" className="animate-spin" />
                Processing...
              </>
            ) : (
              <>
                <Icon name="shield-check" />
                Place Order · {formatCents(totalCents)}
              </>
            )}
          </Button>
          {limitProblem && !processing ? (
            <p className="mt-3 text-center text-sm text-destructive">{limitProblem.message}</p>
          ) : missing.length > 0 && !processing ? (
            <p id={`${baseId}-missing`} className="mt-3 text-center text-sm text-muted-foreground">
              To place your order, add {listText(missing)}.
            </p>
          ) : (
            <p className="mt-3 text-center text-sm text-muted-foreground">
              You pay {formatCents(totalCents)} in cash when your order arrives.
            </p>
          )}
        </Card>
      </div>
    </form>
  );
}

/** A line's thumbnail; a plain tile when there is none or it fails to load. */
function SummaryImage({ src }: { src: string }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <div
        className="flex size-14 shrink-0 items-center justify-center rounded-md bg-secondary"
        aria-hidden="true"
      >
        <Icon name="leaf" className="size-5 text-forest-400" />
      </div>
    );
  }
  return (
    <img
      src={src}
      alt=""
      width={56}
      height={56}
      loading="lazy"
      onError={() => setFailed(true)}
      className="size-14 shrink-0 rounded-md bg-muted object-cover"
    />
  );
}

/** ' · Closed for today' after the cut-off, ' · fully booked' when no slot has a place left. */
function dayNote(day: CheckoutDeliveryDay) {
  if (day.closedForToday) return " · Closed for today";
  if (day.availability.length === 0) return "";
  if (day.availability.every((slot) => slot.status === "closed")) return " · Closed";
  return day.availability.some(bookable) ? "" : " · fully booked";
}

function focusFirstError(form: HTMLFormElement | null, fieldErrors: FieldErrors) {
  const first = FIELD_ORDER.find((field) => fieldErrors[field]);
  if (!first) return;
  form?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
}

function listText(parts: string[]) {
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

function Section({
  icon,
  title,
  step,
  children,
}: {
  icon: React.ReactNode;
  title: string;
  step: number;
  children: React.ReactNode;
}) {
  const id = useId();
  return (
    <Card className="p-5 sm:p-6">
      <section aria-labelledby={id}>
        <h2 id={id} className="flex items-center gap-3 font-display text-xl font-semibold">
          <span
            className="flex size-8 items-center justify-center rounded-full bg-secondary text-sm font-semibold text-primary [&_svg]:size-4"
            aria-hidden="true"
          >
            {icon}
          </span>
          <span>
            <span className="sr-only">Step {step}: </span>
            {title}
          </span>
        </h2>
        <div className="mt-4">{children}</div>
      </section>
    </Card>
  );
}
