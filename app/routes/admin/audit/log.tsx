import { AuditChainStatus, AuditEventList, AuditFilterForm } from "#app/components/admin/audit-log.tsx";
import { Pager } from "#app/components/admin/orders-screen.tsx";
import { AdminPageHeader } from "#app/components/admin/page-header.tsx";
import { verifyAuditChainSinceCheckpoint } from "#app/features/audit/audit-chain.server.ts";
import {
  auditFiltersQuery,
  listAuditActors,
  listAuditEvents,
  parseAuditFilters,
} from "#app/features/audit/audit-log.server.ts";
import { requireAdmin } from "#app/features/staff/guard.server.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import type { Route } from "./+types/log";

export function meta() {
  return [{ title: "Audit log | Admin" }];
}

/** Events a page load verifies at most; the hourly job walks the rest (record 036). */
const CHAIN_EVENTS_PER_VIEW = 20_000;

/** The audit log (P-27, owners only: the permission table says so). */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const params = new URL(request.url).searchParams;
  const filters = parseAuditFilters(params);
  const before = params.get("before");
  const query = auditFiltersQuery(filters);
  try {
    const [page, actors] = [await listAuditEvents(filters, { cursor: before }), await listAuditActors()];
    const chain = await verifyAuditChainSinceCheckpoint({ limit: CHAIN_EVENTS_PER_VIEW });
    return { ...page, actors, filters, query, isFirstPage: !before, chain, error: null };
  } catch (error) {
    log.error("Failed to read the audit log", { error: errorMessage(error) });
    return {
      events: [],
      nextCursor: null,
      actors: [],
      filters,
      query,
      isFirstPage: true,
      chain: null,
      error: "Failed to read the audit log",
    };
  }
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { events, filters, query, error } = loaderData;
  return (
    <>
      <AdminPageHeader
        title="Audit log"
        description="Every sensitive action, newest first: who, when, from where. Nobody can change it."
      />
      {loaderData.chain ? <AuditChainStatus chain={loaderData.chain} /> : null}
      <AuditFilterForm
        filters={filters}
        actors={loaderData.actors}
        exportHref={`/admin/audit/export${query ? `?${query}` : ""}`}
      />
      {events.length === 0 ? (
        <p className="rounded-lg border border-border border-dashed bg-card px-6 py-16 text-center text-muted-foreground">
          {error ?? (query ? "No events match this filter" : "Nothing recorded yet")}
        </p>
      ) : (
        <AuditEventList events={events} />
      )}
      <Pager
        nextCursor={loaderData.nextCursor}
        isFirstPage={loaderData.isFirstPage}
        query={query}
        noun="events"
      />
    </>
  );
}
