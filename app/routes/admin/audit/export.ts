import { auditBy, recordAuditAlone } from "#app/features/audit/audit.server.ts";
import {
  auditCsvStream,
  invalidAuditFilters,
  parseAuditFilters,
} from "#app/features/audit/audit-log.server.ts";
import { requireAdmin } from "#app/features/staff/guard.server.ts";
import { csvDownload } from "#app/utils/csv.ts";
import { storeDay } from "#app/utils/store-time.ts";
import { invalidFiltersResponse } from "#app/utils/url-filters.ts";
import type { Route } from "./+types/export";

/** The audit log's current filter as CSV, streamed; the export is itself recorded (P-27). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  const params = new URL(request.url).searchParams;
  const invalid = invalidAuditFilters(params);
  if (invalid.length > 0) return invalidFiltersResponse(invalid);
  const filters = parseAuditFilters(params);
  await recordAuditAlone(auditBy(admin, context), {
    action: "audit.exported",
    targetType: "audit",
    details: { filters },
  });
  return csvDownload(auditCsvStream(filters), `audit-${storeDay(new Date())}.csv`);
}
