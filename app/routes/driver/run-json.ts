import { getDriverRun } from "#app/features/orders/driver-run.server.ts";
import { recordPhoneSync } from "#app/features/orders/driver-sync.server.ts";
import { adminGuard, NO_STORE, requireAdmin } from "#app/features/staff/guard.server.ts";
import type { Route } from "./+types/run-json";

/**
 * The phone's run as JSON (record 050): the page keeps it on the phone for the next open without
 * signal. Under `/driver` because the phone's session cookie is on that path (record 049).
 */
export const middleware: Route.MiddlewareFunction[] = [adminGuard];

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  const waiting = Number(new URL(request.url).searchParams.get("waiting") ?? 0);
  const run = await getDriverRun(admin.userId);
  const syncedAt = new Date();
  await recordPhoneSync(
    admin.userId,
    Number.isInteger(waiting) && waiting >= 0 ? Math.min(waiting, 1000) : 0,
    syncedAt,
  );
  return Response.json(
    { run, csrf: admin.csrfToken, name: admin.email, syncedAt: syncedAt.toISOString() },
    { headers: { "Cache-Control": NO_STORE } },
  );
}
