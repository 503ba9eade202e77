import { getDatabaseHandle } from "#app/db/client.server.ts";

/** 200 when the database answers, 503 otherwise: for load balancers and uptime checks. */
export async function loader() {
  const ok = await getDatabaseHandle()
    .then((handle) => handle.ping())
    .catch(() => false);
  return Response.json(
    { status: ok ? "ok" : "unavailable", database: ok ? "reachable" : "unreachable" },
    { status: ok ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
