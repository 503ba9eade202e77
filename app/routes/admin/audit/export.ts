import { auditBy, recordAuditAlone } from "#app/features/audit/audit.server.ts";
import {
  auditCsvStream,
  invalidAuditFilters,
  parseAuditFilters,
} from "#app/features/audit/audit-log.server.ts";
import { NO_STORE, requireAdmin } from "#app/features/staff/guard.server.ts";
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
  return new Response(auditCsvStream(filters), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="audit-${storeDay(new Date())}.csv"`,
      "Cache-Control": NO_STORE,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
