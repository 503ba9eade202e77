import { Link } from "react-router";
import { Difference } from "#app/components/cash/cash-views.tsx";
import { Card } from "#app/components/ui/card.tsx";
import type { CashDifference } from "#app/features/orders/cash-sheet.server.ts";
import { formatStoreDate } from "#app/utils/store-time.ts";

/**
 * The dashboard's 'Cash differences' (P-33): drivers' hand-ins of the last days whose count is not
 * what was expected, each a link to that day's cash report. `null`: they could not be loaded.
 */
export function CashDifferencesPanel({ differences }: { differences: CashDifference[] | null }) {
  return (
    <section aria-labelledby="cash-differences-heading" className="mt-6">
      <Card className="p-5">
        <h2 id="cash-differences-heading" className="mb-3 font-semibold">
          Cash differences (last 7 days)
        </h2>
        {differences === null ? (
          <p className="py-4 text-center text-muted-foreground">Cash sheets could not be loaded.</p>
        ) : differences.length === 0 ? (
          <p className="py-4 text-center text-muted-foreground">Every hand-in matched the cash expected.</p>
        ) : (
          <ul className="divide-y divide-border">
            {differences.map((entry) => (
              <li key={entry.sheetId}>
                <Link
                  to={`/admin/today/cash-report?date=${entry.date}`}
                  className="-mx-2 flex min-h-11 items-center justify-between gap-3 rounded-md px-2 py-2 hover:bg-secondary focus-visible:outline-3 focus-visible:outline-ring"
                >
                  <span className="min-w-0">
                    <span className="block font-medium [overflow-wrap:anywhere]">{entry.driverName}</span>
                    <span className="block text-muted-foreground text-xs">
                      {formatStoreDate(entry.date)} ·{" "}
                      {entry.confirmed ? "drop confirmed" : "not confirmed yet"}
                    </span>
                  </span>
                  <Difference cents={entry.differenceCents} />
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </section>
  );
}
