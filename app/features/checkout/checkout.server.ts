/**
 * The checkout submit, from raw request to placed order (spec §4 'Order sequence on submit',
 * §5, §8). The route calls this and only turns the result into a response. Every post is checked
 * here the same way, whether it came from the page, a plain HTML form or a crafted request.
 */

import {
  deleteIdPhotos,
  ID_PHOTO_FIELD,
  idPhotoTokenOf,
  type ProcessedIdPhoto,
  parseCheckoutForm,
  processIdPhoto,
  storeIdPhoto,
  UploadRefused,
} from "#app/features/media/id-photos.server.ts";
import {
  commitOrder,
  type PlaceOrderRefusal,
  type PreparedOrder,
  prepareOrder,
} from "#app/features/orders/place-order.server.ts";
import { log, rootCauseMessage } from "#app/utils/logger.server.ts";
import {
  CHECKOUT_TOASTS,
  checkoutSchema,
  checkoutValues,
  type FieldErrors,
  fieldErrorsOf,
  ID_IMAGE_MESSAGES,
  minimumOrderToast,
  outOfStockToast,
  type ToastMessage,
} from "./checkout.schema.ts";

export type CheckoutClient = "js" | "html";

export type CheckoutSuccess = {
  ok: true;
  client: CheckoutClient;
  token: string;
  /** The ID photo could not be stored: the order went ahead without it (spec §8 'Upload Error'). */
  uploadFailed: boolean;
  replayed: boolean;
};

export type CheckoutFailure = {
  ok: false;
  client: CheckoutClient;
  status: 400 | 409 | 413 | 500 | 503;
  fieldErrors: FieldErrors;
  toast: ToastMessage | null;
  /** With 503: when the shopper can send the same form again. */
  retryAfterSeconds?: number;
};

export type CheckoutResult = CheckoutSuccess | CheckoutFailure;

export type CheckoutDependencies = {
  now?: Date;
  /** Where the re-encoded photo goes; the default stores it in `id_photos`. */
  storePhoto?: (photo: ProcessedIdPhoto) => Promise<string>;
};

const CHECK_DETAILS_TOAST: ToastMessage = {
  type: "error",
  title: "Please check your details",
  description: "Some fields need your attention.",
};

function failure(
  client: CheckoutClient,
  status: CheckoutFailure["status"],
  fieldErrors: FieldErrors,
  toast: ToastMessage | null,
): CheckoutFailure {
  return { ok: false, client, status, fieldErrors, toast };
}

/** The photo was refused (size, type, unreadable), or could not be checked now (503). */
function photoFailure(client: CheckoutClient, error: UploadRefused): CheckoutFailure {
  if (error.status === 503) {
    return {
      ...failure(client, 503, {}, { type: "error", title: "Please try again", description: error.message }),
      retryAfterSeconds: error.retryAfterSeconds,
    };
  }
  return failure(
    client,
    error.status,
    { [ID_PHOTO_FIELD]: error.message },
    {
      type: "error",
      title: error.status === 413 ? "File too large" : "Invalid file type",
      description: error.message,
    },
  );
}

function refusalToFailure(client: CheckoutClient, refusal: PlaceOrderRefusal): CheckoutFailure {
  switch (refusal.reason) {
    case "empty-cart":
      return failure(client, 400, {}, CHECKOUT_TOASTS.cartEmpty);
    case "minimum":
      return failure(client, 400, {}, minimumOrderToast(refusal.totalCents));
    case "out-of-stock":
      return failure(client, 409, {}, outOfStockToast(refusal.itemName));
    case "unavailable":
      return failure(
        client,
        409,
        {},
        {
          type: "error",
          title: "Item unavailable",
          description: `${refusal.itemName ?? "An item in your cart"} is no longer available. Please update your cart.`,
        },
      );
    case "delivery":
      return failure(
        client,
        400,
        { [refusal.field]: refusal.message },
        {
          type: "error",
          title: "Delivery time unavailable",
          description: refusal.message,
        },
      );
  }
}

export async function submitCheckout(
  request: Request,
  dependencies: CheckoutDependencies = {},
): Promise<CheckoutResult> {
  const now = dependencies.now ?? new Date();
  let form: FormData;
  let idFront: File | null;
  try {
    ({ form, idFront } = await parseCheckoutForm(request));
  } catch (error) {
    if (error instanceof UploadRefused) return photoFailure("js", error);
    throw error;
  }
  const client: CheckoutClient = form.get("_client") === "js" ? "js" : "html";

  // Spec §5 order: the age box, then the cart, then the fields.
  const parsed = checkoutSchema.safeParse(checkoutValues(form));
  const fieldErrors: FieldErrors = parsed.success ? {} : fieldErrorsOf(parsed.error);
  // With JavaScript the photo went ahead (decision 8) and the post names it; without, it is here.
  const photoToken = idFront ? null : idPhotoTokenOf(form);
  if (!idFront && !photoToken) fieldErrors.idFront = ID_IMAGE_MESSAGES.required;
  if (fieldErrors.ageConfirmed) return failure(client, 400, fieldErrors, CHECKOUT_TOASTS.age);
  if (parsed.success && parsed.data.items.length === 0) {
    return failure(client, 400, fieldErrors, CHECKOUT_TOASTS.cartEmpty);
  }
  if (!parsed.success || (!idFront && !photoToken)) {
    return failure(client, 400, fieldErrors, CHECK_DETAILS_TOAST);
  }
  const input = parsed.data;

  // One read: a retry or a double submit of an order already placed gets that order back and
  // stores nothing; otherwise the cart is priced from the database.
  let prepared: PreparedOrder;
  try {
    prepared = await prepareOrder(input, { now, photoToken });
  } catch (error) {
    log.error("Could not place an order", { error: rootCauseMessage(error) });
    return failure(client, 500, {}, CHECKOUT_TOASTS.orderError);
  }
  if (prepared.ok && prepared.replay) {
    return { ok: true, client, token: prepared.replay.publicToken, uploadFailed: false, replayed: true };
  }

  let idPhotoId: string | null = null;
  let storedHere = false;
  if (idFront) {
    let photo: ProcessedIdPhoto;
    try {
      photo = await processIdPhoto(new Uint8Array(await idFront.arrayBuffer()));
    } catch (error) {
      if (error instanceof UploadRefused) return photoFailure(client, error);
      throw error;
    }
    if (!prepared.ok) return refusalToFailure(client, prepared);
    // Step 1 of spec §4: a storage failure does not stop the order.
    try {
      idPhotoId = await (dependencies.storePhoto ?? ((value) => storeIdPhoto(value)))(photo);
      storedHere = true;
    } catch (error) {
      log.error("Could not store an ID photo; the order continues without it", {
        error: rootCauseMessage(error),
      });
    }
  } else {
    if (!prepared.ok) return refusalToFailure(client, prepared);
    // The photo sent ahead is gone (deleted unclaimed, or the token was made up): ask for it again.
    if (!prepared.sentPhotoId) {
      return failure(client, 400, { [ID_PHOTO_FIELD]: ID_IMAGE_MESSAGES.required }, CHECK_DETAILS_TOAST);
    }
    idPhotoId = prepared.sentPhotoId;
  }

  // A photo sent ahead stays for a corrected resubmit; one stored by this request goes with it.
  const forget = async () => {
    if (storedHere && idPhotoId) await deleteIdPhotos([idPhotoId]).catch(() => {});
  };

  try {
    const result = await commitOrder({ ...input, idPhotoId }, prepared.quote, { now });
    if (!result.ok) {
      await forget();
      return refusalToFailure(client, result);
    }
    if (result.replayed) await forget();
    return {
      ok: true,
      client,
      token: result.order.publicToken,
      uploadFailed: idPhotoId === null,
      replayed: result.replayed,
    };
  } catch (error) {
    await forget();
    log.error("Could not place an order", { error: rootCauseMessage(error) });
    return failure(client, 500, {}, CHECKOUT_TOASTS.orderError);
  }
}
