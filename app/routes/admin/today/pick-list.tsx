import { AdminPageHeader } from "#app/components/admin/page-header.tsx";
import { PickListView, PrintBar } from "#app/components/admin/print-views.tsx";
import { requireAdmin } from "#app/features/admin-auth/guard.server.ts";
import { formatDeliveryDate } from "#app/features/checkout/delivery-slots.ts";
import { getPickList } from "#app/features/orders/day-board.server.ts";
import { boardQuery } from "#app/features/orders/day-board.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import type { Route } from "./+types/pick-list";

export function meta() {
  return [{ title: "Pick list | Admin" }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const query = boardQuery(new URL(request.url), new Date());
  try {
    return { ...query, slots: await getPickList(query.date, { slot: query.slot }), error: null };
  } catch (error) {
    log.error("Failed to fetch the pick list", { error: errorMessage(error) });
    return { ...query, slots: [], error: "Failed to fetch orders" };
  }
}

export default function PickList({ loaderData }: Route.ComponentProps) {
  const { date, slot, slots, error } = loaderData;
  const dayText = formatDeliveryDate(date);
  return (
    <>
      <div className="print:hidden">
        <AdminPageHeader
          title="Pick list"
          description={`${dayText}${slot ? ` · ${slot}` : " · every slot"}: what to pack, summed by product and size.`}
        />
      </div>
      <PrintBar date={date} slot={slot} title="pick list" />
      {error ? (
        <p role="alert" className="py-12 text-center text-destructive">
          {error}
        </p>
      ) : (
        <PickListView dayText={dayText} slots={slots} />
      )}
    </>
  );
}
