import { auditBy } from "#app/features/audit/audit.server.ts";
import { exportCustomerForStaff } from "#app/features/customers/staff-customers.server.ts";
import { requireAdmin } from "#app/features/staff/guard.server.ts";
import { jsonDownload, privateNotFound } from "#app/routes/shared/private-responses.server.ts";
import type { Route } from "./+types/export";

/** 'Export data' for a customer's request (record 057): the customer's own download, audited. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  const exported = await exportCustomerForStaff(params.id, auditBy(admin, context));
  if (!exported) return privateNotFound();
  return jsonDownload(exported, `customer-${params.id.slice(0, 8)}.json`);
}
