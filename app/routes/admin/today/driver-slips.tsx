import { DriverSlip, PrintPage } from "#app/components/admin/print-views.tsx";
import { getDriverSlips, loadPrintView } from "#app/features/orders/day-board.server.ts";
import { downstreamQuery } from "#app/features/orders/day-board.ts";
import { requireAdmin } from "#app/features/staff/guard.server.ts";
import { formatStoreDate } from "#app/utils/store-time.ts";
import type { Route } from "./+types/driver-slips";

export function meta() {
  return [{ title: "Driver slips | Admin" }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const query = downstreamQuery(new URL(request.url));
  const { failed, ...view } = await loadPrintView(
    request,
    "driver slips",
    async (date, slot) => ({ ...(await getDriverSlips(date, { slot, ...query })), ...query }),
    { slips: [], total: 0, ...query },
  );
  return { ...view, error: failed ? "Failed to fetch orders" : null };
}

export default function DriverSlips({ loaderData }: Route.ComponentProps) {
  const { date, slot, slips, total, error, includePending, orderIds } = loaderData;
  const dayText = formatStoreDate(date);
  return (
    <PrintPage
      title="Driver slips"
      summary="one slip per order still to deliver."
      date={date}
      slot={orderIds ? undefined : slot}
      error={error}
      includePending={orderIds ? null : includePending}
      selected={orderIds?.length}
    >
      {slips.length === 0 ? (
        <p className="py-12 text-center text-muted-foreground">
          {orderIds
            ? "None of the selected orders is still to deliver."
            : `No orders to deliver for ${dayText}.`}
        </p>
      ) : (
        <>
          {total > slips.length ? (
            <p role="status" className="mb-4 rounded-md bg-honey-100 px-3 py-2 text-sm print:hidden">
              Showing the first {slips.length} of {total} slips: print one slot at a time for the rest.
            </p>
          ) : null}
          <div className="grid gap-4 lg:grid-cols-2 print:block">
            {slips.map((order) => (
              <DriverSlip key={order.id} order={order} />
            ))}
          </div>
        </>
      )}
    </PrintPage>
  );
}
