import { requireAdmin } from "#app/features/admin-auth/guard.server.ts";
import { parseOrderFilters } from "#app/features/orders/order-search.schema.ts";
import { ordersCsvStream } from "#app/features/orders/orders-export.server.ts";
import { storeDay } from "#app/utils/store-time.ts";
import type { Route } from "./+types/export";

/** 'Export CSV': the orders of a list's search and filters (`?scope=incoming|completed&q=…`), streamed. */
export function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const params = new URL(request.url).searchParams;
  const scope = params.get("scope") === "completed" ? "completed" : "incoming";
  const filters = parseOrderFilters(params);
  return new Response(ordersCsvStream(scope, filters), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="orders-${scope}-${storeDay(new Date())}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
