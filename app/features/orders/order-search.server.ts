/**
 * The SQL of the admin order search (record 030). Every kind of match is a prefix
 * match on its own btree index (`text_pattern_ops`, drizzle/0010), so a search at 100,000 orders is a
 * BitmapOr of a few index ranges, on PGlite and PostgreSQL alike (no pg_trgm):
 * - order number: the first hex digits of the id ('#3f2a', '3f2a9b1c') → a range on the primary key;
 * - phone: the number typed, as E.164 when it is a whole one; otherwise its digits (3 or more) at
 *   the start or the end of the stored number's digits (an area code, the last four digits);
 * - e-mail: the start of the address; name: the start of the whole name or of its last word (the last name).
 */
import { and, gte, inArray, lte, type SQL, sql } from "drizzle-orm";
import { type OrderStatus, orders } from "#app/db/schema.ts";
import { normalizePhone } from "#app/utils/phone.server.ts";
import type { OrderFilters } from "./order-search.schema.ts";

/** LIKE's special characters taken literally. */
function likePrefix(value: string) {
  return `${value.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

const ID_PREFIX = /^#?([0-9a-f]{4,8})$/i;

/** The orders matching the search text `q`, or undefined for an empty search. */
export function orderSearchCondition(q: string | undefined): SQL | undefined {
  const text = (q ?? "").trim().toLowerCase();
  if (!text) return undefined;
  const conditions: SQL[] = [
    sql`lower(${orders.customerName}) LIKE ${likePrefix(text)}`,
    sql`lower(${orders.userEmail}) LIKE ${likePrefix(text)}`,
  ];
  if (!/\s/.test(text)) {
    conditions.push(
      sql`regexp_replace(lower(${orders.customerName}), '^.*\\s', '') LIKE ${likePrefix(text)}`,
    );
  }
  const idPrefix = ID_PREFIX.exec(text)?.[1];
  if (idPrefix) {
    const low = `${idPrefix.padEnd(8, "0")}-0000-0000-0000-000000000000`;
    const high = `${idPrefix.padEnd(8, "f")}-ffff-ffff-ffff-ffffffffffff`;
    conditions.push(sql`${orders.id} BETWEEN ${low}::uuid AND ${high}::uuid`);
  }
  const digits = text.replace(/\D/g, "");
  if (digits.length >= 3 && /^[\d\s()+.-]+$/.test(text)) {
    // Phones are stored as E.164 (+12025554321; drizzle/0020): a whole number however it is typed
    // is that number's digits; a part is the start (a US area code gets its country code 1) or the
    // end (the last four digits) of them.
    const phoneDigits = sql`regexp_replace(${orders.phone}, '\\D', '', 'g')`;
    const whole = normalizePhone(text);
    if (whole) conditions.push(sql`${phoneDigits} = ${whole.slice(1)}`);
    conditions.push(sql`${phoneDigits} LIKE ${likePrefix(digits)}`);
    if (!text.startsWith("+")) conditions.push(sql`${phoneDigits} LIKE ${likePrefix(`1${digits}`)}`);
    conditions.push(sql`reverse(${phoneDigits}) LIKE ${likePrefix([...digits].reverse().join(""))}`);
    // A US number typed with its 1 also finds one stored without it (a row 0020 could not rewrite).
    if (digits.length === 11 && digits.startsWith("1")) {
      conditions.push(sql`${phoneDigits} LIKE ${likePrefix(digits.slice(1))}`);
    }
  }
  return sql`(${sql.join(conditions, sql` OR `)})`;
}

/** Search, status and delivery-date range within the statuses of one list. */
export function orderFilterCondition(
  statuses: readonly OrderStatus[],
  filters: OrderFilters,
): SQL | undefined {
  const wanted = filters.status ? statuses.filter((status) => status === filters.status) : statuses;
  return and(
    inArray(orders.status, wanted.length > 0 ? [...wanted] : ["__none__" as OrderStatus]),
    filters.from ? gte(orders.deliveryDate, filters.from) : undefined,
    filters.to ? lte(orders.deliveryDate, filters.to) : undefined,
    orderSearchCondition(filters.q),
  );
}
