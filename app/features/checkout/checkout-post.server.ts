import {
  FormDataParseError,
  MaxFileSizeExceededError,
  MaxFilesExceededError,
  MaxHeaderSizeExceededError,
  MaxPartsExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  parseFormData,
} from "@remix-run/form-data-parser";
import { UploadRefused } from "#app/features/media/upload-refused.ts";
import { ID_IMAGE_MESSAGES } from "./checkout.schema.ts";
import { MAX_CHECKOUT_BODY_BYTES, MAX_UPLOAD_BYTES } from "./limits.ts";

/** The checkout post's field carrying the ID photo itself (decision 6). */
export const ID_PHOTO_FIELD = "idFront";

export const FORM_UNREADABLE_MESSAGE = "The form could not be read. Please check your details and try again.";

/**
 * Reads a checkout post (multipart or urlencoded) without ever holding more than the limit:
 * a declared length over it is refused before reading, and a streamed body is cut off as soon
 * as the photo passes MAX_UPLOAD_BYTES.
 */
export async function parseCheckoutForm(request: Request): Promise<{ form: FormData; idFront: File | null }> {
  const declared = Number(request.headers.get("Content-Length") ?? "");
  if (Number.isFinite(declared) && declared > MAX_CHECKOUT_BODY_BYTES) {
    throw new UploadRefused(413, ID_IMAGE_MESSAGES.tooLarge);
  }
  let idFront: File | null = null;
  try {
    const form = await parseFormData(
      request,
      {
        maxFiles: 2,
        maxFileSize: MAX_UPLOAD_BYTES,
        maxParts: 100,
        maxTotalSize: MAX_CHECKOUT_BODY_BYTES,
        maxHeaderSize: 8 * 1024,
      },
      async (file) => {
        if (file.fieldName === ID_PHOTO_FIELD && file.size > 0 && !idFront) idFront = file;
        return null;
      },
    );
    return { form, idFront };
  } catch (error) {
    if (error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError) {
      throw new UploadRefused(413, ID_IMAGE_MESSAGES.tooLarge);
    }
    if (
      error instanceof MaxFilesExceededError ||
      error instanceof MaxPartsExceededError ||
      error instanceof MaxHeaderSizeExceededError ||
      error instanceof MultipartParseError ||
      error instanceof FormDataParseError
    ) {
      throw new UploadRefused(400, FORM_UNREADABLE_MESSAGE);
    }
    throw error;
  }
}
