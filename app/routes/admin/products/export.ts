import { auditBy, recordAuditAlone } from "#app/features/audit/audit.server.ts";
import { exportCatalogCsv } from "#app/features/catalog/catalog-csv.server.ts";
import { NO_STORE, requireAdmin } from "#app/features/staff/guard.server.ts";
import { storeDay } from "#app/utils/store-time.ts";
import type { Route } from "./+types/export";

/** The whole catalogue as CSV, in the import's format (record 027). */
export async function loader({ context }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  const csv = await exportCatalogCsv();
  await recordAuditAlone(auditBy(admin, context), { action: "catalogue.exported", targetType: "catalogue" });
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="catalogue-${storeDay(new Date())}.csv"`,
      "Cache-Control": NO_STORE,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
