import { auditBy, recordAuditAlone } from "#app/features/audit/audit.server.ts";
import { invalidOrderFilters, parseOrderFilters } from "#app/features/orders/order-search.schema.ts";
import { exportedFilters, ordersCsvStream } from "#app/features/orders/orders-export.server.ts";
import { requireAdmin } from "#app/features/staff/guard.server.ts";
import { csvDownload } from "#app/utils/csv.ts";
import { storeDay } from "#app/utils/store-time.ts";
import { invalidFiltersResponse } from "#app/utils/url-filters.ts";
import type { Route } from "./+types/export";

/** 'Export CSV': the orders of a list's search and filters (`?scope=incoming|completed&q=…`), streamed. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  const params = new URL(request.url).searchParams;
  const scope = params.get("scope") === "completed" ? "completed" : "incoming";
  // Before the stream starts: once it has, a refused query can only cut the download short.
  const invalid = invalidOrderFilters(params);
  if (invalid.length > 0) return invalidFiltersResponse(invalid);
  const filters = parseOrderFilters(params);
  await recordAuditAlone(auditBy(admin, context), {
    action: "orders.exported",
    targetType: "orders",
    details: { scope, filters: exportedFilters(filters) },
  });
  return csvDownload(ordersCsvStream(scope, filters), `orders-${scope}-${storeDay(new Date())}.csv`);
}
