import { useCallback } from "react";
import { createContext, data, type ShouldRevalidateFunctionArgs } from "react-router";
import { useCart } from "#app/components/cart-context.tsx";
import { CheckoutForm, type CheckoutPrefill } from "#app/components/checkout/checkout-form.tsx";
import { StoreLink } from "#app/components/store-link.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { privatePageMeta } from "#app/features/catalog/seo.ts";
import { skipAfterPlacedOrder } from "#app/features/checkout/after-placed-order.ts";
import { CHECKOUT_TOASTS } from "#app/features/checkout/checkout.schema.ts";
import { submitCheckout } from "#app/features/checkout/checkout.server.ts";
import { rememberVerified } from "#app/features/checkout/contact-verification.server.ts";
import { CODE_FIELD, CODE_STEP_FIELD, RESEND_FIELD } from "#app/features/checkout/contact-verification.ts";
import { savedAddresses } from "#app/features/customers/account.server.ts";
import { readCustomerToken } from "#app/features/customers/customer-sessions.server.ts";
import { checkoutDeliveryDays, zoneCheckData } from "#app/features/delivery/delivery.server.ts";
import { smsConfigured } from "#app/features/email/sms.server.ts";
import { idOnFileOf } from "#app/features/media/id-on-file.server.ts";
import { getPurchaseLimitSettings } from "#app/features/purchase-limits/purchase-limits.server.ts";
import { checkoutRefusalAnswer } from "#app/routes/shared/checkout-response.server.ts";
import { customerOf } from "#app/routes/shared/customer-session.server.ts";
import { PRIVATE_NO_STORE } from "#app/utils/cache-headers.ts";
import { formatPhone } from "#app/utils/phone.ts";
import { requestInfoContext } from "#app/utils/request-context.ts";
import { keepRetryAfter } from "#app/utils/retry-after.ts";
import { redirectWithToast } from "#app/utils/toast.server.ts";
import type { Route } from "./+types/checkout";

export function meta({ matches }: Route.MetaArgs) {
  return privatePageMeta(matches, "Checkout");
}

export function headers(args: Route.HeadersArgs) {
  return keepRetryAfter(args, PRIVATE_NO_STORE);
}

/**
 * After a placed order the page leaves for /thank-you without running its loaders again
 * (`skipAfterPlacedOrder`). React Router does not reload after a refused (4xx) post; a refusal about
 * the delivery time means a slot filled up or closed meanwhile, so the slot list is read again
 * (P-22). Nothing was placed, so the fresh idempotency key that comes with it is safe.
 */
export function shouldRevalidate(args: ShouldRevalidateFunctionArgs) {
  const refused = args.actionResult as { ok?: boolean; fieldErrors?: { timeSlot?: string } } | undefined;
  if (refused?.ok === false && refused.fieldErrors?.timeSlot) return true;
  return skipAfterPlacedOrder(args);
}

/**
 * Set by the action when it refuses a post. Loaders run after the action only when the post came
 * without JavaScript (a document post): that page shows the refusal and nothing to fill in (the cart
 * lives in the browser's storage), so the slots, zones and limits are not read again for it.
 */
const refusedPostContext = createContext(false);

export async function loader({ context, request }: Route.LoaderArgs) {
  if (context.get(refusedPostContext)) return { refusedPost: true as const };
  // Slot places and closures change with every order: read fresh (this page is never cached).
  const [{ stateLimitsMg, maxQuantityPerSize }, delivery, zones, prefill] = await Promise.all([
    getPurchaseLimitSettings(),
    checkoutDeliveryDays(new Date()),
    zoneCheckData(),
    checkoutPrefillOf(request),
  ]);
  // A fresh key per page view: a double submit, a retry or a resubmitted post of this page
  // carries the same key and gets the first order back (P-10).
  return {
    delivery: { days: delivery.days, defaultDate: delivery.defaultDate },
    zones,
    idempotencyKey: crypto.randomUUID(),
    limits: { stateLimitsMg, maxQuantityPerSize },
    prefill,
    textsOffered: smsConfigured(),
  };
}

/** A signed-in customer's details and default address (record 053); null for a guest. */
async function checkoutPrefillOf(request: Request): Promise<CheckoutPrefill | null> {
  const customer = await customerOf(request);
  if (!customer) return null;
  const [address] = await savedAddresses(customer.customerId);
  return {
    name: customer.name,
    email: customer.email,
    phone: customer.phone ? formatPhone(customer.phone) : "",
    address: address?.isDefault ? address.street : "",
    city: address?.isDefault ? address.city : "",
    zipCode: address?.isDefault ? address.zipCode : "",
    state: address?.isDefault ? address.state : null,
    idOnFileExpires: (await idOnFileOf(customer.customerId))?.expiresOn ?? null,
  };
}

async function hasIdOnFile(customer: { customerId: string } | null) {
  return customer ? (await idOnFileOf(customer.customerId)) !== null : false;
}

export async function action({ request, context }: Route.ActionArgs) {
  const cookieHeader = request.headers.get("Cookie");
  const result = await submitCheckout(request, {
    clientAddress: context.get(requestInfoContext).clientAddress,
    cookieHeader,
    customerToken: readCustomerToken(request),
  });
  if (!result.ok) context.set(refusedPostContext, true);
  if (result.ok) {
    // The right code (P-36): this device is trusted with that contact for 30 days.
    const headers = new Headers();
    if (result.verifiedContact) {
      headers.append("Set-Cookie", await rememberVerified(cookieHeader, result.verifiedContact));
    }
    if (result.client === "html") {
      return redirectWithToast(
        `/thank-you?order=${encodeURIComponent(result.token)}`,
        CHECKOUT_TOASTS.success,
        { headers },
      );
    }
    return data({ ok: true as const, token: result.token }, { headers });
  }
  const { status, toast } = checkoutRefusalAnswer(result);
  const kind = result.refusal.kind;
  const codeStep =
    kind === "code-sent" || kind === "code-refused" || kind === "too-many-codes"
      ? {
          sent: kind === "code-sent" ? result.refusal.message : null,
          keptFields: result.keptFields ?? null,
          // The ID on file stands in for the photo on the code's page too (record 058).
          idOnFile: await hasIdOnFile(await customerOf(request)),
        }
      : null;
  return data(
    {
      ok: false as const,
      fieldErrors: result.fieldErrors,
      toast,
      shortfall: result.shortfall ?? null,
      codeStep,
    },
    {
      status,
      headers: result.retryAfterSeconds ? { "Retry-After": String(result.retryAfterSeconds) } : undefined,
    },
  );
}

export default function CheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
  const cart = useCart();
  const { clearCart } = cart;
  const onPlaced = useCallback(() => clearCart(), [clearCart]);

  if ("refusedPost" in loaderData) {
    const refusal = actionData && !actionData.ok ? actionData : null;
    if (refusal?.codeStep?.keptFields) {
      return <CodePage step={refusal.codeStep} error={refusal.fieldErrors.verificationCode ?? null} />;
    }
    return <RefusedPost refusal={refusal} />;
  }
  return (
    <div className="mx-auto w-full max-w-6xl px-4 pt-6 pb-28 sm:pt-10">
      <h1 className="font-display text-3xl font-semibold text-primary sm:text-4xl">Checkout</h1>
      {actionData && !actionData.ok && actionData.toast ? (
        <div role="alert" className="mt-4 rounded-md border border-destructive/40 bg-card px-4 py-3 text-sm">
          <p className="font-semibold text-destructive">{actionData.toast.title}</p>
          <p>{actionData.toast.description}</p>
        </div>
      ) : null}
      {!cart.hydrated ? (
        <CheckoutSkeleton />
      ) : cart.items.length === 0 ? (
        <EmptyCart />
      ) : (
        <div className="mt-6">
          <CheckoutForm
            items={cart.items}
            totalCents={cart.totalCents}
            days={loaderData.delivery.days}
            defaultDate={loaderData.delivery.defaultDate}
            idempotencyKey={loaderData.idempotencyKey}
            limits={loaderData.limits}
            zones={loaderData.zones}
            textsOffered={loaderData.textsOffered}
            onPlaced={onPlaced}
            prefill={loaderData.prefill}
          />
        </div>
      )}
    </div>
  );
}

/**
 * The answer to a refused post without JavaScript: why, each field's message, and the way back to
 * the form (the browser keeps what was typed there).
 */
function RefusedPost({
  refusal,
}: {
  refusal: {
    toast: { title: string; description: string } | null;
    fieldErrors: Record<string, string | undefined>;
  } | null;
}) {
  const details = Object.values(refusal?.fieldErrors ?? {}).filter(
    (message): message is string => Boolean(message) && message !== refusal?.toast?.description,
  );
  return (
    <div className="mx-auto w-full max-w-2xl px-4 pt-6 pb-28 sm:pt-10">
      <h1 className="font-display text-3xl font-semibold text-primary sm:text-4xl">Checkout</h1>
      <div role="alert" className="mt-4 rounded-md border border-destructive/40 bg-card px-4 py-3 text-sm">
        {refusal?.toast ? (
          <>
            <p className="font-semibold text-destructive">{refusal.toast.title}</p>
            <p>{refusal.toast.description}</p>
          </>
        ) : null}
        {details.length > 0 ? (
          <ul className="mt-2 list-disc space-y-1 pl-5">
            {details.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        ) : null}
      </div>
      <p className="mt-6 text-muted-foreground">
        Nothing was placed. Go back to your form to change it: your browser keeps what you typed.
      </p>
      <StoreLink to="/shop" className={buttonVariants({ variant: "outline", size: "lg", className: "mt-6" })}>
        Continue Shopping
      </StoreLink>
    </div>
  );
}

/**
 * The code step without JavaScript (P-36): a page of its own whose form sends the shopper's fields
 * again with the code. A photo that came with the first post was not read yet: it is asked again.
 */
function CodePage({
  step,
  error,
}: {
  step: { sent: string | null; keptFields: Array<[string, string]> | null; idOnFile?: boolean };
  error: string | null;
}) {
  const fields = step.keptFields ?? [];
  const photoSentAhead = step.idOnFile || fields.some(([name]) => name === "idPhotoToken");
  return (
    <div className="mx-auto w-full max-w-2xl px-4 pt-6 pb-28 sm:pt-10">
      <h1 className="font-display text-3xl font-semibold text-primary sm:text-4xl">Enter your code</h1>
      {step.sent ? <p className="mt-4">{step.sent}</p> : null}
      <form method="post" action="/checkout" encType="multipart/form-data" className="mt-6 space-y-4">
        {fields.map(([name, value], index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the post's own order; names may repeat.
          <input key={index} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name={CODE_STEP_FIELD} value="1" />
        <div className="space-y-1.5">
          <label htmlFor="code" className="font-medium text-sm">
            6-digit code
          </label>
          <input
            id="code"
            name={CODE_FIELD}
            inputMode="numeric"
            autoComplete="one-time-code"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "code-error" : undefined}
            className="block h-12 w-48 rounded-md border border-input bg-card px-3 text-lg tracking-widest"
          />
          {error ? (
            <p id="code-error" role="alert" className="text-destructive text-sm">
              {error}
            </p>
          ) : null}
        </div>
        {photoSentAhead ? null : (
          <div className="space-y-1.5">
            <label htmlFor="id-again" className="font-medium text-sm">
              Your ID photo again
            </label>
            <input
              id="id-again"
              name="idFront"
              type="file"
              accept="image/*"
              required
              className="block text-sm"
            />
          </div>
        )}
        <div className="flex flex-wrap gap-3">
          <button type="submit" className={buttonVariants({ size: "lg" })}>
            Place Order
          </button>
          <button
            type="submit"
            name={RESEND_FIELD}
            value="1"
            className={buttonVariants({ variant: "outline", size: "lg" })}
          >
            Send a new code
          </button>
        </div>
      </form>
    </div>
  );
}

function EmptyCart() {
  return (
    <div className="mx-auto mt-10 flex max-w-md flex-col items-center rounded-lg border border-border bg-card px-6 py-12 text-center shadow-card">
      <span className="flex size-14 items-center justify-center rounded-full bg-secondary text-primary">
        <Icon name="shopping-bag" className="size-6" />
      </span>
      <h2 className="mt-4 font-display text-2xl font-semibold">Your cart is empty</h2>
      <p className="mt-2 text-muted-foreground">Add some items to your cart before checkout.</p>
      <StoreLink to="/shop" className={buttonVariants({ size: "lg", className: "mt-6" })}>
        Continue Shopping
      </StoreLink>
    </div>
  );
}

function CheckoutSkeleton() {
  return (
    <div className="mt-6" aria-busy="true">
      <noscript>
        <EmptyCart />
      </noscript>
      <p className="sr-only" role="status">
        Loading your cart…
      </p>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_380px]" aria-hidden="true">
        <div className="space-y-6">
          <div className="h-56 animate-pulse rounded-lg bg-muted" />
          <div className="h-72 animate-pulse rounded-lg bg-muted" />
        </div>
        <div className="h-64 animate-pulse rounded-lg bg-muted" />
      </div>
    </div>
  );
}
