import { auditBy } from "#app/features/audit/audit.server.ts";
import { exportGuestForStaff } from "#app/features/customers/staff-customers.server.ts";
import { NO_STORE, requireAdmin } from "#app/features/staff/guard.server.ts";
import type { Route } from "./+types/guest-export";

/** 'Export data' for a guest known only by their orders' e-mail (record 057), audited. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  const email = (new URL(request.url).searchParams.get("email") ?? "").slice(0, 320);
  const exported = await exportGuestForStaff(email, auditBy(admin, context));
  if (!exported) {
    return new Response("Not found", {
      status: 404,
      headers: { "Cache-Control": NO_STORE, "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  return new Response(JSON.stringify(exported, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": 'attachment; filename="guest-customer.json"',
      "Cache-Control": NO_STORE,
    },
  });
}
