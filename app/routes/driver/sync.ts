import { auditBy } from "#app/features/audit/audit.server.ts";
import { getDriverRun } from "#app/features/orders/driver-run.server.ts";
import { syncRequestSchema } from "#app/features/orders/driver-sync.schema.ts";
import { applyQueuedActions, recordPhoneSync } from "#app/features/orders/driver-sync.server.ts";
import { SYNC_FIELD } from "#app/features/orders/driver-sync.ts";
import { adminForm, adminGuard, NO_STORE, requireAdmin } from "#app/features/staff/guard.server.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import type { Route } from "./+types/sync";

/**
 * The phone's queue, sent (record 050): a form post whose `batch` field holds the queued actions
 * as JSON, with the session's CSRF token. Answers each action's outcome and the run as it now is.
 */
export const middleware: Route.MiddlewareFunction[] = [adminGuard];

function refuse(status: number, message: string) {
  return Response.json({ error: message }, { status, headers: { "Cache-Control": NO_STORE } });
}

export async function loader() {
  return refuse(405, "Send the queued actions with POST");
}

export async function action({ context }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  const batch = adminForm(context).get(SYNC_FIELD);
  let parsed: ReturnType<typeof syncRequestSchema.safeParse> | null = null;
  try {
    if (typeof batch === "string") parsed = syncRequestSchema.safeParse(JSON.parse(batch));
  } catch {
    parsed = null;
  }
  if (!parsed?.success) return refuse(400, "The changes could not be read");
  try {
    const outcomes = await applyQueuedActions(admin.userId, parsed.data.actions, auditBy(admin, context));
    const syncedAt = new Date();
    await recordPhoneSync(admin.userId, parsed.data.waiting ?? 0, syncedAt);
    const run = await getDriverRun(admin.userId);
    return Response.json(
      { outcomes, run, csrf: admin.csrfToken, name: admin.email, syncedAt: syncedAt.toISOString() },
      { headers: { "Cache-Control": NO_STORE } },
    );
  } catch (error) {
    log.error("Failed to apply the phone's queued actions", { error: errorMessage(error) });
    return refuse(500, "The shop could not take your changes now; they stay on your phone");
  }
}
