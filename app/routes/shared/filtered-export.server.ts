/**
 * A filtered list's CSV export (the order lists, the audit log): the URL's filters, refused with a
 * 400 naming them when given but not valid, then the export recorded in the audit log (P-27), then
 * the CSV streamed.
 */
import type { RouterContextProvider } from "react-router";
import { type AuditEntry, auditBy, recordAuditAlone } from "#app/features/audit/audit.server.ts";
import { requireAdmin } from "#app/features/staff/guard.server.ts";
import { csvDownload } from "#app/utils/csv.ts";
import { storeDay } from "#app/utils/store-time.ts";
import { invalidFiltersResponse } from "#app/utils/url-filters.ts";

export async function filteredCsvExport<Filters>(
  { request, context }: { request: Request; context: Readonly<RouterContextProvider> },
  list: {
    invalid: (params: URLSearchParams) => string[];
    parse: (params: URLSearchParams) => Filters;
    audit: (filters: Filters) => AuditEntry;
    csv: (filters: Filters) => BodyInit;
    /** The file's name before its store day: `audit` gives `audit-2026-11-27.csv`. */
    fileName: string;
  },
) {
  const admin = requireAdmin(context);
  const params = new URL(request.url).searchParams;
  // Before the stream starts: once it has, a refused query can only cut the download short.
  const invalid = list.invalid(params);
  if (invalid.length > 0) return invalidFiltersResponse(invalid);
  const filters = list.parse(params);
  await recordAuditAlone(auditBy(admin, context), list.audit(filters));
  return csvDownload(list.csv(filters), `${list.fileName}-${storeDay(new Date())}.csv`);
}
