import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { pipeline } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { createGunzip, createGzip } from "node:zlib";
import { sql } from "drizzle-orm";
import type { Database } from "./client.server.ts";
import { rowsOf } from "./rows.ts";

/**
 * Logical backups: every table as JSON rows, read in one REPEATABLE READ transaction (a consistent
 * snapshot), written as gzipped NDJSON. The same file restores into PGlite or PostgreSQL, so a shop
 * can also move from the embedded database to a server with it.
 */
export const BACKUP_FORMAT = "capital-grown-backup";

/** Parents before children, so a restore satisfies every foreign key as it goes (and NOT_BACKED_UP). */
export const BACKUP_TABLES = [
  "catalog_state",
  "store_settings",
  "delivery_zones",
  "delivery_closures",
  "products",
  "product_slugs",
  "product_sizes",
  "media_files",
  "admin_users",
  "admin_recovery_codes",
  "staff_invitations",
  "admin_sessions",
  "login_attempts",
  "encryption_keys",
  "id_photos",
  "customers",
  "customer_sessions",
  "customer_passkeys",
  "customer_addresses",
  "orders",
  "delivery_slot_bookings",
  "order_items",
  "stock_movements",
  "order_status_events",
  "driver_action_log",
  "email_outbox",
  "order_daily_stats",
  "order_status_counts",
  "driver_cash_sheets",
  "run_manifests",
  "audit_events",
  "delivery_proofs",
  "delivery_failures",
  "sms_opt_outs",
  "customer_id_files",
] as const;

/**
 * Rate-limit counters and half-finished sign-ins only matter for minutes; the audit chain's head
 * is the last event's id and hash, which a restore sets again from the events it holds; delivered
 * revenue is summed again from the orders; the order a driver put their stops in matters for that
 * day only (without it the stops keep their slot's order); a customer's sign-in code and passkey
 * challenge live minutes, a checkout's code 10 minutes (record 054); when a driver's phone last
 * synced is news of the moment. Who replied STOP is kept: a restore must not text them again.
 */
export const NOT_BACKED_UP = [
  "contact_verifications",
  "rate_limits",
  "admin_sign_in_challenges",
  "audit_chain",
  "delivered_revenue",
  "driver_stop_positions",
  "customer_sign_in_codes",
  "customer_passkey_challenges",
  "driver_phone_syncs",
] as const;

/**
 * Columns never written to a backup: an unsent invitation's token (the outbox's `secret`, record
 * 036). Anyone holding a backup must not be able to accept a pending invitation.
 */
const OMITTED_COLUMNS: Partial<Record<(typeof BACKUP_TABLES)[number], string[]>> = {
  email_outbox: ["secret"],
};

/**
 * Append-only (P-27): a restore never empties it. It adds the backup's events the log lacks
 * (by id), so restoring into a new database brings the whole log back, and restoring over a running
 * shop keeps every event recorded since the backup.
 */
const APPEND_ONLY_TABLES: ReadonlySet<string> = new Set(["audit_events"]);

/** Tables with a serial id, whose sequence a restore moves past the restored rows. */
const SERIAL_TABLES = [
  "login_attempts",
  "stock_movements",
  "order_status_events",
  "admin_recovery_codes",
  "audit_events",
];

/**
 * A backup line holds at most CHUNK_ROWS rows and, once a table's largest row so far is known, about
 * CHUNK_BYTES: a line is fetched, written, read back and inserted whole, and the embedded database's
 * memory grows to the largest result it ever sent and never shrinks. 200 ID photos of 400 KB on one
 * line were 160 MB of hex in every one of those places.
 */
const CHUNK_ROWS = 200;
const CHUNK_BYTES = 1024 * 1024;

/** A key by its public id and check value (record 014); the key itself is never in a backup. */
export type KeyFingerprint = { id: string; checkValue: string };

type Header = {
  format: string;
  version: 1;
  createdAt: string;
  tables: Record<string, number>;
  /** The keys a restore needs: the current one and every one a photo is encrypted with. */
  idPhotoKeys?: KeyFingerprint[];
  /** Photos stored before encryption that the server had not encrypted yet when the backup ran. */
  plaintextIdPhotos?: number;
  /**
   * The audit chain's last event in this backup, id and hash (record 036): kept with the backup,
   * outside the database, so a later rewrite of the log shows (`npm run audit:verify --expect`).
   */
  auditChain?: { lastId: string; lastHash: string };
};

export async function backupDatabase(db: Database, file: string) {
  const out = createGzip();
  const sink = createWriteStream(file, { mode: 0o600 });
  out.pipe(sink);
  const writeLine = async (line: string) => {
    if (!out.write(line)) await once(out, "drain");
  };
  const write = (value: unknown) => writeLine(`${JSON.stringify(value)}\n`);
  const counts: Record<string, number> = {};
  let plaintextIdPhotos = 0;
  let auditChain: Header["auditChain"];
  await db.transaction(
    async (tx) => {
      for (const table of BACKUP_TABLES) {
        const total = Number(
          rowsOf(await tx.execute(sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`))[0]?.n ?? 0,
        );
        counts[table] = total;
      }
      const idPhotoKeys = rowsOf(
        await tx.execute(sql`SELECT key_id AS id, check_value AS "checkValue" FROM encryption_keys AS k
          WHERE k.retired_at IS NULL OR EXISTS (SELECT 1 FROM id_photos AS p WHERE p.key_id = k.key_id)
          ORDER BY k.retired_at NULLS FIRST, k.key_id`),
      ) as KeyFingerprint[];
      plaintextIdPhotos = Number(
        rowsOf(await tx.execute(sql`SELECT count(*)::int AS n FROM id_photos WHERE key_id IS NULL`))[0]?.n ??
          0,
      );
      const [chainHead] = rowsOf<{ lastId: string; lastHash: string }>(
        await tx.execute(
          sql`SELECT head_id::text AS "lastId", head_hash AS "lastHash" FROM audit_chain WHERE id = 1`,
        ),
      );
      auditChain = chainHead;
      const header: Header = {
        format: BACKUP_FORMAT,
        version: 1,
        createdAt: new Date().toISOString(),
        tables: counts,
        idPhotoKeys,
        plaintextIdPhotos,
        ...(chainHead ? { auditChain: chainHead } : {}),
      };
      await write(header);
      for (const table of BACKUP_TABLES) {
        if (!counts[table]) continue;
        const omitted = OMITTED_COLUMNS[table];
        const row = omitted
          ? // Column names of our own schema, never input: written into the cursor's query as they are.
            sql`(row_to_json(t)::jsonb - ${sql.raw(`'{${omitted.join(",")}}'`)}::text[])::text`
          : sql`row_to_json(t)::text`;
        // A cursor reads the table once (an OFFSET per line re-read every row before it), as JSON
        // text written as it comes (never parsed and stringified again).
        await tx.execute(
          sql`DECLARE backup_rows NO SCROLL CURSOR FOR SELECT ${row} AS row FROM (SELECT * FROM ${sql.identifier(table)} ORDER BY 1) t`,
        );
        let fetch = 1;
        let largestRow = 0;
        for (;;) {
          const rows = rowsOf<{ row: string }>(
            await tx.execute(sql`FETCH ${sql.raw(String(fetch))} FROM backup_rows`),
          ).map((entry) => entry.row);
          if (rows.length === 0) break;
          await writeLine(`{"table":${JSON.stringify(table)},"rows":[${rows.join(",")}]}\n`);
          if (rows.length < fetch) break;
          for (const row of rows) largestRow = Math.max(largestRow, row.length);
          fetch = Math.max(1, Math.min(CHUNK_ROWS, Math.floor(CHUNK_BYTES / largestRow)));
        }
        await tx.execute(sql`CLOSE backup_rows`);
      }
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
  out.end();
  await once(sink, "finish");
  return { counts, plaintextIdPhotos, auditChain };
}

export class BackupFormatError extends Error {}

/** The backup's ID photos need a key this instance does not hold: nothing is restored. */
export class BackupKeyError extends Error {}

function assertKeysAvailable(header: Header, available: KeyFingerprint[]) {
  for (const needed of header.idPhotoKeys ?? []) {
    const held = available.some((key) => key.id === needed.id && key.checkValue === needed.checkValue);
    if (held) continue;
    const has = available.length > 0 ? `key ${available.map((key) => key.id).join(", ")}` : "no ID photo key";
    throw new BackupKeyError(
      `This backup's ID photos are encrypted with key ${needed.id}; this instance has ${has}: set ID_PHOTO_KEY (or ID_PHOTO_PREVIOUS_KEYS) to key ${needed.id} and restore again. Nothing was restored.`,
    );
  }
}

/**
 * The lines of a gzipped backup, read as they are consumed: readline reads its input as fast as it
 * comes and queues the lines, so a slow consumer (a database insert per line) had the whole
 * decompressed file in memory.
 */
async function* backupLines(file: string): AsyncGenerator<string> {
  const input = pipeline(createReadStream(file), createGunzip(), () => {});
  const decoder = new StringDecoder("utf8");
  let pieces: string[] = [];
  try {
    for await (const chunk of input) {
      const text = decoder.write(chunk as Buffer);
      let start = 0;
      for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
        pieces.push(text.slice(start, end));
        yield pieces.join("");
        pieces = [];
        start = end + 1;
      }
      if (start < text.length) pieces.push(text.slice(start));
    }
    pieces.push(decoder.end());
    const last = pieces.join("");
    if (last) yield last;
  } finally {
    input.destroy();
  }
}

export async function readBackupHeader(file: string): Promise<Header> {
  for await (const line of backupLines(file)) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line);
    if (entry.format !== BACKUP_FORMAT || entry.version !== 1) break;
    return entry as Header;
  }
  throw new BackupFormatError(`${file} is not a Capital Grown backup`);
}

/** Checks, before any database is opened, that this instance holds the keys a backup needs. */
export async function checkBackupKeys(file: string, availableKeys: KeyFingerprint[]) {
  assertKeysAvailable(await readBackupHeader(file), availableKeys);
}

type BackupEntry = { header: Header } | { table: string; rows: Record<string, unknown>[] };

/**
 * A backup's header, then each of its lines of rows, one line in memory at a time. A file that is
 * not a backup, is empty, or names a table no backup holds throws a BackupFormatError.
 */
async function* backupEntries(file: string): AsyncGenerator<BackupEntry> {
  let header: Header | undefined;
  for await (const line of backupLines(file)) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line);
    if (!header) {
      if (entry.format !== BACKUP_FORMAT || entry.version !== 1) {
        throw new BackupFormatError(`${file} is not a Capital Grown backup`);
      }
      header = entry as Header;
      yield { header };
      continue;
    }
    const table = entry.table as string;
    if (!(BACKUP_TABLES as readonly string[]).includes(table) || !Array.isArray(entry.rows)) {
      throw new BackupFormatError(`Unknown table ${table} in ${file}`);
    }
    yield { table, rows: entry.rows };
  }
  if (!header) throw new BackupFormatError(`${file} is empty`);
}

/**
 * Replaces every row of the shop's tables with the backup's, in one transaction, after checking
 * this instance holds the keys its ID photos are encrypted with (`availableKeys`, current first).
 */
export async function restoreDatabase(
  db: Database,
  file: string,
  options: { availableKeys: KeyFingerprint[] },
) {
  const restored: Record<string, number> = {};
  await db.transaction(async (tx) => {
    for await (const entry of backupEntries(file)) {
      if ("header" in entry) {
        const { header } = entry;
        assertKeysAvailable(header, options.availableKeys);
        // Only the tables the backup holds: one from before a table was backed up (delivery zones,
        // settings, the audit log) leaves that table as it is.
        const held = Object.keys(header.tables);
        const replaced = BACKUP_TABLES.filter(
          (table) => held.includes(table) && !APPEND_ONLY_TABLES.has(table),
        );
        await tx.execute(
          sql.raw(`TRUNCATE ${replaced.map((table) => `"${table}"`).join(", ")} RESTART IDENTITY CASCADE`),
        );
        await tx.execute(sql`SELECT set_config('capital_grown.audit_restore', 'on', true)`);
        continue;
      }
      const { table, rows } = entry;
      // The backup's own columns only: a column added since (a size's SKU, a product's version)
      // takes its default instead of a null.
      const columns = Object.keys(rows[0] ?? {});
      if (columns.length === 0) continue;
      const list = sql.join(
        columns.map((column) => sql.identifier(column)),
        sql`, `,
      );
      // The audit log keeps its own events: only the backup's events it lacks are added, in id order,
      // as stored (hashes included: the chain's trigger lets a restore's hashed rows through).
      const keepExisting = APPEND_ONLY_TABLES.has(table)
        ? sql` AS r WHERE NOT EXISTS (SELECT 1 FROM ${sql.identifier(table)} AS e WHERE e.id = r.id) ORDER BY r.id`
        : sql``;
      await tx.execute(
        sql`INSERT INTO ${sql.identifier(table)} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${sql.identifier(table)}, ${JSON.stringify(rows)}::json)${keepExisting}`,
      );
      restored[table] = (restored[table] ?? 0) + rows.length;
    }
    for (const serialTable of SERIAL_TABLES) {
      await tx.execute(
        sql`SELECT setval(pg_get_serial_sequence(${serialTable}, 'id'), GREATEST((SELECT max(id) FROM ${sql.identifier(serialTable)}), 1))`,
      );
    }
    // A backup from before the stock ledger (record 026): each size's stock gets its opening movement.
    await tx.execute(sql`INSERT INTO stock_movements (size_id, delta, reason, note)
      SELECT s.id, s.inventory_count - coalesce(m.total, 0), 'correction', 'Opening stock: restored from a backup'
      FROM product_sizes AS s
      LEFT JOIN (SELECT size_id, sum(delta) AS total FROM stock_movements GROUP BY size_id) AS m ON m.size_id = s.id
      WHERE s.inventory_count <> coalesce(m.total, 0)`);
    // The delivered orders' revenue is derived, not backed up: summed from the restored orders.
    await tx.execute(sql`UPDATE delivered_revenue SET total_cents =
      (SELECT coalesce(sum(total_amount_cents), 0) FROM orders WHERE status = 'delivered') WHERE id = 1`);
    await tx.execute(sql`SELECT set_config('capital_grown.audit_restore', 'off', true)`);
    // The chain's head is the last event restored or kept; the next verification walks it all again.
    await tx.execute(sql`UPDATE audit_chain SET
      head_id = coalesce((SELECT max(id) FROM audit_events), 0),
      head_hash = coalesce((SELECT hash FROM audit_events ORDER BY id DESC LIMIT 1), repeat('0', 64)),
      verified_id = NULL, verified_hash = NULL, verified_at = NULL
      WHERE id = 1`);
    // A pending invitation in a backup must not be accepted from it (record 036): every pending one
    // is withdrawn, and its mail (which never holds the link at rest) is not sent again.
    await tx.execute(
      sql`UPDATE staff_invitations SET revoked_at = now() WHERE accepted_at IS NULL AND revoked_at IS NULL`,
    );
    await tx.execute(sql`UPDATE email_outbox SET status = 'failed', locked_until = NULL, secret = NULL,
      last_error = 'Invitation withdrawn by a restore: invite again from Staff'
      WHERE kind = 'staff-invitation' AND status IN ('queued', 'sending', 'held')`);
    // Mails pending at backup time mostly went out since: held for review in the admin outbox,
    // never sent blindly (record 017).
    await tx.execute(
      sql`UPDATE email_outbox SET status = 'held', locked_until = NULL WHERE status IN ('queued', 'sending')`,
    );
    // Cached catalogue pages everywhere must be thrown away.
    await tx.execute(sql`UPDATE catalog_state SET version = version + 1, changed_at = now() WHERE id = 1`);
    await tx.execute(sql`SELECT pg_notify('catalog_changed', 'restore')`);
  });
  return restored;
}

/**
 * Reads a backup back as a stream, one line at a time, and has `db` turn every row into its
 * table's row type (the conversion a restore does) without writing anything: a file cut short, a
 * corrupt one (gzip's checksum) or a row the table would refuse fails the check. Returns the rows
 * found per table. Nothing is held but one line, and no second database is opened.
 */
export async function checkBackupFile(db: Database, file: string) {
  const found: Record<string, number> = {};
  let header: Header | undefined;
  for await (const line of backupLines(file)) {
    if (!line.trim()) continue;
    if (!header) {
      const entry = JSON.parse(line);
      if (entry.format !== BACKUP_FORMAT || entry.version !== 1) {
        throw new BackupFormatError(`${file} is not a Capital Grown backup`);
      }
      header = entry as Header;
      continue;
    }
    const { table, rows } = rowsOfLine(line, file);
    if (rows === "[]") continue;
    const parsed = rowsOf(
      await db.execute(
        sql`SELECT count(*)::int AS n FROM json_populate_recordset(NULL::${sql.identifier(table)}, ${rows}::json)`,
      ),
    )[0]?.n;
    found[table] = (found[table] ?? 0) + Number(parsed ?? 0);
  }
  if (!header) throw new BackupFormatError(`${file} is empty`);
  return { header, found };
}

const LINE_START = /^\{"table":"([a-z_]+)","rows":/;

/**
 * A line of rows as its table and the rows' JSON text, as `backupDatabase` writes it: the check
 * hands that text to the database as it is (parsing a 1 MB line and writing it out again made two
 * more copies of it). A line of another shape is parsed; a table no backup holds is refused.
 */
function rowsOfLine(line: string, file: string): { table: string; rows: string } {
  const start = LINE_START.exec(line.slice(0, 64));
  let table: string;
  let rows: string;
  if (start && line.endsWith("}")) {
    table = start[1] as string;
    rows = line.slice(start[0].length, -1);
  } else {
    const entry = JSON.parse(line);
    table = entry.table;
    if (!Array.isArray(entry.rows)) throw new BackupFormatError(`A line without rows in ${file}`);
    rows = JSON.stringify(entry.rows);
  }
  if (!(BACKUP_TABLES as readonly string[]).includes(table)) {
    throw new BackupFormatError(`Unknown table ${table} in ${file}`);
  }
  return { table, rows };
}

/** Mails a restore held for review (pending when the backup was taken). */
export async function countHeldEmails(db: Database) {
  return Number(
    rowsOf(await db.execute(sql`SELECT count(*)::int AS n FROM email_outbox WHERE status = 'held'`))[0]?.n ??
      0,
  );
}
