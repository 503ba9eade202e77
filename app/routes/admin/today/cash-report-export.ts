import { cashReportCsv, listCashSheets } from "#app/features/orders/cash-sheet.server.ts";
import { boardQuery } from "#app/features/orders/day-board.ts";
import { requireAdmin } from "#app/features/staff/guard.server.ts";
import { csvDownload } from "#app/utils/csv.ts";
import type { Route } from "./+types/cash-report-export";

/** The daily cash report per driver as CSV (`?date=yyyy-MM-dd`, today by default). */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const { date } = boardQuery(new URL(request.url), new Date());
  return csvDownload(cashReportCsv(await listCashSheets(date)), `cash-report-${date}.csv`);
}
