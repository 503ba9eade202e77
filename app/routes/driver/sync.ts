import { auditBy } from "#app/features/audit/audit.server.ts";
import { getDriverRun } from "#app/features/orders/driver-run.server.ts";
import { applyQueuedActions, recordPhoneSync } from "#app/features/orders/driver-sync.server.ts";
import { syncRequestSchema } from "#app/features/orders/driver-sync.ts";
import { adminGuard, NO_STORE, requireAdmin } from "#app/features/staff/guard.server.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import type { Route } from "./+types/sync";

/**
 * The phone's queue, sent (record 050): a JSON batch of queued actions, the CSRF token in the
 * `X-CSRF-Token` header. Answers each action's outcome and the run as it now is.
 */
export const middleware: Route.MiddlewareFunction[] = [adminGuard];

/** A batch holds at most a few signatures (each at most 400 KB as a data URL). */
const MAX_BODY_BYTES = 4_000_000;

function refuse(status: number, message: string) {
  return Response.json({ error: message }, { status, headers: { "Cache-Control": NO_STORE } });
}

export async function loader() {
  return refuse(405, "Send the queued actions with POST");
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  if (!(request.headers.get("Content-Type") ?? "").includes("application/json"))
    return refuse(415, "Send the queued actions as JSON");
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_BODY_BYTES)
    return refuse(413, "Too many changes at once");
  const body = await request.text();
  if (body.length > MAX_BODY_BYTES) return refuse(413, "Too many changes at once");
  let parsed: ReturnType<typeof syncRequestSchema.safeParse>;
  try {
    parsed = syncRequestSchema.safeParse(JSON.parse(body));
  } catch {
    return refuse(400, "The changes could not be read");
  }
  if (!parsed.success) return refuse(400, "The changes could not be read");
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
