import { NO_STORE, requireAdmin } from "#app/features/admin-auth/guard.server.ts";
import { getIdPhoto } from "#app/features/media/id-photos.server.ts";
import type { Route } from "./+types/id-photo";

/** A customer's ID photo (decision 6): only behind the admin guard, never cached anywhere. */
export async function loader({ params, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const photo = await getIdPhoto(params.id);
  if (!photo) return new Response("Not found", { status: 404, headers: { "Cache-Control": NO_STORE } });
  return new Response(photo.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      "Content-Type": photo.contentType,
      "Content-Length": String(photo.bytes.byteLength),
      "Cache-Control": NO_STORE,
      "Content-Disposition": "inline",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
