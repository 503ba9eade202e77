import { Link } from "react-router";
import { PrintPage } from "#app/components/admin/print-views.tsx";
import { CashReportTable } from "#app/components/cash/cash-views.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { listCashSheets } from "#app/features/orders/cash-sheet.server.ts";
import { loadPrintView } from "#app/features/orders/day-board.server.ts";
import { boardHref } from "#app/features/orders/day-board.ts";
import { requireAdmin } from "#app/features/staff/guard.server.ts";
import { formatStoreDate } from "#app/utils/store-time.ts";
import type { Route } from "./+types/cash-report";

export function meta() {
  return [{ title: "Cash report | Admin" }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const { failed, ...view } = await loadPrintView(
    request,
    "cash report",
    async (date) => ({ sheets: await listCashSheets(date) }),
    { sheets: [] },
  );
  return { ...view, error: failed ? "Failed to fetch the cash sheets" : null };
}

/** The daily cash report per driver (P-33): float, collected, change, expected, counted, difference. */
export default function CashReport({ loaderData }: Route.ComponentProps) {
  const { date, sheets, error } = loaderData;
  return (
    <PrintPage
      title="Cash report"
      summary="each driver's cash: float, collected, change given, expected, counted and the difference."
      date={date}
      error={error}
      includePending={null}
    >
      <div className="mb-4 print:hidden">
        <Link
          to={boardHref("/admin/today/cash-report/export", date)}
          reloadDocument
          className={buttonVariants({ variant: "outline" })}
        >
          <Icon name="download" /> Export CSV
        </Link>
      </div>
      <h2 className="mb-3 hidden font-bold text-2xl print:block">Cash report · {formatStoreDate(date)}</h2>
      <CashReportTable sheets={sheets} />
    </PrintPage>
  );
}
