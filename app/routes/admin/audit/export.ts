import {
  auditCsvStream,
  invalidAuditFilters,
  parseAuditFilters,
} from "#app/features/audit/audit-log.server.ts";
import { filteredCsvExport } from "#app/routes/shared/filtered-export.server.ts";
import type { Route } from "./+types/export";

/** The audit log's current filter as CSV, streamed; the export is itself recorded (P-27). */
export async function loader(args: Route.LoaderArgs) {
  return filteredCsvExport(args, {
    invalid: invalidAuditFilters,
    parse: parseAuditFilters,
    audit: (filters) => ({ action: "audit.exported", targetType: "audit", details: { filters } }),
    csv: auditCsvStream,
    fileName: "audit",
  });
}
