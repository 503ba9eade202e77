import { waitPhrase } from "#app/features/abuse/rate-limits.server.ts";
import {
  CHECKOUT_TOASTS,
  minimumOrderToast,
  outOfStockToast,
  type ToastMessage,
} from "#app/features/checkout/checkout.schema.ts";
import type { CheckoutFailure, CheckoutRefusal } from "#app/features/checkout/checkout.server.ts";
import { config } from "#app/utils/env.server.ts";

export type CheckoutRefusalAnswer = {
  status: 400 | 403 | 409 | 413 | 429 | 500 | 503;
  toast: ToastMessage;
};

const CHECK_DETAILS_TOAST: ToastMessage = {
  type: "error",
  title: "Please check your details",
  description: "Some fields need your attention.",
};

function errorToast(title: string, description: string): ToastMessage {
  return { type: "error", title, description };
}

/** The status code and the toast a refused checkout post is answered with. */
export function checkoutRefusalAnswer(failure: Pick<CheckoutFailure, "refusal" | "retryAfterSeconds">) {
  return answerOf(failure.refusal, failure.retryAfterSeconds ?? 0);
}

function answerOf(refusal: CheckoutRefusal, retryAfterSeconds: number): CheckoutRefusalAnswer {
  switch (refusal.kind) {
    case "age":
      return { status: 400, toast: CHECKOUT_TOASTS.age };
    case "cart-empty":
      return { status: 400, toast: CHECKOUT_TOASTS.cartEmpty };
    case "check-details":
      return { status: 400, toast: CHECK_DETAILS_TOAST };
    case "order-error":
      return { status: 500, toast: CHECKOUT_TOASTS.orderError };
    case "order-unavailable":
      return { status: 503, toast: CHECKOUT_TOASTS.orderUnavailable };
    case "too-many-orders": {
      const perHour = config().ORDERS_PER_HOUR;
      return {
        status: 429,
        toast: errorToast(
          "Too many orders",
          `We take at most ${perHour} order${perHour === 1 ? "" : "s"} an hour from one connection. Please try again in ${waitPhrase(retryAfterSeconds)}, or call us at ${config().STORE_PHONE}.`,
        ),
      };
    }
    case "too-many-photos":
      return { status: 429, toast: errorToast("Too many photos", refusal.message) };
    case "photo-unavailable":
      return { status: 503, toast: errorToast("Please try again", refusal.message) };
    case "photo-refused":
      return refusal.problem === "too-large"
        ? { status: 413, toast: errorToast("File too large", refusal.message) }
        : { status: 400, toast: errorToast("Invalid file type", refusal.message) };
    case "minimum":
      return { status: 400, toast: minimumOrderToast(refusal.totalCents, refusal.minimumCents) };
    case "out-of-stock":
      return { status: 409, toast: outOfStockToast(refusal.itemName, refusal.left) };
    case "open-orders":
      return { status: 409, toast: errorToast("Too many open orders", refusal.message) };
    case "delivery-area":
      return { status: 400, toast: errorToast("Outside our delivery area", refusal.message) };
    case "slot-full":
      return { status: 409, toast: errorToast("Delivery time full", refusal.message) };
    case "pay-with":
      return { status: 400, toast: errorToast("Please check your details", refusal.message) };
    case "purchase-limit":
      return { status: 400, toast: errorToast("Purchase limit", refusal.message) };
    case "unavailable":
      return { status: 409, toast: errorToast("Item unavailable", refusal.message) };
    case "delivery":
      return { status: 400, toast: errorToast("Delivery time unavailable", refusal.message) };
    // P-36: no order without the code; 403 until the right one comes.
    case "code-sent":
      return {
        status: 403,
        toast: {
          type: "info",
          title: refusal.channel === "sms" ? "Check your phone" : "Check your email",
          description: refusal.message,
        },
      };
    case "code-refused":
      return { status: 403, toast: errorToast("Code not accepted", refusal.message) };
    case "too-many-codes":
      return { status: 429, toast: errorToast("Too many codes", refusal.message) };
  }
}
