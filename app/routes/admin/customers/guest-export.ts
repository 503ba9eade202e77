import { auditBy } from "#app/features/audit/audit.server.ts";
import { exportGuestForStaff } from "#app/features/customers/staff-customers.server.ts";
import { requireAdmin } from "#app/features/staff/guard.server.ts";
import { jsonDownload, privateNotFound } from "#app/routes/shared/private-responses.server.ts";
import type { Route } from "./+types/guest-export";

/** 'Export data' for a guest known only by their orders' e-mail (record 057), audited. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  const email = (new URL(request.url).searchParams.get("email") ?? "").slice(0, 320);
  const exported = await exportGuestForStaff(email, auditBy(admin, context));
  if (!exported) return privateNotFound();
  return jsonDownload(exported, "guest-customer.json");
}
