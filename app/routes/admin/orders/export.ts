import { invalidOrderFilters, parseOrderFilters } from "#app/features/orders/order-search.schema.ts";
import { exportedFilters, ordersCsvStream } from "#app/features/orders/orders-export.server.ts";
import { filteredCsvExport } from "#app/routes/shared/filtered-export.server.ts";
import type { Route } from "./+types/export";

/** 'Export CSV': the orders of a list's search and filters (`?scope=incoming|completed&q=…`), streamed. */
export async function loader(args: Route.LoaderArgs) {
  const scope =
    new URL(args.request.url).searchParams.get("scope") === "completed" ? "completed" : "incoming";
  return filteredCsvExport(args, {
    invalid: invalidOrderFilters,
    parse: parseOrderFilters,
    audit: (filters) => ({
      action: "orders.exported",
      targetType: "orders",
      details: { scope, filters: exportedFilters(filters) },
    }),
    csv: (filters) => ordersCsvStream(scope, filters),
    fileName: `orders-${scope}`,
  });
}
