/** Named limits shared by the checkout form, the schema and the server (K-5, K-9; P-6). */

import { MAX_UPLOAD_BYTES } from "#app/features/media/id-image.ts";

/** Room for the text fields of the checkout form beside the photo. */
const CHECKOUT_FIELDS_BYTES = 256 * 1024;

/** The whole checkout (or photo upload) body: the photo and the form's fields. */
export const MAX_CHECKOUT_BODY_BYTES = MAX_UPLOAD_BYTES + CHECKOUT_FIELDS_BYTES;

/** A sane upper bound per cart line: stock is the real limit, this only stops absurd input. */
export const MAX_LINE_QUANTITY = 999;
