/**
 * The driver's cash sheet and run manifests on the phone (P-33, record 052): the float taken out,
 * what the delivered orders brought in, the change given, the cash expected back; then the counted
 * cash and 'Hand in cash'. Plain form posts to `/driver` (`RunForm`), like the rest of the run.
 */
import { Difference, sheetFigures, sheetState, storeTimeText } from "#app/components/cash/cash-views.tsx";
import type { CashSheetView } from "#app/features/orders/cash-sheet.server.ts";
import type { ManifestSummary } from "#app/features/orders/run-manifest.server.ts";
import { formatCents } from "#app/utils/money.ts";
import { Hidden, RunForm } from "./run-form.tsx";

const BUTTON =
  "inline-flex min-h-12 w-full items-center justify-center rounded-lg px-4 py-2 font-semibold text-lg focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-ring";
const INPUT = "block min-h-12 w-full rounded-lg border-2 border-foreground bg-card px-3 text-xl tabular-nums";

function Row({ label, cents, strong }: { label: string; cents: number; strong?: boolean }) {
  return (
    <div className="flex items-baseline justify-between gap-3 border-border border-b py-2">
      <dt className={strong ? "font-bold" : "font-semibold"}>{label}</dt>
      <dd className={`tabular-nums ${strong ? "font-bold text-2xl" : "text-xl"}`}>{formatCents(cents)}</dd>
    </div>
  );
}

export function CashPanel({ sheet, csrf }: { sheet: CashSheetView; csrf: string }) {
  const figures = sheetFigures(sheet);
  const open = sheet.handedIn === null;
  return (
    <section
      aria-labelledby="cash-sheet"
      className="space-y-3 rounded-xl border-2 border-foreground bg-card p-4"
    >
      <h2 id="cash-sheet" className="font-bold text-2xl">
        Cash
      </h2>
      <dl>
        <Row label="Float taken" cents={figures.floatCents} />
        <Row label={`Collected (${sheet.lines.length} delivered)`} cents={figures.collectedCents} />
        <Row label="Change given" cents={figures.changeCents} />
        <Row label="Expected back" cents={figures.expectedCents} strong />
        {figures.countedCents !== null ? <Row label="Counted" cents={figures.countedCents} /> : null}
      </dl>
      {figures.differenceCents !== null ? (
        <p className="text-xl" data-testid="cash-difference">
          <Difference cents={figures.differenceCents} />
        </p>
      ) : null}
      <p className="font-semibold" data-testid="cash-state">
        {sheetState(sheet)}
      </p>
      {open ? (
        <>
          <RunForm className="space-y-2">
            <Hidden csrf={csrf} intent="cash-float" />
            <label className="block space-y-1">
              <span className="font-semibold">Float taken at the start ($)</span>
              <input
                name="float"
                inputMode="decimal"
                defaultValue={(figures.floatCents / 100).toFixed(2)}
                className={INPUT}
              />
            </label>
            <button type="submit" className={`${BUTTON} border-2 border-foreground bg-card`}>
              Save float
            </button>
          </RunForm>
          <RunForm className="space-y-2">
            <Hidden csrf={csrf} intent="cash-hand-in" />
            <label className="block space-y-1">
              <span className="font-semibold">Cash counted ($)</span>
              <input name="counted" inputMode="decimal" required placeholder="0.00" className={INPUT} />
            </label>
            <button
              type="submit"
              className={`${BUTTON} bg-primary text-primary-foreground hover:bg-primary-hover`}
            >
              Hand in cash
            </button>
          </RunForm>
        </>
      ) : null}
    </section>
  );
}

export function ManifestLinks({ manifests }: { manifests: ManifestSummary[] }) {
  if (manifests.length === 0) return null;
  return (
    <section aria-labelledby="manifests" className="space-y-2">
      <h2 id="manifests" className="font-bold text-2xl">
        Manifests
      </h2>
      <ul className="space-y-2">
        {manifests.map((manifest) => (
          <li key={manifest.id}>
            <a
              href={`/driver/manifest/${manifest.id}`}
              className={`${BUTTON} border-2 border-foreground bg-card text-foreground`}
            >
              Manifest · left {storeTimeText(manifest.departedAt)} · {manifest.stops}{" "}
              {manifest.stops === 1 ? "order" : "orders"}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The optional vehicle, asked with 'Start run' for the manifest. */
export function VehicleField() {
  return (
    <label className="mb-2 block space-y-1">
      <span className="font-semibold">Vehicle (optional, for the manifest)</span>
      <input name="vehicle" maxLength={80} className={INPUT} />
    </label>
  );
}
