import { uploadIdPhoto } from "#app/features/media/id-photos.server.ts";
import type { Route } from "./+types/id-photo-upload";

/** The checkout's ID photo, sent as soon as it is picked (decision 8). */
export async function action({ request }: Route.ActionArgs) {
  const result = await uploadIdPhoto(request);
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  if (!result.ok && result.retryAfterSeconds) headers.set("Retry-After", String(result.retryAfterSeconds));
  return Response.json(result.ok ? { token: result.token } : { error: result.message }, {
    status: result.ok ? 200 : result.status,
    headers,
  });
}
