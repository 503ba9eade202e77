/**
 * The audit log's hash chain (docs/decisions/036-audit-hash-chain.md). The database computes each
 * event's hash as it is inserted (the `audit_events_chain` trigger, drizzle/functions/audit_events_chain.sql); this module
 * computes the same canonical text from the stored rows and walks the chain, so an event deleted or
 * changed behind the app's back (a superuser, a disabled trigger, the purge's setting) is named.
 */
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/rows.ts";

/** The `prev_hash` of the first event ever recorded. */
export const GENESIS_HASH = "0".repeat(64);
export const PURGE_ANCHOR_ACTION = "audit.purged";
const FORMAT = "capital-grown-audit-v1";
const BATCH = 2_000;

/** One event as the chain reads it: `createdMicros` and `detailsText` exactly as stored. */
export type ChainRow = {
  id: string;
  createdMicros: string;
  actorId: string | null;
  actorEmail: string | null;
  actorRole: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  detailsText: string | null;
  ipAddress: string | null;
  requestId: string | null;
  prevHash: string | null;
  hash: string | null;
};

function field(value: string | null) {
  return value === null ? "~" : `${Buffer.byteLength(value, "utf8")}:${value}`;
}

/** The text an event's hash is taken over, as `audit_event_hash` (drizzle/functions/audit_event_hash.sql) builds it. */
export function canonicalAuditText(prevHash: string, row: ChainRow) {
  return [
    FORMAT,
    prevHash,
    field(row.id),
    field(row.createdMicros),
    field(row.actorId),
    field(row.actorEmail),
    field(row.actorRole),
    field(row.action),
    field(row.targetType),
    field(row.targetId),
    field(row.detailsText),
    field(row.ipAddress),
    field(row.requestId),
  ].join("\n");
}

export function auditEventHash(prevHash: string, row: ChainRow) {
  return createHash("sha256").update(canonicalAuditText(prevHash, row), "utf8").digest("hex");
}

const chainColumns = sql`id::text AS id,
  ((extract(epoch FROM created_at) * 1000000)::bigint)::text AS "createdMicros",
  actor_id::text AS "actorId", actor_email AS "actorEmail", actor_role AS "actorRole", action,
  target_type AS "targetType", target_id AS "targetId", details::text AS "detailsText",
  ip_address AS "ipAddress", request_id AS "requestId", prev_hash AS "prevHash", hash`;

async function rowsAfter(executor: Executor, afterId: string | null, limit: number) {
  const after = afterId === null ? sql`` : sql`WHERE id > ${afterId}::bigint`;
  return rowsOf<ChainRow>(
    await executor.execute(
      sql`SELECT ${chainColumns} FROM audit_events ${after} ORDER BY audit_events.id LIMIT ${limit}`,
    ),
  );
}

async function rowById(executor: Executor, id: string) {
  return rowsOf<ChainRow>(
    await executor.execute(sql`SELECT ${chainColumns} FROM audit_events WHERE id = ${id}::bigint`),
  )[0];
}

/** Whether a retention purge's anchor vouches for `row` following `row.prevHash`. */
async function anchoredByPurge(executor: Executor, row: ChainRow) {
  const [anchor] = rowsOf(
    await executor.execute(sql`SELECT id FROM audit_events
      WHERE action = ${PURGE_ANCHOR_ACTION} AND details ->> 'lastHash' = ${row.prevHash}
        AND (details ->> 'upToId')::bigint < ${row.id}::bigint
      LIMIT 1`),
  );
  return Boolean(anchor);
}

export type ChainVerification =
  | { ok: true; verifiedUpTo: string | null; lastHash: string; checked: number; complete: boolean }
  | {
      ok: false;
      brokenAt: string;
      reason: string;
      verifiedUpTo: string | null;
      lastHash: string | null;
      checked: number;
    };

/** Where a walk starts: after an event already verified (its id and hash), or at the first event. */
export type ChainStart = { afterId: string; hash: string } | null;

/**
 * Walks the chain in id order from `start` (or from the first event), at most `limit` events.
 * `complete` is false when it stopped at the limit with events left to check.
 */
export async function verifyAuditChain(
  executor: Executor,
  options: { start?: ChainStart; limit?: number } = {},
): Promise<ChainVerification> {
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  let previous: { id: string | null; hash: string | null } = options.start
    ? { id: options.start.afterId, hash: options.start.hash }
    : { id: null, hash: null };
  let checked = 0;
  const broken = (row: ChainRow, reason: string): ChainVerification => ({
    ok: false,
    brokenAt: row.id,
    reason,
    verifiedUpTo: previous.id,
    lastHash: previous.hash,
    checked,
  });
  while (checked < limit) {
    const rows = await rowsAfter(executor, previous.id, Math.min(BATCH, limit - checked));
    if (rows.length === 0) break;
    for (const row of rows) {
      if (!row.hash || !row.prevHash) return broken(row, `event ${row.id} has no hash`);
      if (previous.hash === null) {
        if (row.prevHash !== GENESIS_HASH && !(await anchoredByPurge(executor, row))) {
          return broken(
            row,
            `event ${row.id} follows hash ${row.prevHash.slice(0, 16)}…, which no retention purge accounts for: the events before it were deleted`,
          );
        }
      } else if (row.prevHash !== previous.hash) {
        return broken(
          row,
          `event ${row.id} does not follow event ${previous.id}: the event(s) between them were deleted, or one was inserted`,
        );
      }
      if (auditEventHash(row.prevHash, row) !== row.hash) {
        return broken(
          row,
          `event ${row.id} was changed after it was recorded: its content no longer matches its hash`,
        );
      }
      previous = { id: row.id, hash: row.hash };
      checked += 1;
    }
  }
  const more = checked >= limit && (await rowsAfter(executor, previous.id, 1)).length > 0;
  return {
    ok: true,
    verifiedUpTo: previous.id,
    lastHash: previous.hash ?? GENESIS_HASH,
    checked,
    complete: !more,
  };
}

/** The chain's head: the last event's id and hash (`0` and the genesis hash for an empty log). */
export async function auditChainHead(executor?: Executor) {
  const database = executor ?? (await db());
  const [head] = rowsOf<{ id: string; hash: string }>(
    await database.execute(sql`SELECT head_id::text AS id, head_hash AS hash FROM audit_chain WHERE id = 1`),
  );
  return head ?? { id: "0", hash: GENESIS_HASH };
}

/** The last event a verification reached, so the next one starts after it. */
export async function recordVerifiedCheckpoint(executor: Executor, id: string, hash: string) {
  await executor.execute(sql`UPDATE audit_chain SET verified_id = ${id}::bigint, verified_hash = ${hash},
    verified_at = now() WHERE id = 1`);
}

export type ChainStatus = {
  verifiedUpTo: string | null;
  verifiedAt: Date | null;
  lastHash: string | null;
  /** Events recorded after `verifiedUpTo`, not checked yet (the walk stopped at its limit). */
  pending: boolean;
  broken: { at: string; reason: string } | null;
};

/**
 * Verifies the events recorded since the last verification (the checkpoint in `audit_chain`), at
 * most `limit` of them, and moves the checkpoint forward. The checkpoint event must still carry the
 * hash it had, and match it; one that was purged since restarts the walk at the first event left.
 * Events before the checkpoint are checked again only by a whole walk (`verifyAuditChain`: the
 * daily digest and `npm run audit:verify`).
 */
export async function verifyAuditChainSinceCheckpoint(
  options: { limit?: number } = {},
): Promise<ChainStatus> {
  const database = await db();
  const [checkpoint] = rowsOf<{ id: string | null; hash: string | null }>(
    await database.execute(
      sql`SELECT verified_id::text AS id, verified_hash AS hash FROM audit_chain WHERE id = 1`,
    ),
  );
  let start: ChainStart = null;
  if (checkpoint?.id && checkpoint.hash) {
    const row = await rowById(database, checkpoint.id);
    if (
      row &&
      (row.hash !== checkpoint.hash || !row.prevHash || auditEventHash(row.prevHash, row) !== row.hash)
    ) {
      return {
        verifiedUpTo: null,
        verifiedAt: null,
        lastHash: null,
        pending: false,
        broken: { at: row.id, reason: `event ${row.id} was changed after it was verified: its hash differs` },
      };
    }
    if (row) start = { afterId: checkpoint.id, hash: checkpoint.hash };
  }
  const result = await verifyAuditChain(database, { start, limit: options.limit });
  if (result.verifiedUpTo !== null && result.lastHash !== null && result.verifiedUpTo !== checkpoint?.id) {
    await recordVerifiedCheckpoint(database, result.verifiedUpTo, result.lastHash);
  }
  return {
    verifiedUpTo: result.verifiedUpTo,
    verifiedAt: result.verifiedUpTo === null ? null : new Date(),
    lastHash: result.lastHash,
    pending: result.ok ? !result.complete : false,
    broken: result.ok ? null : { at: result.brokenAt, reason: result.reason },
  };
}
