import { ID_IMAGE_MESSAGES } from "#app/features/media/id-image.ts";
import { processIdPhoto, storeIdPhoto } from "#app/features/media/id-photos.server.ts";
import { type UploadProblem, UploadRefused } from "#app/features/media/upload-refused.ts";
import { log, rootCauseMessage } from "#app/utils/logger.server.ts";
import { parseCheckoutForm } from "./checkout-post.server.ts";

export type IdPhotoUpload =
  | { ok: true; token: string }
  | { ok: false; problem: UploadProblem | "failed"; message: string; retryAfterSeconds?: number };

/**
 * The ID photo sent as soon as the shopper picks it (P-8): read, checked and re-encoded as
 * on the checkout post, stored privately, and answered with its id as the token the order post
 * names instead of the file. A photo no order claims is deleted by the retention job.
 */
export async function uploadIdPhoto(request: Request): Promise<IdPhotoUpload> {
  try {
    const { idFront } = await parseCheckoutForm(request);
    if (!idFront) return { ok: false, problem: "invalid", message: ID_IMAGE_MESSAGES.required };
    const photo = await processIdPhoto(idFront);
    return { ok: true, token: await storeIdPhoto(photo) };
  } catch (error) {
    if (error instanceof UploadRefused) {
      return {
        ok: false,
        problem: error.problem,
        message: error.message,
        retryAfterSeconds: error.retryAfterSeconds,
      };
    }
    log.error("Could not store an ID photo sent ahead of checkout", { error: rootCauseMessage(error) });
    return {
      ok: false,
      problem: "failed",
      message: "The photo could not be stored now; it will be sent with the order.",
    };
  }
}
