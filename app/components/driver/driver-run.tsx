/**
 * The driver's run on the phone: large type, 48 px targets, dark text on white for sunlight, and
 * every long word allowed to break so no name or address widens the page. Plain forms that post to
 * `/driver`: it works without JavaScript.
 *
 * Every form is a document post (`RunForm`), never a client-side data request: the page has no
 * React Router client (record 059), and the session cookie's `Path=/driver` would not match
 * `/driver.data` anyway (a cookie path matches only whole path segments).
 */
import { type ReactNode, useContext } from "react";
import { VehicleField } from "#app/components/driver/cash-panel.tsx";
import { CouldNotDeliverForm, DeliveredForm } from "#app/components/driver/door-proof.tsx";
import { DriverQueueContext } from "#app/components/driver/driver-queue-context.ts";
import { DANGER, Hidden, OUTLINE, PRIMARY, RunForm } from "#app/components/driver/run-form.tsx";
import { changeToBringText } from "#app/features/delivery/cash-change.ts";
import { mapSearchUrl } from "#app/features/orders/day-order.ts";
import type { DriverRun, RunStop } from "#app/features/orders/driver-run.server.ts";
import { dialable, directionsUrl } from "#app/features/orders/driver-run.ts";
import { STATUS_LABELS } from "#app/features/orders/order-status.ts";
import { formatCents } from "#app/utils/money.ts";
import { formatStoreDate } from "#app/utils/store-time.ts";

const LINK = "font-semibold text-primary underline underline-offset-4 [overflow-wrap:anywhere]";

export type ActionMessage = { ok: boolean; title?: string; description: string };

function Items({ stop }: { stop: RunStop }) {
  if (stop.items.length === 0) return null;
  return (
    <ul className="divide-y divide-border rounded-lg border-2 border-border">
      {stop.items.map((item) => (
        <li key={item.id} className="flex items-start justify-between gap-3 px-3 py-2">
          <span className="min-w-0 [overflow-wrap:anywhere]">
            {item.productName} <span className="text-muted-foreground">· {item.sizeLabel}</span>
          </span>
          <span className="shrink-0 font-bold">× {item.quantity}</span>
        </li>
      ))}
    </ul>
  );
}

function Cash({ stop }: { stop: RunStop }) {
  const change = changeToBringText(stop.totalAmountCents, stop.payWithCents);
  return (
    <p className="text-xl">
      Collect <strong className="font-bold">{formatCents(stop.totalAmountCents)}</strong>
      {stop.payWithCents !== null ? (
        <span className="block text-lg">
          Pays with {formatCents(stop.payWithCents)}
          {change ? <strong className="block font-bold text-honey-700">{change}</strong> : null}
        </span>
      ) : null}
    </p>
  );
}

/** Who, where and what: shared by today's stops and tomorrow's. */
function StopDetails({ stop }: { stop: RunStop }) {
  const phone = dialable(stop.phone);
  return (
    <div className="space-y-3">
      <p className="font-semibold text-lg">{stop.deliveryTime}</p>
      <h3 className="font-bold text-2xl [overflow-wrap:anywhere]">{stop.customerName}</h3>
      <p className="text-lg">
        <a href={mapSearchUrl(stop.deliveryAddress)} className={LINK} target="_blank" rel="noreferrer">
          {stop.deliveryAddress}
        </a>
      </p>
      <div className="flex flex-wrap gap-2">
        <a href={`tel:${phone}`} className={OUTLINE} aria-label={`Call ${stop.customerName}`}>
          Call {stop.phone}
        </a>
        <a href={`sms:${phone}`} className={OUTLINE} aria-label={`Text ${stop.customerName}`}>
          Text
        </a>
      </div>
      {stop.notes ? (
        <p className="rounded-lg border-2 border-honey-500 bg-honey-100 px-3 py-2 text-lg [overflow-wrap:anywhere]">
          <span className="font-bold">Notes: </span>
          {stop.notes}
        </p>
      ) : null}
      <Items stop={stop} />
      <Cash stop={stop} />
    </div>
  );
}

function IdPhoto({ stop }: { stop: RunStop }) {
  if (!stop.idPhotoId) return <p className="text-lg text-muted-foreground">No ID photo sent</p>;
  return (
    <details className="rounded-lg border-2 border-border">
      <summary className="flex min-h-12 cursor-pointer items-center px-4 font-semibold text-lg">
        Show ID photo
      </summary>
      <div className="p-3">
        {/* Loaded only when opened: every view is audited by the admin photo route. */}
        <img
          src={`/admin/id-photos/${stop.idPhotoId}`}
          alt={`ID of ${stop.customerName}`}
          loading="lazy"
          className="h-auto w-full rounded"
        />
      </div>
    </details>
  );
}

function StopActions({ stop, csrf }: { stop: RunStop; csrf: string }) {
  const queue = useContext(DriverQueueContext) ?? undefined;
  return (
    <div className="space-y-3">
      <details>
        <summary className={`${PRIMARY} w-full cursor-pointer list-none`}>Delivered</summary>
        <div className="mt-2">
          <DeliveredForm stop={stop} csrf={csrf} onAction={queue} />
        </div>
      </details>
      <details>
        <summary className={`${DANGER} w-full cursor-pointer list-none`}>Could not deliver</summary>
        <div className="mt-2">
          <CouldNotDeliverForm stop={stop} csrf={csrf} onAction={queue} />
        </div>
      </details>
    </div>
  );
}

function MoveButtons({
  stop,
  csrf,
  first,
  last,
}: {
  stop: RunStop;
  csrf: string;
  first: boolean;
  last: boolean;
}) {
  const moves = [
    { way: "up", text: "↑ Up", disabled: first },
    { way: "down", text: "↓ Down", disabled: last },
  ];
  return (
    <div className="flex gap-2">
      {moves.map(({ way, text, disabled }) => (
        <RunForm key={way}>
          <Hidden csrf={csrf} intent={`move-${way}`} orderId={stop.id} />
          <button
            type="submit"
            className={OUTLINE}
            disabled={disabled}
            aria-label={`Move ${stop.customerName} ${way}`}
          >
            {text}
          </button>
        </RunForm>
      ))}
    </div>
  );
}

function Section({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="font-bold text-2xl">
        {title}
      </h2>
      {children}
    </section>
  );
}

function PickBox({ stop, checked }: { stop: RunStop; checked: boolean }) {
  return (
    <label className="flex min-h-12 items-center gap-3 text-lg font-semibold">
      <input
        type="checkbox"
        form="start-run"
        name={`pick-${stop.id}`}
        defaultChecked={checked}
        className="size-7 accent-primary"
      />
      Take on this run
    </label>
  );
}

function OpenStop({
  stop,
  number,
  csrf,
  first,
  last,
}: {
  stop: RunStop;
  number: number;
  csrf: string;
  first: boolean;
  last: boolean;
}) {
  const waiting = stop.status === "confirmed";
  return (
    <li
      className="space-y-4 rounded-xl border-2 border-foreground bg-card p-4"
      aria-label={`Stop ${number}: ${stop.customerName}`}
    >
      <div className="flex items-center justify-between gap-2">
        <span className="font-bold text-xl">Stop {number}</span>
        <span className="rounded-full border-2 border-foreground px-3 py-1 font-semibold">
          {STATUS_LABELS[stop.status]}
        </span>
      </div>
      <StopDetails stop={stop} />
      <IdPhoto stop={stop} />
      {waiting ? <PickBox stop={stop} checked /> : null}
      <MoveButtons stop={stop} csrf={csrf} first={first} last={last} />
      <StopActions stop={stop} csrf={csrf} />
    </li>
  );
}

function ClosedStop({ stop }: { stop: RunStop }) {
  return (
    <li className="space-y-1 rounded-lg border-2 border-border bg-card p-3 text-lg">
      <p className="font-bold [overflow-wrap:anywhere]">{stop.customerName}</p>
      <p className="[overflow-wrap:anywhere]">{stop.deliveryAddress}</p>
      <p>
        {STATUS_LABELS[stop.status]} · {formatCents(stop.totalAmountCents)}
        {stop.cancelReason ? ` · ${stop.cancelReason}` : ""}
        {stop.failure ? ` · ${stop.failure}` : ""}
      </p>
    </li>
  );
}

export function DriverRunScreen({
  run,
  csrf,
  name,
  message,
  children,
  status,
}: {
  run: DriverRun;
  csrf: string;
  name: string;
  message: ActionMessage | null;
  /** The cash sheet and manifests (record 052), between the finished stops and tomorrow's. */
  children?: ReactNode;
  /** The phone's sync state (record 050). */
  status?: ReactNode;
}) {
  const navigate = directionsUrl(run.open.map((stop) => stop.deliveryAddress));
  const startable = run.open.some((stop) => stop.status === "confirmed") || run.unassigned.length > 0;
  const finished = run.delivered.length + run.cancelled.length + run.returning.length;
  return (
    <main className="mx-auto w-full max-w-2xl space-y-8 bg-background px-4 py-5 text-foreground text-lg">
      <header className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h1 className="font-bold text-3xl">Today's run</h1>
          <form method="post" action="/admin/logout">
            <input type="hidden" name="csrf" value={csrf} />
            <button type="submit" className={OUTLINE}>
              Sign Out
            </button>
          </form>
        </div>
        <p className="[overflow-wrap:anywhere]">
          {formatStoreDate(run.date)} · {name}
        </p>
        <dl className="grid grid-cols-2 gap-3">
          <div className="rounded-xl border-2 border-foreground bg-card p-3">
            <dt className="font-semibold">Collected so far</dt>
            <dd className="font-bold text-3xl" data-testid="collected">
              {formatCents(run.collectedCents)}
            </dd>
          </div>
          <div className="rounded-xl border-2 border-foreground bg-card p-3">
            <dt className="font-semibold">Still to collect</dt>
            <dd className="font-bold text-3xl">{formatCents(run.toCollectCents)}</dd>
          </div>
        </dl>
        {status}
        {message ? (
          <p
            role={message.ok ? "status" : "alert"}
            className={`rounded-lg border-2 px-3 py-2 font-semibold ${message.ok ? "border-primary bg-secondary" : "border-destructive bg-card text-destructive"}`}
          >
            {message.description}
          </p>
        ) : null}
        <div className="flex flex-col gap-2">
          {navigate ? (
            <a href={navigate} className={`${PRIMARY} w-full`} target="_blank" rel="noreferrer">
              Navigate ({run.open.length} {run.open.length === 1 ? "stop" : "stops"})
            </a>
          ) : null}
          {startable ? (
            <RunForm id="start-run">
              <Hidden csrf={csrf} intent="start-run" />
              <VehicleField />
              <button type="submit" className={`${OUTLINE} w-full`}>
                Start run
              </button>
            </RunForm>
          ) : null}
        </div>
      </header>

      <Section title={`Stops (${run.open.length})`} id="open-stops">
        {run.open.length === 0 ? (
          <p className="rounded-xl border-2 border-border border-dashed bg-card p-5">
            No open stops. Orders assigned to you for today show here.
          </p>
        ) : (
          <ol className="space-y-4">
            {run.open.map((stop, index) => (
              <OpenStop
                key={stop.id}
                stop={stop}
                number={index + 1}
                csrf={csrf}
                first={run.open[index - 1]?.deliveryTime !== stop.deliveryTime}
                last={run.open[index + 1]?.deliveryTime !== stop.deliveryTime}
              />
            ))}
          </ol>
        )}
      </Section>

      {run.unassigned.length > 0 ? (
        <Section title={`Unassigned today (${run.unassigned.length})`} id="unassigned">
          <p>Tick the ones you take, then Start run.</p>
          <ul className="space-y-4">
            {run.unassigned.map((stop) => (
              <li key={stop.id} className="space-y-3 rounded-xl border-2 border-border bg-card p-4">
                <StopDetails stop={stop} />
                <PickBox stop={stop} checked={false} />
              </li>
            ))}
          </ul>
        </Section>
      ) : null}

      <details className="rounded-xl border-2 border-border bg-card">
        <summary className="flex min-h-12 cursor-pointer items-center px-4 font-bold text-xl">
          Done and failed ({finished})
        </summary>
        <div className="space-y-3 p-3">
          {finished === 0 ? <p>Nothing yet.</p> : null}
          <ul className="space-y-3">
            {[...run.delivered, ...run.returning, ...run.cancelled].map((stop) => (
              <ClosedStop key={stop.id} stop={stop} />
            ))}
          </ul>
        </div>
      </details>

      {children}

      <Section title={`Tomorrow (${run.ahead.length})`} id="tomorrow">
        <p>{formatStoreDate(run.tomorrow)}</p>
        {run.ahead.length === 0 ? (
          <p className="rounded-xl border-2 border-border border-dashed bg-card p-5">
            Nothing assigned to you yet.
          </p>
        ) : (
          <ol className="space-y-4">
            {run.ahead.map((stop) => (
              <li key={stop.id} className="rounded-xl border-2 border-border bg-card p-4">
                <StopDetails stop={stop} />
              </li>
            ))}
          </ol>
        )}
      </Section>
    </main>
  );
}
