import { PickListView, PrintPage } from "#app/components/admin/print-views.tsx";
import { getPickList, loadPrintView } from "#app/features/orders/day-board.server.ts";
import { downstreamQuery } from "#app/features/orders/day-board.ts";
import { requireAdmin } from "#app/features/staff/guard.server.ts";
import { formatStoreDate } from "#app/utils/store-time.ts";
import type { Route } from "./+types/pick-list";

export function meta() {
  return [{ title: "Pick list | Admin" }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const { includePending } = downstreamQuery(new URL(request.url));
  const { failed, ...view } = await loadPrintView(
    request,
    "pick list",
    async (date, slot) => ({ slots: await getPickList(date, { slot, includePending }), includePending }),
    { slots: [], includePending },
  );
  return { ...view, error: failed ? "Failed to fetch orders" : null };
}

export default function PickList({ loaderData }: Route.ComponentProps) {
  const { date, slot, slots, error, includePending } = loaderData;
  const dayText = formatStoreDate(date);
  return (
    <PrintPage
      title="Pick list"
      summary="what to pack, summed by product and size."
      date={date}
      slot={slot}
      error={error}
      includePending={includePending}
    >
      <PickListView dayText={dayText} slots={slots} />
    </PrintPage>
  );
}
