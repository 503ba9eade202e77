import { data } from "react-router";
import { ManifestDocument } from "#app/components/cash/cash-views.tsx";
import { getRunManifest } from "#app/features/orders/run-manifest.server.ts";
import { adminGuard, NO_STORE, requireAdmin } from "#app/features/staff/guard.server.ts";
import { can } from "#app/features/staff/permissions.ts";
import { z } from "#app/utils/zod.ts";
import type { Route } from "./+types/manifest";

/** The admin guard, as on the run itself (`Path=/driver` carries the session here too). */
export const middleware: Route.MiddlewareFunction[] = [adminGuard];

export function meta() {
  return [{ title: "Run manifest" }, { name: "robots", content: "noindex, nofollow" }];
}

export function headers() {
  return { "Cache-Control": NO_STORE };
}

/** A driver opens their own manifests; whoever plans the day opens every driver's. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  const id = z.uuid().safeParse(params.id);
  const manifest = id.success ? await getRunManifest(id.data) : null;
  if (!manifest || (manifest.driverId !== admin.userId && !can(admin.role, "today.plan")))
    throw data("No such manifest", { status: 404, headers: { "Cache-Control": NO_STORE } });
  return {
    manifest: {
      id: manifest.id,
      driverName: manifest.driverName,
      deliveryDate: manifest.deliveryDate,
      departedAt: manifest.departedAt.toISOString(),
      vehicle: manifest.vehicle,
      stops: manifest.stops,
      totalCents: manifest.totalCents,
      flowerEquivalentMg: manifest.flowerEquivalentMg,
      weightComplete: manifest.weightComplete,
    },
    planner: can(admin.role, "today.plan"),
  };
}

const BUTTON =
  "inline-flex min-h-12 items-center justify-center rounded-lg border-2 border-foreground bg-card px-4 py-2 font-semibold text-lg";

export default function RunManifestPage({ loaderData }: Route.ComponentProps) {
  return (
    <main className="mx-auto w-full max-w-3xl space-y-5 bg-background px-4 py-5 text-foreground print:max-w-none print:p-0">
      <div className="flex flex-wrap gap-2 print:hidden">
        <a href={loaderData.planner ? "/admin/today" : "/driver"} className={BUTTON}>
          {loaderData.planner ? "Back to the board" : "Back to my run"}
        </a>
        <button type="button" className={BUTTON} onClick={() => window.print()}>
          Print manifest
        </button>
      </div>
      <ManifestDocument manifest={loaderData.manifest} />
    </main>
  );
}
