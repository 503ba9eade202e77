import { AdminPageHeader } from "#app/components/admin/page-header.tsx";
import { DriverSlip, PrintBar } from "#app/components/admin/print-views.tsx";
import { requireAdmin } from "#app/features/admin-auth/guard.server.ts";
import { formatDeliveryDate } from "#app/features/checkout/delivery-slots.ts";
import { getDriverSlips } from "#app/features/orders/day-board.server.ts";
import { boardQuery } from "#app/features/orders/day-board.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import type { Route } from "./+types/driver-slips";

export function meta() {
  return [{ title: "Driver slips | Admin" }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const query = boardQuery(new URL(request.url), new Date());
  try {
    return { ...query, ...(await getDriverSlips(query.date, { slot: query.slot })), error: null };
  } catch (error) {
    log.error("Failed to fetch the driver slips", { error: errorMessage(error) });
    return { ...query, slips: [], total: 0, error: "Failed to fetch orders" };
  }
}

export default function DriverSlips({ loaderData }: Route.ComponentProps) {
  const { date, slot, slips, total, error } = loaderData;
  const dayText = formatDeliveryDate(date);
  return (
    <>
      <div className="print:hidden">
        <AdminPageHeader
          title="Driver slips"
          description={`${dayText}${slot ? ` · ${slot}` : " · every slot"}: one slip per order still to deliver.`}
        />
      </div>
      <PrintBar date={date} slot={slot} title="driver slips" />
      {error ? (
        <p role="alert" className="py-12 text-center text-destructive">
          {error}
        </p>
      ) : slips.length === 0 ? (
        <p className="py-12 text-center text-muted-foreground">No orders to deliver for {dayText}.</p>
      ) : (
        <>
          {total > slips.length ? (
            <p role="status" className="mb-4 rounded-md bg-honey-100 px-3 py-2 text-sm print:hidden">
              Showing the first {slips.length} of {total} slips: print one slot at a time for the rest.
            </p>
          ) : null}
          <div className="grid gap-4 lg:grid-cols-2 print:block">
            {slips.map((order) => (
              <DriverSlip key={order.id} order={order} dayText={dayText} />
            ))}
          </div>
        </>
      )}
    </>
  );
}
