/**
 * The checkout input, validated by the same schema in the browser and on the server (P-7).
 * Field names follow K-3 'Checkout form'; toasts use the words of K-5 and K-8.
 */

import { isBelowMinimumOrder, MIN_ORDER_CENTS, MIN_ORDER_TEXT } from "#app/features/cart/cart.ts";
import { MAX_PAY_WITH_CENTS } from "#app/features/delivery/cash-change.ts";
import { DELIVERY_SLOT_LABELS } from "#app/features/delivery/delivery-slots.ts";
import { US_STATES } from "#app/features/purchase-limits/purchase-limits.ts";
import { dollarsToCents, formatCents } from "#app/utils/money.ts";
import { PHONE_INVALID_MESSAGE, phoneLooksValid } from "#app/utils/phone.ts";
import { plainText, z } from "#app/utils/zod.ts";
import { MAX_LINE_QUANTITY } from "./limits.ts";

const required = (message: string) => z.string({ error: message }).trim().min(1, message);

/** A typed field: a control character (a NUL, say) is refused with the field's own words. */
const typed = (field: string, options: { multiline?: boolean } = {}) =>
  plainText(`${field} contains a character that isn't allowed`, options);

export const cartLineInputSchema = z.object({
  productId: z.uuid("Unknown product"),
  sizeId: z.uuid("Unknown size"),
  // A JSON integer or a string of digits only: "1e2", "0x10", " 3", "2.0" and true are refused.
  quantity: z.preprocess(
    (value) => (typeof value === "string" && /^\d{1,6}$/.test(value) ? Number(value) : value),
    z
      .number("Quantity must be a whole number")
      .int("Quantity must be a whole number")
      .min(1, "Quantity must be at least 1")
      .max(MAX_LINE_QUANTITY, `Quantity can be at most ${MAX_LINE_QUANTITY}`),
  ),
});
export type CartLineInput = z.infer<typeof cartLineInputSchema>;

/** The cart lines travel as one JSON field; prices are never part of it (P-7). */
const itemsField = z
  .string()
  .max(50_000)
  .transform((value, context) => {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      context.addIssue({ code: "custom", message: "The cart could not be read" });
      return z.NEVER;
    }
  })
  .pipe(z.array(cartLineInputSchema).max(100, "Too many items in the cart"));

export const checkoutSchema = z.object({
  name: required("Full name is required").pipe(typed("Name")).pipe(z.string().max(120, "Name is too long")),
  email: required("Email is required")
    .pipe(typed("Email"))
    .pipe(z.email("Enter a valid email address").max(254, "Email is too long")),
  // The light check; the server also checks the number against libphonenumber and stores it as
  // E.164 (app/utils/phone.server.ts).
  phone: required("Phone is required")
    .pipe(typed("Phone number"))
    .pipe(
      z
        .string()
        .max(30, "Phone number is too long")
        .refine(
          (value) => value.replace(/\D/g, "").length >= 10 || value.trim().startsWith("+"),
          "Enter a phone number with at least 10 digits",
        )
        .refine(phoneLooksValid, PHONE_INVALID_MESSAGE),
    ),
  address: required("Street address is required")
    .pipe(typed("Street address"))
    .pipe(z.string().max(200, "Address is too long")),
  city: required("City is required").pipe(typed("City")).pipe(z.string().max(100, "City is too long")),
  state: z.enum(US_STATES, {
    error: (issue) =>
      issue.input === undefined || issue.input === "" ? "Choose a state" : "We deliver in DC and VA only",
  }),
  zipCode: required("ZIP code is required").pipe(
    z.string().regex(/^\d{5}(-\d{4})?$/, "Enter a 5-digit ZIP code"),
  ),
  notes: typed("Delivery instructions", { multiline: true })
    .trim()
    .max(1000, "Instructions are too long")
    .optional()
    .transform((value) => (value ? value : null)),
  /** 'I'll pay with' (P-24): optional dollars; at least the total, checked once it is priced. */
  payWith: z
    .string()
    .trim()
    .max(20, "Enter an amount in dollars, like 100")
    .optional()
    .transform((value, context) => {
      if (!value) return null;
      const cents = dollarsToCents(value);
      if (cents === undefined || cents > MAX_PAY_WITH_CENTS) {
        context.addIssue({ code: "custom", message: "Enter an amount in dollars, like 100" });
        return z.NEVER;
      }
      return cents;
    }),
  deliveryDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Choose a delivery date"),
  timeSlot: z.enum(DELIVERY_SLOT_LABELS as [string, ...string[]], "Choose a delivery time slot"),
  ageConfirmed: z.literal(["on", "true"], "You must be 21 or older to purchase cannabis products."),
  /** 'Text me updates' (P-37): texts beside the e-mails, when the shop sends texts. */
  smsOptIn: z
    .string()
    .optional()
    .transform((value) => value === "on" || value === "true"),
  idempotencyKey: z.string().regex(/^[\w-]{16,80}$/, "Please reload the page and try again"),
  items: itemsField,
});

export type CheckoutInput = z.infer<typeof checkoutSchema>;
export type CheckoutField = keyof CheckoutInput | "idFront" | "verificationCode";
export type FieldErrors = Partial<Record<CheckoutField, string>>;

/** Reads a FormData (or a plain record) into the schema's input shape. */
export function checkoutValues(form: FormData | Record<string, unknown>) {
  const get = (key: string) => {
    const value = form instanceof FormData ? form.get(key) : form[key];
    return typeof value === "string" ? value : undefined;
  };
  return {
    name: get("name"),
    email: get("email"),
    phone: get("phone"),
    address: get("address"),
    city: get("city"),
    state: get("state"),
    zipCode: get("zipCode"),
    notes: get("notes"),
    payWith: get("payWith"),
    deliveryDate: get("deliveryDate"),
    timeSlot: get("timeSlot"),
    ageConfirmed: get("ageConfirmed"),
    smsOptIn: get("smsOptIn"),
    idempotencyKey: get("idempotencyKey"),
    items: get("items") ?? "[]",
  };
}

/** The first message per field, ready to show beside each input. */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "") as CheckoutField;
    if (key && !errors[key]) errors[key] = issue.message;
  }
  return errors;
}

export type ToastMessage = { type: "success" | "error" | "info"; title: string; description: string };

/** K-5 and K-8, word for word. */
export const CHECKOUT_TOASTS = {
  age: {
    type: "error",
    title: "Age Verification Required",
    description: "You must be 21 or older to purchase cannabis products.",
  },
  cartEmpty: {
    type: "error",
    title: "Cart Empty",
    description: "Please add items to your cart before checkout.",
  },
  orderError: {
    type: "error",
    title: "Error",
    description: "There was an error placing your order. Please try again.",
  },
  /** The database (or the ID photo store) could not take the order; nothing was placed. */
  orderUnavailable: {
    type: "error",
    title: "Error",
    description: "We couldn't place your order just now. Nothing was charged; please try again in a minute.",
  },
  uploadError: {
    type: "error",
    title: "Upload Error",
    description: "Failed to upload ID image. Order will continue without image.",
  },
  success: {
    type: "success",
    title: "Order Placed Successfully!",
    description: "Thank you for your order. You'll receive a confirmation email shortly.",
  },
} as const satisfies Record<string, ToastMessage>;

export function minimumOrderToast(totalCents: number, minimumCents: number = MIN_ORDER_CENTS): ToastMessage {
  return {
    type: "error",
    title: "Minimum Order Required",
    description: `Your order total must be at least ${minimumCents === MIN_ORDER_CENTS ? MIN_ORDER_TEXT : formatCents(minimumCents)}. Current total: ${formatCents(totalCents)}`,
  };
}

/** 'Only N left of {product} ({size}).' when some are left (record 026); the sold-out wording when none. */
export function stockShortMessage(itemName: string, left: number) {
  return left > 0
    ? `Only ${left} left of ${itemName}.`
    : `Sorry, ${itemName} sold out while you were checking out. Please update your cart.`;
}

export function outOfStockToast(itemName: string, left = 0): ToastMessage {
  return {
    type: "error",
    title: left > 0 ? "Not enough stock" : "Out of Stock",
    description: stockShortMessage(itemName, left),
  };
}

/** A cart line the stock no longer covers, for the 'Reduce to N' button (record 026). */
export type StockShortfall = { productId: string; sizeId: string; left: number; message: string };

/** The shortfall lines of the order summary (K-2 Checkout, K-5). */
export function minimumOrderLines(totalCents: number, minimumCents: number = MIN_ORDER_CENTS) {
  if (!isBelowMinimumOrder(totalCents, minimumCents)) return null;
  return {
    required: `Minimum order required: ${minimumCents === MIN_ORDER_CENTS ? MIN_ORDER_TEXT : formatCents(minimumCents)}`,
    missing: `Add ${formatCents(minimumCents - totalCents)} more to reach minimum order`,
  };
}
