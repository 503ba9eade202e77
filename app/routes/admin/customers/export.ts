import { auditBy } from "#app/features/audit/audit.server.ts";
import { exportCustomerForStaff } from "#app/features/customers/staff-customers.server.ts";
import { NO_STORE, requireAdmin } from "#app/features/staff/guard.server.ts";
import type { Route } from "./+types/export";

/** 'Export data' for a customer's request (record 057): the customer's own download, audited. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  const exported = await exportCustomerForStaff(params.id, auditBy(admin, context));
  if (!exported) {
    return new Response("Not found", {
      status: 404,
      headers: { "Cache-Control": NO_STORE, "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  return new Response(JSON.stringify(exported, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="customer-${params.id.slice(0, 8)}.json"`,
      "Cache-Control": NO_STORE,
    },
  });
}
