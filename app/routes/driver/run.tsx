import { data } from "react-router";
import { DriverIslandContainer } from "#app/components/driver/driver-island.tsx";
import type { ActionMessage } from "#app/components/driver/driver-run.tsx";
import { driverIslandAssets } from "#app/components/driver/island-assets.server.ts";
import { auditBy } from "#app/features/audit/audit.server.ts";
import { getCashSheet, handInCash, setCashFloat } from "#app/features/orders/cash-sheet.server.ts";
import { CASH_AMOUNT_MESSAGE, cashAmountCents } from "#app/features/orders/cash-sheet.ts";
import { doorAction } from "#app/features/orders/door-action.server.ts";
import {
  getDriverRun,
  moveStop,
  moveStopSchema,
  pickedOrderIds,
  runScope,
  startRun,
  stopFormSchema,
  takeStop,
} from "#app/features/orders/driver-run.server.ts";
import { handleOrderAction } from "#app/features/orders/order-action.server.ts";
import { listRunManifests } from "#app/features/orders/run-manifest.server.ts";
import { adminForm, adminGuard, NO_STORE, requireAdmin } from "#app/features/staff/guard.server.ts";
import { orderActionResponse } from "#app/routes/shared/order-action-response.server.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import { storeDay } from "#app/utils/store-time.ts";
import type { Route } from "./+types/run";

/** The admin guard (session, CSRF, the route table's permission) before the loader and action. */
export const middleware: Route.MiddlewareFunction[] = [adminGuard];

/** The root loads only the island's script here, in the production build (record 059). */
export const handle = { island: "driver" };

export function meta() {
  return [{ title: "Today's run" }, { name: "robots", content: "noindex, nofollow" }];
}

/** The driver app installs from this page (record 050): its manifest, scoped to /driver. */
export function links() {
  return [{ rel: "manifest", href: "/driver.webmanifest" }];
}

export function headers() {
  return { "Cache-Control": NO_STORE };
}

export async function loader({ context }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  const island = driverIslandAssets();
  try {
    const run = await getDriverRun(admin.userId);
    return {
      run,
      cash: await getCashSheet(admin.userId, run.date),
      manifests: await listRunManifests(run.date, { driverId: admin.userId }),
      csrf: admin.csrfToken,
      name: admin.email,
      loadedAt: new Date().toISOString(),
      island,
      error: null,
    };
  } catch (error) {
    log.error("Failed to fetch the driver's run", { error: errorMessage(error) });
    return {
      run: null,
      cash: null,
      manifests: [],
      csrf: admin.csrfToken,
      name: admin.email,
      loadedAt: new Date().toISOString(),
      island,
      error: "Failed to fetch your run",
    };
  }
}

export async function action({
  context,
}: Route.ActionArgs): Promise<ActionMessage | ReturnType<typeof data>> {
  const admin = requireAdmin(context);
  const form = adminForm(context);
  const by = auditBy(admin, context);
  const intent = form.get("intent");
  if (intent === "start-run") {
    const picked = pickedOrderIds(form);
    if (picked.length === 0)
      return data({ ok: false, description: "Tick the stops to take first" }, { status: 400 });
    const vehicle = form.get("vehicle");
    const { started, skipped } = await startRun(admin.userId, picked, by, {
      vehicle: typeof vehicle === "string" ? vehicle : null,
    });
    const out = `${started} ${started === 1 ? "order" : "orders"} out for delivery`;
    return { ok: true, description: skipped > 0 ? `${out}; ${skipped} had changed meanwhile` : out };
  }
  if (intent === "move-up" || intent === "move-down") {
    const parsed = moveStopSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) return data({ ok: false, description: "Failed to move the stop" }, { status: 400 });
    const moved = await moveStop(admin.userId, parsed.data.orderId, intent === "move-up" ? "up" : "down");
    return moved
      ? { ok: true, description: "Stop moved" }
      : data({ ok: false, description: "This stop cannot move further within its slot" }, { status: 409 });
  }
  if (intent === "cash-float" || intent === "cash-hand-in") {
    const typed = form.get(intent === "cash-float" ? "float" : "counted");
    // No float is a float of nothing; a count must be typed.
    const cents = cashAmountCents(intent === "cash-float" && typed === "" ? "0" : typed);
    if (cents === null) return data({ ok: false, description: CASH_AMOUNT_MESSAGE }, { status: 400 });
    const date = storeDay(new Date());
    const result =
      intent === "cash-float"
        ? await setCashFloat(admin.userId, date, cents, by)
        : await handInCash(admin.userId, date, cents, by);
    return result.ok
      ? { ok: true, description: result.message }
      : data({ ok: false, description: result.message }, { status: 409 });
  }
  if (intent === "deliver" || intent === "fail") {
    const result = await doorAction(form, admin.userId, by);
    return result.ok
      ? { ok: true, description: result.description }
      : data({ ok: false, description: result.description }, { status: result.status });
  }
  const stop = stopFormSchema.safeParse({ orderId: form.get("orderId") });
  if (stop.success) await takeStop(admin.userId, stop.data.orderId, by);
  return orderActionResponse(await handleOrderAction(form, by, runScope(admin.userId)));
}

export default function DriverRun({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.run) {
    return (
      <main className="mx-auto max-w-2xl px-4 py-10 text-xl">
        <p role="alert">{loaderData.error}</p>
      </main>
    );
  }
  const message = actionData && "description" in actionData ? (actionData as ActionMessage) : null;
  return (
    <DriverIslandContainer
      run={loaderData.run}
      cash={loaderData.cash}
      manifests={loaderData.manifests}
      csrf={loaderData.csrf}
      name={loaderData.name}
      loadedAt={loaderData.loadedAt}
      message={message}
    />
  );
}
