/**
 * The cash and manifest views shared by the phone, the today board and the print pages (P-33,
 * record 052): the daily cash report, a run's manifest, the time of day in the store's zone.
 */
import type { RunManifestStop } from "#app/db/schema.ts";
import type { CashSheetView } from "#app/features/orders/cash-sheet.server.ts";
import { differenceText } from "#app/features/orders/cash-sheet.ts";
import { formatCents } from "#app/utils/money.ts";
import { formatStoreDate, STORE_TIME_ZONE } from "#app/utils/store-time.ts";

const clock = new Intl.DateTimeFormat("en-US", { timeStyle: "short", timeZone: STORE_TIME_ZONE });

/** '4:05 PM' in the store's time zone. */
export function storeTimeText(iso: string | Date) {
  return clock.format(typeof iso === "string" ? new Date(iso) : iso);
}

/** The figures a sheet shows: the hand-in's when handed in, else the live ones. */
export function sheetFigures(sheet: CashSheetView) {
  const kept = sheet.handedIn;
  return {
    floatCents: sheet.floatCents,
    collectedCents: kept?.collectedCents ?? sheet.live.collectedCents,
    changeCents: kept?.changeCents ?? sheet.live.changeCents,
    expectedCents: kept?.expectedCents ?? sheet.live.expectedCents,
    countedCents: kept?.countedCents ?? null,
    differenceCents: kept?.differenceCents ?? null,
  };
}

/** 'Short $5.00' in red, 'Over $0.25' in honey, 'Even' plain. */
export function Difference({ cents }: { cents: number }) {
  const tone = cents < 0 ? "text-destructive" : cents > 0 ? "text-honey-700" : "";
  return <strong className={`whitespace-nowrap font-bold ${tone}`}>{differenceText(cents)}</strong>;
}

export function sheetState(sheet: CashSheetView) {
  if (sheet.confirmed) return `Confirmed by ${sheet.confirmed.by} at ${storeTimeText(sheet.confirmed.at)}`;
  if (sheet.handedIn) return `Handed in at ${storeTimeText(sheet.handedIn.at)}, waiting for a manager`;
  return "Not handed in yet";
}

/** The daily cash report (P-33): one row per driver, the day's totals below. */
export function CashReportTable({ sheets }: { sheets: CashSheetView[] }) {
  if (sheets.length === 0)
    return (
      <p className="py-12 text-center text-muted-foreground">No driver took or collected cash this day.</p>
    );
  const rows = sheets.map((sheet) => ({ sheet, figures: sheetFigures(sheet) }));
  const sum = (pick: (figures: ReturnType<typeof sheetFigures>) => number | null) =>
    rows.reduce((total, row) => total + (pick(row.figures) ?? 0), 0);
  const cell = "border-border border-b px-2 py-2 text-right tabular-nums";
  return (
    <div className="overflow-x-auto print:overflow-visible">
      <table className="w-full min-w-[44rem] border-collapse text-left text-sm print:min-w-0 print:text-xs">
        <thead>
          <tr className="border-border border-b-2">
            <th className="px-2 py-2">Driver</th>
            <th className="px-2 py-2 text-right">Orders</th>
            <th className="px-2 py-2 text-right">Float</th>
            <th className="px-2 py-2 text-right">Collected</th>
            <th className="px-2 py-2 text-right">Change given</th>
            <th className="px-2 py-2 text-right">Expected</th>
            <th className="px-2 py-2 text-right">Counted</th>
            <th className="px-2 py-2 text-right">Difference</th>
            <th className="px-2 py-2">State</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ sheet, figures }) => (
            <tr key={sheet.driverId} aria-label={`Cash of ${sheet.driverName}`}>
              <td className="border-border border-b px-2 py-2 font-medium [overflow-wrap:anywhere]">
                {sheet.driverName}
              </td>
              <td className={cell}>{sheet.lines.length}</td>
              <td className={cell}>{formatCents(figures.floatCents)}</td>
              <td className={cell}>{formatCents(figures.collectedCents)}</td>
              <td className={cell}>{formatCents(figures.changeCents)}</td>
              <td className={cell}>{formatCents(figures.expectedCents)}</td>
              <td className={cell}>
                {figures.countedCents === null ? "—" : formatCents(figures.countedCents)}
              </td>
              <td className={cell}>
                {figures.differenceCents === null ? "—" : <Difference cents={figures.differenceCents} />}
              </td>
              <td className="border-border border-b px-2 py-2">{sheetState(sheet)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr className="font-semibold">
            <td className="px-2 py-2">Total</td>
            <td className="px-2 py-2 text-right tabular-nums">
              {rows.reduce((n, row) => n + row.sheet.lines.length, 0)}
            </td>
            <td className="px-2 py-2 text-right tabular-nums">{formatCents(sum((f) => f.floatCents))}</td>
            <td className="px-2 py-2 text-right tabular-nums">{formatCents(sum((f) => f.collectedCents))}</td>
            <td className="px-2 py-2 text-right tabular-nums">{formatCents(sum((f) => f.changeCents))}</td>
            <td className="px-2 py-2 text-right tabular-nums">{formatCents(sum((f) => f.expectedCents))}</td>
            <td className="px-2 py-2 text-right tabular-nums">{formatCents(sum((f) => f.countedCents))}</td>
            <td className="px-2 py-2 text-right tabular-nums">
              <Difference cents={sum((f) => f.differenceCents)} />
            </td>
            <td />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

function grams(mg: number) {
  return `${(mg / 1000).toFixed(mg % 1000 === 0 ? 0 : 2)} g`;
}

export type ManifestView = {
  id: string;
  driverName: string;
  deliveryDate: string;
  departedAt: string;
  vehicle: string | null;
  stops: RunManifestStop[];
  totalCents: number;
  flowerEquivalentMg: number;
  weightComplete: boolean;
};

/** A run's manifest as frozen at departure: printable, and legible on the phone. */
export function ManifestDocument({ manifest }: { manifest: ManifestView }) {
  return (
    <article aria-label="Run manifest" className="space-y-4 text-lg print:text-sm">
      <header className="space-y-1 border-foreground border-b-2 pb-3">
        <h1 className="font-bold text-3xl print:text-2xl">Run manifest</h1>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
          <dt className="font-semibold">Driver</dt>
          <dd className="[overflow-wrap:anywhere]">{manifest.driverName}</dd>
          <dt className="font-semibold">Vehicle</dt>
          <dd className="[overflow-wrap:anywhere]">{manifest.vehicle ?? "—"}</dd>
          <dt className="font-semibold">Date</dt>
          <dd>{formatStoreDate(manifest.deliveryDate)}</dd>
          <dt className="font-semibold">Departed</dt>
          <dd>{storeTimeText(manifest.departedAt)}</dd>
          <dt className="font-semibold">Orders</dt>
          <dd>{manifest.stops.length}</dd>
          <dt className="font-semibold">Total</dt>
          <dd className="font-bold">{formatCents(manifest.totalCents)}</dd>
          <dt className="font-semibold">Flower eq.</dt>
          <dd>
            {grams(manifest.flowerEquivalentMg)}
            {manifest.weightComplete ? "" : " (some items have no flower equivalent)"}
          </dd>
        </dl>
      </header>
      <ol className="space-y-4">
        {manifest.stops.map((stop, index) => (
          <li
            key={stop.orderId}
            className="break-inside-avoid space-y-2 rounded-lg border-2 border-foreground p-3 print:rounded-none"
          >
            <p className="font-bold [overflow-wrap:anywhere]">
              {index + 1}. {stop.customerName}{" "}
              <span className="font-mono font-normal text-base">#{stop.orderId.slice(0, 8)}</span>
            </p>
            <p className="[overflow-wrap:anywhere]">{stop.deliveryAddress}</p>
            <p>
              {stop.deliveryTime} · <strong>{formatCents(stop.totalCents)}</strong>
            </p>
            <table className="w-full border-collapse text-left text-base print:text-sm">
              <thead>
                <tr className="border-border border-b-2">
                  <th className="py-1 pr-2">Item</th>
                  <th className="py-1 pr-2 text-right">Qty</th>
                  <th className="py-1 text-right">Flower eq.</th>
                </tr>
              </thead>
              <tbody>
                {stop.items.map((item) => (
                  <tr key={`${item.productName}|${item.sizeLabel}`} className="border-border border-b">
                    <td className="py-1 pr-2 [overflow-wrap:anywhere]">
                      {item.productName} · {item.sizeLabel}
                    </td>
                    <td className="py-1 pr-2 text-right tabular-nums">{item.quantity}</td>
                    <td className="py-1 text-right tabular-nums">
                      {item.flowerEquivalentMg === null ? "—" : grams(item.flowerEquivalentMg)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </li>
        ))}
      </ol>
    </article>
  );
}
