/**
 * Checkout posts for the Vitest suites: through `submitCheckout` and `uploadIdPhoto`, which load
 * the e-mail components (`.tsx`), so this stays apart from `checkout-test-helpers.server.ts`, which
 * plain Node scripts (the bench) import too. A refused post comes back with the status code and the
 * toast the checkout route answers it with, as the shopper sees it.
 */
import { type CheckoutResult, submitCheckout } from "#app/features/checkout/checkout.server.ts";
import { uploadIdPhoto } from "#app/features/checkout/id-photo-upload.server.ts";
import { checkoutRefusalAnswer } from "#app/routes/shared/checkout-response.server.ts";
import {
  checkoutRequest,
  MONDAY_MORNING,
  newShopper,
  orderFields,
  testIdPhoto,
} from "./checkout-test-helpers.server.ts";

type TestFile = { bytes: Uint8Array; name: string; type: string };

/**
 * A checkout post of `items` (fields as `orderFields` makes them, with `overrides`) by a shopper of
 * its own client address on Monday morning, with the test ID photo unless `options.file` says
 * otherwise (`null`: none, as when the photo was sent ahead with `idPhotoToken`).
 */
export async function postCheckout(
  items: { productId: string; sizeId: string; quantity: number }[],
  overrides: Record<string, string> = {},
  options: { file?: TestFile | null; clientAddress?: string; now?: Date; customerToken?: string | null } = {},
) {
  const file = options.file === undefined ? await testIdPhoto() : options.file;
  return submitAsShopper(checkoutRequest(orderFields(items, overrides), file), options);
}

/**
 * A checkout post as it is, by a shopper of its own client address (unless given) on Monday morning;
 * `customerToken`: the customer cookie's token of a signed-in customer.
 */
export async function submitAsShopper(
  request: Request,
  options: { clientAddress?: string; now?: Date; customerToken?: string | null } = {},
) {
  return answered(
    await submitCheckout(request, {
      clientAddress: options.clientAddress ?? newShopper().clientAddress,
      now: options.now ?? MONDAY_MORNING,
      customerToken: options.customerToken,
    }),
  );
}

/** The feature's result with, when refused, the route's status code and toast beside it. */
export function answered(result: CheckoutResult) {
  return result.ok ? result : { ...result, ...checkoutRefusalAnswer(result) };
}

/** The test ID photo sent ahead (`/api/id-photo`), as the checkout form does: its single-use token. */
export async function sendPhotoAhead() {
  const upload = await uploadIdPhoto(checkoutRequest({}, await testIdPhoto()));
  if (!upload.ok) throw new Error(upload.message);
  return upload.token;
}
