/**
 * The checkout submit, from raw request to placed order (K-4 'Order sequence on submit',
 * K-5, K-8). The route calls this and only turns the result into a response. Every post is checked
 * here the same way, whether it came from the page, a plain HTML form or a crafted request.
 */

import { db } from "#app/db/client.server.ts";
import {
  isDatabaseUnavailable,
  noteDatabaseUnavailable,
  RETRY_AFTER_SECONDS,
} from "#app/db/database-unavailable.server.ts";
import {
  consumeBudget,
  idPhotoBudgetMessage,
  orderBudgetOf,
  waitPhrase,
} from "#app/features/abuse/rate-limits.server.ts";
import {
  type CustomerSession,
  findCustomerSession,
  hashCustomerToken,
  type StoredCustomerSession,
  settleCustomerSession,
} from "#app/features/customers/customer-sessions.server.ts";
import { ID_IMAGE_MESSAGES } from "#app/features/media/id-image.ts";
import {
  idOnFileOf,
  KEEP_ID_FIELD,
  keepIdOnFile,
  photoFromFile,
} from "#app/features/media/id-on-file.server.ts";
import {
  checkIdPhotoBytes,
  deleteIdPhotos,
  idPhotoTokenOf,
  type ProcessedIdPhoto,
  processIdPhoto,
  storeIdPhoto,
} from "#app/features/media/id-photos.server.ts";
import { UploadRefused } from "#app/features/media/upload-refused.ts";
import { config } from "#app/utils/env.server.ts";
import { log, rootCauseMessage } from "#app/utils/logger.server.ts";
import { metrics } from "#app/utils/metrics.server.ts";
import { normalizePhone } from "#app/utils/phone.server.ts";
import { PHONE_INVALID_MESSAGE } from "#app/utils/phone.ts";
import { z } from "#app/utils/zod.ts";
import {
  checkoutSchema,
  checkoutValues,
  type FieldErrors,
  fieldErrorsOf,
  outOfStockToast,
  type StockShortfall,
} from "./checkout.schema.ts";
import { AnsweredBeforePhoto, ID_PHOTO_FIELD, parseCheckoutForm } from "./checkout-post.server.ts";
import {
  checkCode,
  codeRequired,
  contactOf,
  readVerificationMode,
  sendCode,
  verifiedOnDevice,
} from "./contact-verification.server.ts";
import {
  CODE_FIELD,
  CODE_LENGTH,
  CODE_MESSAGES,
  CODE_STEP_FIELD,
  codeSentText,
  RESEND_FIELD,
} from "./contact-verification.ts";
import {
  commitOrder,
  type PlaceOrderRefusal,
  type PreparedOrder,
  prepareOrder,
} from "./place-order.server.ts";

export type CheckoutClient = "js" | "html";

export type CheckoutSuccess = {
  ok: true;
  client: CheckoutClient;
  token: string;
  replayed: boolean;
  /** A contact this post verified with its code: the route remembers it on the device (P-36). */
  verifiedContact?: string;
};

/**
 * Why the post placed no order, in terms of the shop: the route gives each its status code and toast.
 * A `message` is the words the form shows under its field, which the toast repeats.
 */
export type CheckoutRefusal =
  | { kind: "age" | "cart-empty" | "check-details" | "order-error" | "order-unavailable" }
  | { kind: "too-many-orders" }
  | { kind: "minimum"; totalCents: number; minimumCents: number }
  | { kind: "out-of-stock"; itemName: string; left: number }
  | { kind: "photo-refused"; problem: "too-large" | "invalid"; message: string }
  /** P-36: a code went to the order's phone (or e-mail); the form asks for it. */
  | { kind: "code-sent"; message: string; channel: "sms" | "email" }
  | { kind: "code-refused" | "too-many-codes"; message: string }
  | {
      kind:
        | "too-many-photos"
        | "photo-unavailable"
        | "open-orders"
        | "delivery-area"
        | "slot-full"
        | "pay-with"
        | "purchase-limit"
        | "unavailable"
        | "delivery";
      message: string;
    };

export type CheckoutFailure = {
  ok: false;
  client: CheckoutClient;
  refusal: CheckoutRefusal;
  fieldErrors: FieldErrors;
  /** With too many orders or photos, or the database away: when the shopper can send the same form again. */
  retryAfterSeconds?: number;
  /** Why no order was placed, for the `orders_refused_total` metric. */
  reason: RefusalReason;
  /** The line the stock no longer covers: the cart offers to reduce it (record 026). */
  shortfall?: StockShortfall;
  /** The code step without JavaScript: the post's text fields, for its form to send again. */
  keptFields?: Array<[string, string]>;
};

export type RefusalReason =
  | PlaceOrderRefusal["reason"]
  | "code"
  | "invalid"
  | "photo"
  | "rate-limit"
  | "db-unavailable"
  | "error";

export type CheckoutResult = CheckoutSuccess | CheckoutFailure;

/**
 * The browser's schema, and the phone number checked against libphonenumber and written as E.164:
 * the form every later comparison (open orders per phone), search and the stored order use.
 */
const serverCheckoutSchema = checkoutSchema.extend({
  phone: checkoutSchema.shape.phone.transform((value, context) => {
    const phone = normalizePhone(value);
    if (phone) return phone;
    context.addIssue({ code: "custom", message: PHONE_INVALID_MESSAGE });
    return z.NEVER;
  }),
});

export type CheckoutDependencies = {
  /** The client's address as the server sees it (TRUST_PROXY decides): its hourly order budget. */
  clientAddress: string;
  /** The request's Cookie header: the contacts verified on this device (P-36). */
  cookieHeader?: string | null;
  /**
   * The customer cookie's token (record 053), absent for a guest. A signed-in customer's order is
   * theirs from the start, their ID on file stands in for the upload (record 058), and the e-mail
   * address they signed in with needs no code. The session is read with the order's context, in
   * the same statement, unless something needs it before.
   */
  customerToken?: string | null;
  now?: Date;
  /** Where the re-encoded photo goes; the default stores it in `id_photos`. */
  storePhoto?: (photo: ProcessedIdPhoto) => Promise<string>;
};

type SignedInCustomer = ReturnType<typeof signedInCustomer>;

/**
 * The signed-in customer behind the cookie's token, read once: with the order's context
 * (`readWith`, no round trip of its own), or on its own when something needs it first.
 */
function signedInCustomer(token: string | null, now: Date) {
  const tokenHash = token ? hashCustomerToken(token) : null;
  let read: Promise<CustomerSession | null> | undefined;
  return {
    tokenHash,
    readWith(stored: StoredCustomerSession | null) {
      if (tokenHash)
        read ??= db().then((database) => settleCustomerSession(database, tokenHash, stored, now));
    },
    session(): Promise<CustomerSession | null> {
      read ??= token
        ? db().then((database) => findCustomerSession(database, token, now))
        : Promise.resolve(null);
      return read;
    },
  };
}

function failure(
  client: CheckoutClient,
  refusal: CheckoutRefusal,
  fieldErrors: FieldErrors = {},
  reason: RefusalReason = "invalid",
): CheckoutFailure {
  return { ok: false, client, refusal, fieldErrors, reason };
}

/** A refusal said under `field` (when there is one) and, by the route, in an error toast. */
function refusedWith(
  client: CheckoutClient,
  kind: Extract<CheckoutRefusal, { message: string }>["kind"] & string,
  field: string | null,
  message: string,
): CheckoutFailure {
  const refusal = { kind, message } as CheckoutRefusal;
  return failure(client, refusal, field ? { [field]: message } : {});
}

/** P-29's refusal of a third open order, in words that say what to do next. */
export function openOrdersMessage(contact: "email" | "phone", limit: number) {
  const what = contact === "email" ? "this email address" : "this phone number";
  return `You already have ${limit} open order${limit === 1 ? "" : "s"} with ${what}. We can take a new one once one of them is delivered — or call us at ${config().STORE_PHONE}.`;
}

function tooManyOrders(client: CheckoutClient, retryAfterSeconds: number): CheckoutFailure {
  return { ...failure(client, { kind: "too-many-orders" }, {}, "rate-limit"), retryAfterSeconds };
}

/** More ID photos from this address in the hour than ID_UPLOADS_PER_HOUR: none is decoded. */
function tooManyPhotos(client: CheckoutClient, retryAfterSeconds: number): CheckoutFailure {
  const message = idPhotoBudgetMessage(retryAfterSeconds);
  return {
    ...failure(client, { kind: "too-many-photos", message }, { [ID_PHOTO_FIELD]: message }, "rate-limit"),
    retryAfterSeconds,
  };
}

/** An order that could not be placed for a reason of ours: the shopper's form stays as it is. */
function orderFailed(client: CheckoutClient, error: unknown): CheckoutFailure {
  if (isDatabaseUnavailable(error)) return orderUnavailable(client, error);
  log.error("Could not place an order", { error: rootCauseMessage(error) });
  return failure(client, { kind: "order-error" }, {}, "error");
}

/** The database is away: Retry-After, counted in the outage's log line, not one per post. */
function orderUnavailable(client: CheckoutClient, error: unknown): CheckoutFailure {
  noteDatabaseUnavailable(error);
  return {
    ...failure(client, { kind: "order-unavailable" }, {}, "db-unavailable"),
    retryAfterSeconds: RETRY_AFTER_SECONDS,
  };
}

/** The photo was refused (size, type, unreadable), or could not be checked now. */
function photoFailure(client: CheckoutClient, error: UploadRefused): CheckoutFailure {
  if (error.problem === "busy") {
    return {
      ...failure(client, { kind: "photo-unavailable", message: error.message }, {}, "db-unavailable"),
      retryAfterSeconds: error.retryAfterSeconds,
    };
  }
  return failure(
    client,
    {
      kind: "photo-refused",
      problem: error.problem,
      message: error.message,
    },
    { [ID_PHOTO_FIELD]: error.message },
    "photo",
  );
}

function refusalToFailure(client: CheckoutClient, refusal: PlaceOrderRefusal): CheckoutFailure {
  return { ...refusalFailure(client, refusal), reason: refusal.reason };
}

function refusalFailure(client: CheckoutClient, refusal: PlaceOrderRefusal): CheckoutFailure {
  switch (refusal.reason) {
    case "order-budget":
      log.warn("Checkout refused: hourly order budget used up");
      return tooManyOrders(client, refusal.retryAfterSeconds);
    case "open-orders":
      return refusedWith(
        client,
        "open-orders",
        refusal.contact,
        openOrdersMessage(refusal.contact, refusal.limit),
      );
    case "photo-claimed":
      return failure(client, { kind: "check-details" }, { [ID_PHOTO_FIELD]: ID_IMAGE_MESSAGES.required });
    case "empty-cart":
      return failure(client, { kind: "cart-empty" });
    case "minimum":
      return failure(client, {
        kind: "minimum",
        totalCents: refusal.totalCents,
        minimumCents: refusal.minimumCents,
      });
    case "delivery-area":
      return refusedWith(client, "delivery-area", "zipCode", refusal.message);
    case "slot-full":
      return refusedWith(client, "slot-full", "timeSlot", refusal.message);
    case "pay-with":
      return refusedWith(client, "pay-with", "payWith", refusal.message);
    case "purchase-limit":
      return refusedWith(client, "purchase-limit", null, refusal.message);
    case "out-of-stock":
      return {
        ...failure(client, { kind: "out-of-stock", itemName: refusal.itemName, left: refusal.left }),
        shortfall: refusal.productId
          ? {
              productId: refusal.productId,
              sizeId: refusal.sizeId,
              left: refusal.left,
              message: outOfStockToast(refusal.itemName, refusal.left).description,
            }
          : undefined,
      };
    case "unavailable":
      return refusedWith(
        client,
        "unavailable",
        null,
        `${refusal.itemName ?? "An item in your cart"} is no longer available. Please update your cart.`,
      );
    case "delivery":
      return refusedWith(client, "delivery", refusal.field, refusal.message);
  }
}

export async function submitCheckout(
  request: Request,
  dependencies: CheckoutDependencies,
): Promise<CheckoutResult> {
  const result = await checkout(request, dependencies);
  if (!result.ok) metrics().ordersRefused.inc({ reason: result.reason });
  else if (!result.replayed) metrics().ordersPlaced.inc();
  return result;
}

async function checkout(request: Request, dependencies: CheckoutDependencies): Promise<CheckoutResult> {
  const now = dependencies.now ?? new Date();
  const signedIn = signedInCustomer(dependencies.customerToken ?? null, now);
  const budget = orderBudgetOf(dependencies.clientAddress);
  // A multipart post with the photo in it (no JavaScript): the fields sent before the photo are
  // checked and the order prepared as soon as the photo's part begins. A refusal (or an order
  // already placed) is answered then, without reading the rest of the photo or parsing it.
  let early: { values: string; prepared: PreparedOrder } | undefined;
  const beforePhoto = async (fields: FormData) => {
    const values = checkoutValues(fields);
    const parsed = serverCheckoutSchema.safeParse(values);
    if (!parsed.success || parsed.data.items.length === 0) return undefined;
    const prepared = await prepareOrder(parsed.data, {
      now,
      photoToken: null,
      budget,
      sessionTokenHash: signedIn.tokenHash,
    }).catch(() => null);
    if (!prepared) return undefined;
    const client: CheckoutClient = fields.get("_client") === "js" ? "js" : "html";
    if (prepared.ok && prepared.replay) {
      return {
        ok: true,
        client,
        token: prepared.replay.publicToken,
        replayed: true,
      } satisfies CheckoutSuccess;
    }
    if (!prepared.ok) return refusalToFailure(client, prepared);
    early = { values: JSON.stringify(values), prepared };
    return undefined;
  };
  let form: FormData;
  let idFront: Uint8Array | null;
  try {
    ({ form, idFront } = await parseCheckoutForm(request, { beforePhoto }));
  } catch (error) {
    if (error instanceof AnsweredBeforePhoto) return error.answer as CheckoutResult;
    if (error instanceof UploadRefused) return photoFailure("js", error);
    throw error;
  }
  const client: CheckoutClient = form.get("_client") === "js" ? "js" : "html";

  // K-5 order: the age box, then the cart, then the fields.
  const parsed = serverCheckoutSchema.safeParse(checkoutValues(form));
  const fieldErrors: FieldErrors = parsed.success ? {} : fieldErrorsOf(parsed.error);
  // With JavaScript the photo went ahead (P-8) and the post names it; without, it is here.
  const photoToken = idFront ? null : idPhotoTokenOf(form);
  // No photo with the post: a signed-in customer's verified, unexpired ID on file stands in (record 058).
  let fromFile = false;
  if (!idFront && !photoToken) {
    try {
      const customer = await signedIn.session();
      if (customer) fromFile = (await idOnFileOf(customer.customerId, now)) !== null;
    } catch (error) {
      return orderFailed(client, error);
    }
  }
  if (!idFront && !photoToken && !fromFile) fieldErrors.idFront = ID_IMAGE_MESSAGES.required;
  if (fieldErrors.ageConfirmed) return failure(client, { kind: "age" }, fieldErrors);
  if (parsed.success && parsed.data.items.length === 0) {
    return failure(client, { kind: "cart-empty" }, fieldErrors);
  }
  if (!parsed.success || (!idFront && !photoToken && !fromFile)) {
    return failure(client, { kind: "check-details" }, fieldErrors);
  }
  const input = parsed.data;

  // One read: a retry or a double submit of an order already placed gets that order back and
  // stores nothing; otherwise the cart is priced from the database and everything that does not
  // need the photo is decided (hourly order budget, delivery date, slot and zone, sizes on sale,
  // purchase limits, minimum, stock, open orders), so a refused post never decodes its photo.
  // The order budget (P-29) is spent by the order's own statement: only an order placed
  // counts, so a shopper fixing a typo spends nothing. place_order decides again, atomically.
  let prepared: PreparedOrder;
  try {
    // The fields read before the photo are the form's first values, so the same input.
    prepared =
      idFront && early?.values === JSON.stringify(checkoutValues(form))
        ? early.prepared
        : await prepareOrder(input, { now, photoToken, budget, sessionTokenHash: signedIn.tokenHash });
  } catch (error) {
    return orderFailed(client, error);
  }
  if (prepared.ok && prepared.replay) {
    return { ok: true, client, token: prepared.replay.publicToken, replayed: true };
  }
  if (!prepared.ok) return refusalToFailure(client, prepared);
  signedIn.readWith(prepared.customerSession);

  // The code (P-36) after every cheap refusal and before the photo is read: a post without the
  // right code costs no decode.
  let verifiedContact: string | undefined;
  try {
    const gate = await codeGate(form, input, client, dependencies, signedIn, now);
    if (gate && "ok" in gate) return gate;
    verifiedContact = gate?.verified;
  } catch (error) {
    return orderFailed(client, error);
  }

  let idPhotoId: string | null = null;
  let storedHere = false;
  if (idFront) {
    let photo: ProcessedIdPhoto;
    try {
      checkIdPhotoBytes(idFront);
      // Every decode counts against the address's ID photo budget, as an upload sent ahead does,
      // whether or not the order is then placed.
      const photoBudget = await consumeBudget("idPhotoUpload", dependencies.clientAddress);
      if (!photoBudget.ok) return tooManyPhotos(client, photoBudget.retryAfterSeconds);
      photo = await processIdPhoto(idFront);
    } catch (error) {
      if (error instanceof UploadRefused) return photoFailure(client, error);
      throw error;
    }
    // Unlike the first shop ('Order will continue without image', K-4), no order is
    // placed without its ID photo. The shopper keeps the form and the photo and tries again.
    try {
      idPhotoId = await (dependencies.storePhoto ?? ((value) => storeIdPhoto(value)))(photo);
      storedHere = true;
    } catch (error) {
      if (isDatabaseUnavailable(error)) return orderUnavailable(client, error);
      log.error("Could not store an ID photo; the order was not placed", { error: rootCauseMessage(error) });
      return {
        ...failure(client, { kind: "order-unavailable" }, {}, "db-unavailable"),
        retryAfterSeconds: RETRY_AFTER_SECONDS,
      };
    }
  } else if (fromFile) {
    // The order's own copy of the photo on file: viewed, audited and deleted with the order.
    try {
      const customer = await signedIn.session();
      idPhotoId = customer ? await photoFromFile(customer.customerId, now) : null;
    } catch (error) {
      return orderFailed(client, error);
    }
    if (!idPhotoId) {
      return failure(client, { kind: "check-details" }, { [ID_PHOTO_FIELD]: ID_IMAGE_MESSAGES.required });
    }
    storedHere = true;
  } else {
    // The photo sent ahead is gone (deleted unclaimed, or the token was made up): ask for it again.
    if (!prepared.sentPhotoId) {
      return failure(client, { kind: "check-details" }, { [ID_PHOTO_FIELD]: ID_IMAGE_MESSAGES.required });
    }
    idPhotoId = prepared.sentPhotoId;
  }

  // A photo sent ahead stays for a corrected resubmit; one stored by this request goes with it.
  const forget = async () => {
    if (storedHere && idPhotoId) await deleteIdPhotos([idPhotoId]).catch(() => {});
  };

  try {
    const customerId = (await signedIn.session())?.customerId ?? null;
    const result = await commitOrder({ ...input, idPhotoId, budget, customerId }, prepared.quote, { now });
    if (!result.ok) {
      await forget();
      return refusalToFailure(client, result);
    }
    if (result.replayed) await forget();
    else if (customerId && !fromFile && idPhotoId && form.get(KEEP_ID_FIELD) === "on") {
      // The order is placed either way: a photo not kept is asked for again next time.
      await keepIdOnFile({ customerId, orderId: result.order.id, photoId: idPhotoId }).catch((error) =>
        log.error("Could not keep an ID on file", { error: rootCauseMessage(error) }),
      );
    }
    return {
      ok: true,
      client,
      token: result.order.publicToken,
      replayed: result.replayed,
      verifiedContact,
    };
  } catch (error) {
    await forget();
    return orderFailed(client, error);
  }
}

/**
 * P-36: whether this order may go on without a code, and if not, the code sent or checked. Returns
 * null (no code needed), `{ verified }` (the right code: the route remembers the contact on the
 * device) or the failure to answer with.
 */
async function codeGate(
  form: FormData,
  input: { phone: string; email: string },
  client: CheckoutClient,
  dependencies: CheckoutDependencies,
  signedIn: SignedInCustomer,
  now: Date,
): Promise<CheckoutFailure | { verified: string } | null> {
  if (!(await codeRequired(await readVerificationMode(), input.phone))) return null;
  const who = contactOf(input);
  // A signed-in customer's e-mail address was verified by signing in (record 053).
  const customer = await signedIn.session();
  if (customer && customer.email.trim().toLowerCase() === who.contact) return null;
  if (await verifiedOnDevice(dependencies.cookieHeader ?? null, who.contact, now)) return null;
  // Without JavaScript the code step is a page of its own: it posts the shopper's fields again.
  const withKept = (result: CheckoutFailure): CheckoutFailure =>
    client === "html" ? { ...result, keptFields: keptFields(form) } : result;
  const typed = form.get(CODE_FIELD);
  const code = typeof typed === "string" ? typed.replace(/\s/g, "") : "";
  const asked = form.get(RESEND_FIELD) !== null || (!code && form.get(CODE_STEP_FIELD) === null);
  if (asked) {
    const sent = await sendCode(who, { clientAddress: dependencies.clientAddress, now });
    if (!sent.ok) {
      const message = `Too many codes asked for. Please try again in ${waitPhrase(sent.retryAfterSeconds)}, or call us at ${config().STORE_PHONE}.`;
      return {
        ...failure(client, { kind: "too-many-codes", message }, { [CODE_FIELD]: message }, "rate-limit"),
        retryAfterSeconds: sent.retryAfterSeconds,
      };
    }
    const message = codeSentText(sent.channel, sent.to);
    return withKept(failure(client, { kind: "code-sent", message, channel: sent.channel }, {}, "code"));
  }
  const refused = (message: string) =>
    withKept(failure(client, { kind: "code-refused", message }, { [CODE_FIELD]: message }, "code"));
  if (!new RegExp(`^\\d{${CODE_LENGTH}}$`).test(code)) return refused(CODE_MESSAGES.format);
  const checked = await checkCode(who.contact, code, { now });
  if (checked.ok) return { verified: who.contact };
  if (checked.problem === "wrong") return refused(CODE_MESSAGES.wrong(checked.triesLeft));
  return refused(CODE_MESSAGES[checked.problem]);
}

const NOT_KEPT = new Set([CODE_FIELD, RESEND_FIELD, CODE_STEP_FIELD, ID_PHOTO_FIELD, "_client"]);

function keptFields(form: FormData): Array<[string, string]> {
  const kept: Array<[string, string]> = [];
  for (const [name, value] of form) {
    if (typeof value === "string" && !NOT_KEPT.has(name)) kept.push([name, value]);
  }
  return kept;
}
