import { auditBy } from "#app/features/audit/audit.server.ts";
import { staffScopeOf } from "#app/features/orders/driver-scope.server.ts";
import { viewIdPhoto } from "#app/features/orders/id-photo-view.server.ts";
import { NO_STORE, requireAdmin } from "#app/features/staff/guard.server.ts";
import type { Route } from "./+types/id-photo";

/**
 * A customer's ID photo (P-6): only behind the admin guard, never cached anywhere; a driver
 * only for orders of their run; every view recorded in the audit log (P-27): the order card's
 * thumbnail (`?view=thumbnail`) once per staff member, order and hour, the photo opened every time.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  const kind = new URL(request.url).searchParams.get("view") === "thumbnail" ? "thumbnail" : "opened";
  const photo = await viewIdPhoto(params.id, staffScopeOf(admin), auditBy(admin, context), { kind });
  if (!photo.ok) {
    const forbidden = photo.reason === "forbidden";
    return new Response(forbidden ? "You don't have access to this page" : "Not found", {
      status: forbidden ? 403 : 404,
      headers: { "Cache-Control": NO_STORE, "Content-Type": "text/plain; charset=utf-8" },
    });
  }
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
