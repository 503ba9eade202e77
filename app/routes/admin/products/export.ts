import { auditBy, recordAuditAlone } from "#app/features/audit/audit.server.ts";
import { exportCatalogCsv } from "#app/features/catalog/catalog-csv.server.ts";
import { requireAdmin } from "#app/features/staff/guard.server.ts";
import { csvDownload } from "#app/utils/csv.ts";
import { storeDay } from "#app/utils/store-time.ts";
import type { Route } from "./+types/export";

/** The whole catalogue as CSV, in the import's format (record 027). */
export async function loader({ context }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  const csv = await exportCatalogCsv();
  await recordAuditAlone(auditBy(admin, context), { action: "catalogue.exported", targetType: "catalogue" });
  return csvDownload(csv, `catalogue-${storeDay(new Date())}.csv`);
}
