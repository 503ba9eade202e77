/**
 * The today board's drivers (record 052): per driver, the stops done, failed and left, the cash
 * expected back (or the hand-in's difference), 'Confirm drop' for a manager or owner, the run's
 * manifests and the last time their phone synced (record 050), with the changes it still held; on
 * today's board also the phones of the active drivers without a road. A plain form: it works
 * without JavaScript.
 */
import { Link, useFetcher } from "react-router";
import { Difference, sheetFigures, storeTimeText } from "#app/components/cash/cash-views.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { boardHref } from "#app/features/orders/day-board.ts";
import type { DriverPhone, DriverRoad } from "#app/features/orders/driver-road.server.ts";
import { formatCents } from "#app/utils/money.ts";
import { storeDay } from "#app/utils/store-time.ts";
import { CsrfInput } from "./csrf.tsx";
import { type ToastResult, useResultToast } from "./use-result-toast.ts";

function ConfirmDrop({ sheetId, name }: { sheetId: string; name: string }) {
  const fetcher = useFetcher<ToastResult>();
  useResultToast(fetcher.data);
  return (
    <fetcher.Form method="post">
      <CsrfInput />
      <input type="hidden" name="intent" value="confirm-drop" />
      <input type="hidden" name="sheetId" value={sheetId} />
      <button
        type="submit"
        disabled={fetcher.state !== "idle"}
        className={buttonVariants({ size: "sm" })}
        aria-label={`Confirm the cash drop of ${name}`}
      >
        Confirm drop
      </button>
    </fetcher.Form>
  );
}

function Cash({ road, canConfirm }: { road: DriverRoad; canConfirm: boolean }) {
  const sheet = road.cash;
  if (!sheet) return <span className="text-muted-foreground">No cash yet</span>;
  const figures = sheetFigures(sheet);
  return (
    <div className="space-y-1">
      <p>
        Expected <strong className="tabular-nums">{formatCents(figures.expectedCents)}</strong>
      </p>
      {sheet.handedIn ? (
        <p>
          Counted <span className="tabular-nums">{formatCents(sheet.handedIn.countedCents)}</span> ·{" "}
          <Difference cents={sheet.handedIn.differenceCents} />
        </p>
      ) : (
        <p className="text-muted-foreground">Not handed in</p>
      )}
      {sheet.confirmed ? (
        <p className="text-muted-foreground">
          Drop confirmed by {sheet.confirmed.by} at {storeTimeText(sheet.confirmed.at)}
        </p>
      ) : sheet.handedIn && sheet.sheetId && canConfirm ? (
        <ConfirmDrop sheetId={sheet.sheetId} name={road.name} />
      ) : null}
    </div>
  );
}

/** '3:05 PM · 3 changes held' (with the store date when it was not today), '—' until it reports. */
function phoneSyncText(phone: DriverPhone, now: Date) {
  if (!phone.lastSyncedAt) return "—";
  const at = new Date(phone.lastSyncedAt);
  const when = storeDay(at) === storeDay(now) ? storeTimeText(at) : `${storeDay(at)} ${storeTimeText(at)}`;
  const held = phone.waiting === 1 ? "1 change" : `${phone.waiting} changes`;
  return phone.waiting > 0 ? `${when} · ${held} held` : when;
}

export function DriverRoads({
  roads,
  offRoad,
  date,
  now,
  canConfirm,
}: {
  roads: DriverRoad[];
  offRoad: DriverPhone[];
  date: string;
  now: string;
  canConfirm: boolean;
}) {
  return (
    <section aria-labelledby="drivers-on-the-road" className="mb-8 space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="drivers-on-the-road" className="font-display text-2xl text-primary">
          Drivers
        </h2>
        {canConfirm ? (
          <Link
            to={boardHref("/admin/today/cash-report", date)}
            className={buttonVariants({ variant: "outline", size: "sm" })}
          >
            <Icon name="printer" /> Cash report
          </Link>
        ) : null}
      </div>
      {roads.length === 0 ? (
        <p className="rounded-lg border border-border border-dashed bg-card px-4 py-6 text-center text-muted-foreground">
          No driver has orders this day yet.
        </p>
      ) : (
        <ul className="grid grid-cols-1 gap-3 md:grid-cols-2">
          {roads.map((road) => (
            <li
              key={road.driverId}
              aria-label={`Driver ${road.name}`}
              className="space-y-2 rounded-lg border border-border bg-card p-4 text-sm"
            >
              <p className="font-semibold text-base [overflow-wrap:anywhere]">{road.name}</p>
              <dl className="grid grid-cols-3 gap-2 text-center">
                <div className="rounded-md bg-muted px-2 py-1">
                  <dt className="text-muted-foreground text-xs">Done</dt>
                  <dd className="font-bold text-lg tabular-nums">{road.done}</dd>
                </div>
                <div className="rounded-md bg-muted px-2 py-1">
                  <dt className="text-muted-foreground text-xs">Failed</dt>
                  <dd className="font-bold text-lg tabular-nums">{road.failed}</dd>
                </div>
                <div className="rounded-md bg-muted px-2 py-1">
                  <dt className="text-muted-foreground text-xs">Left</dt>
                  <dd className="font-bold text-lg tabular-nums">{road.left}</dd>
                </div>
              </dl>
              <Cash road={road} canConfirm={canConfirm} />
              <p>
                Last synced: <span data-testid="last-synced">{phoneSyncText(road, new Date(now))}</span>
              </p>
              {road.manifests.length > 0 ? (
                <ul className="flex flex-wrap gap-2">
                  {road.manifests.map((manifest) => (
                    <li key={manifest.id}>
                      <a
                        href={`/driver/manifest/${manifest.id}`}
                        className={buttonVariants({ variant: "outline", size: "sm" })}
                      >
                        <Icon name="printer" /> Manifest {storeTimeText(manifest.departedAt)}
                      </a>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-muted-foreground">No run started yet</p>
              )}
            </li>
          ))}
        </ul>
      )}
      {offRoad.length > 0 ? (
        <div className="text-sm">
          <h3 className="font-semibold">Drivers without orders today</h3>
          <ul className="mt-1 grid gap-1 [overflow-wrap:anywhere] sm:grid-cols-2">
            {offRoad.map((phone) => (
              <li key={phone.driverId}>
                <span className="font-medium">{phone.name}</span>: last synced{" "}
                <span data-testid="last-synced">{phoneSyncText(phone, new Date(now))}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
