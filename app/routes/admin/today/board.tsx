import { useEffect } from "react";
import { data, Link } from "react-router";
import { BoardDatePicker, BoardSlotSection, ReturningSummary } from "#app/components/admin/day-board.tsx";
import { DriverRoads } from "#app/components/admin/driver-road.tsx";
import { NewOrderAlert } from "#app/components/admin/new-order-alert.tsx";
import { RefreshButton } from "#app/components/admin/orders-screen.tsx";
import { AdminPageHeader } from "#app/components/admin/page-header.tsx";
import { usePolling } from "#app/components/admin/use-polling.ts";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { auditBy } from "#app/features/audit/audit.server.ts";
import { getDeliverySettings, listClosures } from "#app/features/delivery/delivery.server.ts";
import { slotCapacitiesOf } from "#app/features/delivery/delivery-settings.ts";
import { confirmCashDrop } from "#app/features/orders/cash-sheet.server.ts";
import { countPlacedOrders, getDayBoard } from "#app/features/orders/day-board.server.ts";
import { boardHref, boardQuery, downstreamQuery, SLOT_PAGE_ORDERS } from "#app/features/orders/day-board.ts";
import { listActiveDrivers } from "#app/features/orders/driver-assignment.server.ts";
import { getDriversPanel } from "#app/features/orders/driver-road.server.ts";
import { staffScopeOf } from "#app/features/orders/driver-scope.server.ts";
import { todayBoardAction } from "#app/features/orders/order-action.server.ts";
import { adminForm, requireAdmin, requirePermission } from "#app/features/staff/guard.server.ts";
import { can } from "#app/features/staff/permissions.ts";
import { orderActionResponse } from "#app/routes/shared/order-action-response.server.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import { formatCents } from "#app/utils/money.ts";
import { addStoreDays, formatStoreDate, nextDate, storeClock } from "#app/utils/store-time.ts";
import { toast } from "#app/utils/toast-client.ts";
import type { Route } from "./+types/board";

export function meta() {
  return [{ title: "Today | Admin" }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  const now = new Date();
  const query = boardQuery(new URL(request.url), now);
  const scope = staffScopeOf(admin, now);
  // A driver's run is today's only (P-26): another date needs the planning permission.
  if (!query.isToday) requirePermission(context, "today.plan");
  const planning = scope.kind === "all";
  // A driver's run takes confirmed orders; pending ones only when they ask (each says why it waits).
  const includePending = planning || downstreamQuery(new URL(request.url)).includePending;
  const days = {
    previous: addStoreDays(query.date, -1),
    next: nextDate(query.date),
    today: storeClock(now).date,
  };
  try {
    const [board, placed] = [
      await getDayBoard(query.date, {
        slot: query.slot,
        // Places per slot are a planning figure: a driver's run shows only their orders.
        ...(planning ? { capacities: slotCapacitiesOf(await getDeliverySettings(), query.date) } : {}),
        closures: await listClosures(query.date),
        ...(query.slot ? { perSlot: SLOT_PAGE_ORDERS } : {}),
        scope,
        withoutPending: !includePending,
      }),
      planning ? await countPlacedOrders() : null,
    ];
    const drivers = planning ? await listActiveDrivers() : [];
    const { roads, offRoad } = planning
      ? await getDriversPanel(query.date, { isToday: query.isToday, drivers })
      : { roads: [], offRoad: [] };
    return {
      roads,
      offRoad,
      canConfirm: can(admin.role, "cash"),
      ...query,
      ...days,
      board,
      placed,
      planning,
      drivers,
      includePending,
      now: now.toISOString(),
      error: null,
    };
  } catch (error) {
    log.error("Failed to fetch the day's orders", { error: errorMessage(error) });
    return {
      ...query,
      ...days,
      board: null,
      placed: null,
      planning,
      drivers: [],
      roads: [],
      offRoad: [],
      canConfirm: false,
      includePending,
      now: now.toISOString(),
      error: "Failed to fetch orders",
    };
  }
}

/** Status buttons (one home for status changes, within the admin's scope) and driver assignment. */
export async function action({ context }: Route.ActionArgs) {
  const form = adminForm(context);
  if (form.get("intent") === "confirm-drop") {
    const sheetId = form.get("sheetId");
    const result =
      typeof sheetId === "string" && /^[0-9a-f-]{36}$/i.test(sheetId)
        ? await confirmCashDrop(sheetId, auditBy(requireAdmin(context), context))
        : { ok: false as const, message: "No such cash sheet" };
    return result.ok
      ? { ok: true, title: "Success", description: result.message }
      : data({ ok: false, title: "Error", description: result.message }, { status: 409 });
  }
  return orderActionResponse(await todayBoardAction(context));
}

export default function TodayBoard({ loaderData }: Route.ComponentProps) {
  const { board, date, slot, isToday, error, planning } = loaderData;
  const role = planning ? { planning, drivers: loaderData.drivers } : { planning };
  usePolling();
  useEffect(() => {
    if (error) toast.error("Error", { description: error });
  }, [error]);
  const dayText = formatStoreDate(date);
  return (
    <>
      <AdminPageHeader
        title={isToday ? "Today" : dayText}
        description={
          board
            ? `${isToday ? `${dayText} · ` : ""}${board.orders} ${board.orders === 1 ? "order" : "orders"} · ${formatCents(board.toCollectCents)} to collect. Updates on its own.`
            : undefined
        }
      >
        {loaderData.placed !== null ? <NewOrderAlert placed={loaderData.placed} /> : null}
        <RefreshButton />
      </AdminPageHeader>

      {planning ? (
        <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <BoardDatePicker
            date={date}
            previous={loaderData.previous}
            next={loaderData.next}
            today={loaderData.today}
          />
          <div className="flex flex-wrap gap-2">
            <Link
              to={boardHref("/admin/today/pick-list", date, slot)}
              className={buttonVariants({ variant: "outline" })}
            >
              <Icon name="printer" /> Print pick list
            </Link>
            <Link
              to={boardHref("/admin/today/driver-slips", date, slot)}
              className={buttonVariants({ variant: "outline" })}
            >
              <Icon name="printer" /> Print slips
            </Link>
          </div>
        </div>
      ) : (
        <div className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-border bg-card px-4 py-3 text-sm">
          <p>
            {loaderData.includePending
              ? "Showing orders not confirmed yet too: they cannot go out until the shop confirms them."
              : "Your run: confirmed orders. Orders not confirmed yet are left out."}
          </p>
          <Link
            to={loaderData.includePending ? "/admin/today" : "/admin/today?pending=1"}
            className={buttonVariants({ variant: "outline", size: "sm" })}
            role="switch"
            aria-checked={loaderData.includePending}
          >
            {loaderData.includePending ? "Confirmed orders only" : "Show orders not confirmed yet"}
          </Link>
        </div>
      )}

      {planning && !slot ? (
        <DriverRoads
          roads={loaderData.roads}
          offRoad={loaderData.offRoad}
          date={date}
          now={loaderData.now}
          canConfirm={loaderData.canConfirm}
        />
      ) : null}

      {slot ? (
        <Link
          to={boardHref("/admin/today", date)}
          className={buttonVariants({ variant: "link", size: "bare" })}
        >
          <Icon name="arrow-left" /> Every slot of {formatStoreDate(date)}
        </Link>
      ) : null}

      {board === null ? (
        <p className="rounded-lg border border-border border-dashed bg-card px-6 py-16 text-center text-muted-foreground">
          {error}
        </p>
      ) : (
        <>
          {board.orders === 0 && !slot ? (
            <p className="mb-6 rounded-lg border border-border border-dashed bg-card px-6 py-8 text-center text-muted-foreground">
              No orders for {formatStoreDate(date)} yet.
            </p>
          ) : null}
          <ReturningSummary slots={board.slots} />
          <div className="space-y-8">
            {board.slots.map((entry) => (
              <BoardSlotSection
                key={entry.label}
                slot={entry}
                date={date}
                showingOne={Boolean(slot)}
                role={role}
                now={loaderData.now}
              />
            ))}
          </div>
        </>
      )}
    </>
  );
}
