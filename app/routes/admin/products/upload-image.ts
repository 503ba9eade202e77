import {
  MaxFileSizeExceededError,
  MaxTotalSizeExceededError,
  parseFormData,
} from "@remix-run/form-data-parser";
import { db } from "#app/db/client.server.ts";
import {
  IMAGE_MESSAGES,
  MAX_PRODUCT_IMAGE_BODY_BYTES,
  MAX_PRODUCT_IMAGE_BYTES,
} from "#app/features/catalog/product.schema.ts";
import { InvalidImageError, storeProductImage } from "#app/features/media/images.server.ts";
import { NO_STORE, requireAdmin } from "#app/features/staff/guard.server.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import type { Route } from "./+types/upload-image";

function json(body: unknown, status = 200) {
  return Response.json(body, { status, headers: { "Cache-Control": NO_STORE } });
}

/**
 * The product form's image upload (behind the admin guard, CSRF in the X-CSRF-Token header):
 * at most 10 MB, checked by content, re-encoded to the storefront's WebP sizes.
 */
export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin(context);
  const declared = Number(request.headers.get("Content-Length") ?? "");
  if (Number.isFinite(declared) && declared > MAX_PRODUCT_IMAGE_BODY_BYTES) {
    return json({ error: IMAGE_MESSAGES.tooLarge.description }, 413);
  }
  let bytes: Uint8Array | null = null;
  try {
    await parseFormData(
      request,
      {
        maxFiles: 1,
        maxFileSize: MAX_PRODUCT_IMAGE_BYTES,
        maxTotalSize: MAX_PRODUCT_IMAGE_BODY_BYTES,
        maxParts: 10,
      },
      async (file) => {
        if (file.fieldName === "image" && file.size > 0) bytes = new Uint8Array(await file.arrayBuffer());
        return null;
      },
    );
  } catch (error) {
    if (error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError) {
      return json({ error: IMAGE_MESSAGES.tooLarge.description }, 413);
    }
    return json({ error: "the upload could not be read" }, 400);
  }
  if (!bytes) return json({ error: IMAGE_MESSAGES.invalidType.description }, 400);
  try {
    const stored = await storeProductImage(await db(), bytes);
    return json(stored, 201);
  } catch (error) {
    if (error instanceof InvalidImageError)
      return json({ error: IMAGE_MESSAGES.invalidType.description }, 400);
    log.error("Product image upload failed", { error: errorMessage(error) });
    return json({ error: "the image could not be stored" }, 500);
  }
}
