import {
  consumeBudget,
  idPhotoBudgetMessage,
  retryAfterHeaders,
} from "#app/features/abuse/rate-limits.server.ts";
import { uploadIdPhoto } from "#app/features/checkout/id-photo-upload.server.ts";
import { PRIVATE_NO_STORE } from "#app/utils/cache-headers.ts";
import { requestInfoContext } from "#app/utils/request-context.ts";
import type { Route } from "./+types/id-photo-upload";

const STATUS_OF_PROBLEM = { "too-large": 413, invalid: 400, busy: 503, failed: 500 } as const;

/** The checkout's ID photo, sent as soon as it is picked (P-8). */
export async function action({ request, context }: Route.ActionArgs) {
  // Every upload costs a decode: counted before the body is read (P-29).
  const budget = await consumeBudget("idPhotoUpload", context.get(requestInfoContext).clientAddress);
  if (!budget.ok) {
    return Response.json(
      { error: idPhotoBudgetMessage(budget.retryAfterSeconds) },
      { status: 429, headers: retryAfterHeaders(budget.retryAfterSeconds) },
    );
  }
  const result = await uploadIdPhoto(request);
  const headers = new Headers(PRIVATE_NO_STORE);
  if (!result.ok && result.retryAfterSeconds) headers.set("Retry-After", String(result.retryAfterSeconds));
  return Response.json(result.ok ? { token: result.token } : { error: result.message }, {
    status: result.ok ? 200 : STATUS_OF_PROBLEM[result.problem],
    headers,
  });
}
