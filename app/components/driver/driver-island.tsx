/**
 * The run page's interactive part as an island (record 059): the route renders it inside a
 * container with its props written beside it as JSON, and in the production build
 * `island.client.tsx` hydrates that container alone, with React and without React Router's client.
 */
import type { CashSheetView } from "#app/features/orders/cash-sheet.server.ts";
import type { DriverRun } from "#app/features/orders/driver-run.server.ts";
import type { ManifestSummary } from "#app/features/orders/run-manifest.server.ts";
import { CashPanel, ManifestLinks } from "./cash-panel.tsx";
import { DriverPhone } from "./driver-phone.tsx";
import type { ActionMessage } from "./driver-run.tsx";

export const DRIVER_ISLAND_ID = "driver-island";
export const DRIVER_ISLAND_PROPS_ID = "driver-island-props";

export type DriverIslandProps = {
  run: DriverRun;
  cash: CashSheetView | null;
  manifests: ManifestSummary[];
  csrf: string;
  name: string;
  loadedAt: string;
  message: ActionMessage | null;
};

export function DriverIsland({ run, cash, manifests, csrf, name, loadedAt, message }: DriverIslandProps) {
  return (
    <DriverPhone run={run} csrf={csrf} name={name} loadedAt={loadedAt} message={message}>
      {cash ? <CashPanel sheet={cash} csrf={csrf} /> : null}
      <ManifestLinks manifests={manifests} />
    </DriverPhone>
  );
}

/** The island's props as a JSON data block: `<` escaped, so no text in them can end the script. */
function propsJson(props: DriverIslandProps) {
  return JSON.stringify(props).replaceAll("<", "\\u003c");
}

/** The server's side: the island in its container, and the props the client hydrates it with. */
export function DriverIslandContainer(props: DriverIslandProps) {
  return (
    <>
      <div id={DRIVER_ISLAND_ID}>
        <DriverIsland {...props} />
      </div>
      <script
        type="application/json"
        id={DRIVER_ISLAND_PROPS_ID}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON with every `<` escaped.
        dangerouslySetInnerHTML={{ __html: propsJson(props) }}
      />
    </>
  );
}
