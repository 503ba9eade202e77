/**
 * The checkout form (K-2 Checkout, K-4 Checkout, K-5). It posts as a plain multipart form and,
 * with JavaScript, through a fetcher so the page shows 'Processing', keeps what was typed on an
 * error and clears the cart on success. The server checks everything again. Its steps are
 * components of their own; this module holds the form's state and what a submit does.
 */
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { useFetcher, useNavigate } from "react-router";
import { useCart } from "#app/components/cart-context.tsx";
import { type CartLine, isBelowMinimumOrder, minimumOrderCents } from "#app/features/cart/cart.ts";
import {
  CHECKOUT_TOASTS,
  type CheckoutField,
  checkoutSchema,
  checkoutValues,
  type FieldErrors,
  fieldErrorsOf,
  minimumOrderToast,
  type StockShortfall,
  type ToastMessage,
} from "#app/features/checkout/checkout.schema.ts";
import {
  type CheckoutDraft,
  emptyDraft,
  isDraftEmpty,
  type SentPhoto,
} from "#app/features/checkout/checkout-draft.ts";
import { changeDueCents, payWithTooLowMessage } from "#app/features/delivery/cash-change.ts";
import {
  type DeliveryZoneLike,
  zipRefusalMessage,
  zoneForZip,
} from "#app/features/delivery/delivery-area.ts";
import { idFileProblem } from "#app/features/media/id-image.ts";
import type { DeliveryState, PurchaseLimits } from "#app/features/purchase-limits/purchase-limits.ts";
import { dollarsToCents } from "#app/utils/money.ts";
import { carryToast, toast } from "#app/utils/toast-client.ts";
import { checkoutFields, type TextField, type TextValues } from "./checkout-fields.ts";
import { CodeStep } from "./code-step.tsx";
import { DeliveryAddressStep } from "./delivery-address-step.tsx";
import { bookable, type CheckoutDeliveryDay, DeliveryTimeStep } from "./delivery-time-step.tsx";
import { IdPhotoStep } from "./id-photo-step.tsx";
import { MinimumOrderNotice } from "./minimum-order-notice.tsx";
import { OrderSummary } from "./order-summary.tsx";
import { PaymentStep } from "./payment-step.tsx";
import { PlaceOrderCard } from "./place-order-card.tsx";
import { useCartWeight } from "./use-cart-weight.ts";
import { useCheckoutDraft, useSaveDraft } from "./use-checkout-draft.ts";

export type { CheckoutDeliveryDay };

export type CheckoutActionData =
  | { ok: true; token: string }
  | {
      ok: false;
      fieldErrors: FieldErrors;
      toast: ToastMessage | null;
      shortfall?: StockShortfall | null;
      /** P-36: the order waits for the code sent to its phone (or e-mail). */
      codeStep?: { sent: string | null } | null;
    };

/** The active delivery zones as the ZIP check needs them (P-21). */
export type CheckoutZone = DeliveryZoneLike & { minimumOrderCents: number | null };

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

export type CheckoutPrefill = {
  name: string;
  email: string;
  phone: string;
  address: string;
  city: string;
  zipCode: string;
  state: DeliveryState | null;
  /** The customer's verified ID on file, its expiry (record 058): no upload is asked for. */
  idOnFileExpires: string | null;
};

function withPrefill(values: TextValues, prefill: CheckoutPrefill | null | undefined): TextValues {
  if (!prefill) return values;
  const filled = { ...values };
  for (const field of ["name", "email", "phone", "address", "city", "zipCode"] as const) {
    if (!filled[field] && prefill[field]) filled[field] = prefill[field];
  }
  return filled;
}

export function CheckoutForm({
  items,
  totalCents,
  days,
  defaultDate,
  idempotencyKey,
  limits,
  zones,
  textsOffered = false,
  onPlaced,
  prefill,
}: {
  /** The shop sends texts (P-37): 'Text me updates' is offered. */
  textsOffered?: boolean;
  items: CartLine[];
  /** The purchase limits (P-28); the weights of the sizes are fetched. */
  limits: PurchaseLimits;
  totalCents: number;
  days: CheckoutDeliveryDay[];
  zones: CheckoutZone[];
  defaultDate: string;
  idempotencyKey: string;
  onPlaced: () => void;
  /** A signed-in customer's details and default address (record 053): fill the fields the draft left empty. */
  prefill?: CheckoutPrefill | null;
}) {
  const fetcher = useFetcher<CheckoutActionData>();
  const navigate = useNavigate();
  const { setStockNotice } = useCart();
  const formRef = useRef<HTMLFormElement>(null);
  const baseId = useId();
  // What the shopper typed before (on this device) fills the form again, until the order is placed.
  const draft = useCheckoutDraft();
  const [values, setValues] = useState<TextValues>(() => withPrefill(draft.initial.values, prefill));
  const [state, setState] = useState<DeliveryState>(() =>
    prefill?.state && !draft.initial.values.address ? prefill.state : draft.initial.state,
  );
  const [deliveryDate, setDeliveryDate] = useState(() =>
    days.some((option) => option.date === draft.initial.deliveryDate)
      ? draft.initial.deliveryDate
      : defaultDate,
  );
  const [timeSlot, setTimeSlot] = useState(draft.initial.timeSlot);
  const [ageConfirmed, setAgeConfirmed] = useState(false);
  const [idFile, setIdFile] = useState<File | null>(null);
  // The photo sent ahead, by its token: the one kept from an earlier visit, or the file picked now
  // once the server has it.
  const [keptPhoto, setKeptPhoto] = useState<SentPhoto | null>(draft.initial.photo);
  const [errors, setErrors] = useState<FieldErrors>({});
  // The code step (P-36): what the server said it sent, once it asked for a code.
  const [codeSent, setCodeSent] = useState<string | null>(null);
  // The ID photo goes ahead as soon as it is picked (P-8); the post then names its token.
  const sentPhoto = useRef<{ file: File; token: Promise<string | null> } | null>(null);
  const current: CheckoutDraft = { values, state, deliveryDate, timeSlot, photo: keptPhoto };
  useSaveDraft(current, draft.save);
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

  // What the server said about the last submit.
  useEffect(() => {
    const result = fetcher.data;
    if (!result || fetcher.state !== "idle" || handled.current === result) return;
    handled.current = result;
    if (result.ok) {
      draft.forget(true);
      onPlaced();
      // Carried to the thank-you page, which shows it: a toast belongs to the page it is for.
      navigate(`/thank-you?order=${encodeURIComponent(result.token)}`, {
        state: carryToast(CHECKOUT_TOASTS.success),
      });
      return;
    }
    setErrors(result.fieldErrors);
    setStockNotice(result.shortfall ?? null);
    if (result.codeStep) setCodeSent((current) => result.codeStep?.sent ?? current ?? "");
    // The server did not take the photo sent ahead: the next submit carries the file itself.
    if (result.fieldErrors.idFront) {
      sentPhoto.current = null;
      setKeptPhoto(null);
    }
    if (result.toast) showToast(result.toast);
    focusFirstError(formRef.current, result.fieldErrors);
  }, [fetcher.data, fetcher.state, navigate, onPlaced, setStockNotice, draft.forget]);

  const idOnFile = Boolean(prefill?.idOnFileExpires);
  const missing = useMemo(() => {
    const list: string[] = [];
    if (!timeSlot) list.push("a delivery time");
    if (!values.name.trim()) list.push("your full name");
    if (!values.email.trim()) list.push("your email");
    if (!values.phone.trim()) list.push("your phone");
    if (!values.address.trim()) list.push("your street address");
    if (!values.city.trim()) list.push("your city");
    if (!values.zipCode.trim()) list.push("your ZIP code");
    if (!idFile && !keptPhoto && !idOnFile) list.push("a photo of your ID");
    if (!ageConfirmed) list.push("the age confirmation");
    return list;
  }, [values, timeSlot, idFile, keptPhoto, idOnFile, ageConfirmed]);

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

  /** 'Clear my details': the form as on a first visit, and nothing left on the device. */
  function clearKept() {
    const empty = emptyDraft();
    setValues(empty.values);
    setState(empty.state);
    setTimeSlot("");
    setDeliveryDate(defaultDate);
    setIdFile(null);
    setKeptPhoto(null);
    sentPhoto.current = null;
    setErrors({});
    const input = formRef.current?.querySelector<HTMLInputElement>('input[name="idFront"]');
    if (input) input.value = "";
    draft.forget();
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
    void token.then((value) => {
      if (value && sentPhoto.current?.file === file) {
        setKeptPhoto({ token: value, name: file.name, sentAt: Date.now() });
      }
    });
  }

  async function submit(formData: FormData) {
    const sent = sentPhoto.current;
    if (!idFile && keptPhoto) {
      formData.delete("idFront");
      formData.set("idPhotoToken", keptPhoto.token);
    } else if (sent && sent.file === idFile) {
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
    const formData = new FormData(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter);
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
    const fileProblem = (keptPhoto || idOnFile) && !idFile ? null : idFileProblem(idFile);
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

  const fields = checkoutFields({ baseId, errors, values, update });

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

      <MinimumOrderNotice items={items} totalCents={totalCents} minimumCents={minimumCents} />

      <OrderSummary
        headingId={`${baseId}-summary`}
        items={items}
        totalCents={totalCents}
        weight={weight}
        limits={limits}
        state={state}
        limitProblem={limitProblem}
      />

      <div className="space-y-6 lg:order-1">
        <DeliveryTimeStep
          fields={fields}
          days={days}
          deliveryDate={deliveryDate}
          timeSlot={timeSlot}
          onDateChange={(option) => {
            setDeliveryDate(option.date);
            if (!option.availability.some((slot) => slot.label === timeSlot && bookable(slot))) {
              setTimeSlot("");
            }
          }}
          onSlotChange={(label) => {
            setTimeSlot(label);
            setErrors((current) => ({ ...current, timeSlot: undefined }));
          }}
        />
        <DeliveryAddressStep
          fields={fields}
          state={state}
          onStateChange={(next) => {
            setState(next);
            if (values.zipCode.trim()) {
              setErrors((current) => ({ ...current, zipCode: zipProblem(values.zipCode, next) }));
            }
          }}
          onZipBlur={(zip) => setErrors((current) => ({ ...current, zipCode: zipProblem(zip, state) }))}
          onClearKept={isDraftEmpty(current) ? null : clearKept}
          textsOffered={textsOffered}
        />
        <PaymentStep
          fields={fields}
          changeCents={change}
          onPayWithBlur={(text) => setErrors((current) => ({ ...current, payWith: payWithProblem(text) }))}
        />
        <IdPhotoStep
          fields={fields}
          idFile={idFile}
          keptPhotoName={keptPhoto ? keptPhoto.name || "Your ID photo" : null}
          signedIn={Boolean(prefill)}
          idOnFileExpires={prefill?.idOnFileExpires ?? null}
          onFileChange={(file) => {
            const problem = file ? idFileProblem(file) : null;
            setIdFile(file && !problem ? file : null);
            setKeptPhoto(null);
            sendPhotoAhead(file && !problem ? file : null);
            setErrors((current) => ({ ...current, idFront: problem ?? undefined }));
            return !problem;
          }}
        />
        {codeSent !== null ? <CodeStep fields={fields} sent={codeSent} disabled={processing} /> : null}
        <PlaceOrderCard
          fields={fields}
          ageConfirmed={ageConfirmed}
          onAgeChange={setAgeConfirmed}
          disabled={disabled}
          processing={processing}
          missing={missing}
          limitProblem={limitProblem}
          totalCents={totalCents}
        />
      </div>
    </form>
  );
}

function focusFirstError(form: HTMLFormElement | null, fieldErrors: FieldErrors) {
  const first = FIELD_ORDER.find((field) => fieldErrors[field]);
  if (!first) return;
  form?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
}
