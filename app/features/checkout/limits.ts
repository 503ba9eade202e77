/** Named limits shared by the checkout form, the schema and the server (K-5, K-9; P-6). */

import { MAX_UPLOAD_BYTES } from "#app/features/media/id-image.ts";

/** Room for the text fields of the checkout form beside the photo. */
const CHECKOUT_FIELDS_BYTES = 256 * 1024;

/** The whole checkout (or photo upload) body: the photo and the form's fields. */
export const MAX_CHECKOUT_BODY_BYTES = MAX_UPLOAD_BYTES + CHECKOUT_FIELDS_BYTES;

/** A sane upper bound per cart line: stock is the real limit, this only stops absurd input. */
export const MAX_LINE_QUANTITY = 999;

/** Long enough to finish a checkout after picking the photo, short enough not to keep strangers' IDs. */
export const UNCLAIMED_PHOTO_HOURS = 6;

/**
 * How long a browser keeps the token of a photo it sent ahead: an hour short of the server's
 * deletion, so a resumed checkout does not name a photo that is about to go.
 */
export const SENT_PHOTO_KEPT_HOURS = UNCLAIMED_PHOTO_HOURS - 1;
