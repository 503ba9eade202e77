import { auditBy } from "#app/features/audit/audit.server.ts";
import { viewDeliverySignature } from "#app/features/orders/delivery-proof.server.ts";
import { NO_STORE, requireAdmin } from "#app/features/staff/guard.server.ts";
import { privateNotFound } from "#app/routes/shared/private-responses.server.ts";
import type { Route } from "./+types/signature";

/**
 * The customer's signature at the door (record 051): behind the admin guard (permission
 * `orders`), never cached, every opening recorded in the audit log.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  const png = await viewDeliverySignature(params.id, auditBy(admin, context));
  if (!png) return privateNotFound();
  return new Response(png as Uint8Array<ArrayBuffer>, {
    headers: {
      "Content-Type": "image/png",
      "Content-Length": String(png.byteLength),
      "Cache-Control": NO_STORE,
      "Content-Disposition": "inline",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
