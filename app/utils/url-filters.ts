import { z } from "./zod.ts";

/**
 * A date filter: a day that exists (no 2026-02-30) in the years 1900–2999. The database refuses
 * the rest (year 0, a 31st of June) with an error, and beyond 9999 the date arithmetic breaks.
 */
export const calendarDate = z.iso
  .date()
  .refine((value) => value >= "1900-01-01" && value <= "2999-12-31", "Choose a date from 1900 to 2999");

/** Filter text: trimmed, at most `max` characters, no control characters (the database refuses NUL). */
export function filterText(max: number) {
  return z
    .string()
    .trim()
    .max(max)
    .refine((value) => !/\p{Cc}/u.test(value), "Remove control characters");
}

/**
 * The filters of an admin list, read from the URL (bookmarkable): each key of `keys` is parsed by
 * its field of `shape`; a value that does not parse, or parses to nothing, is dropped rather than
 * refusing the page (the list then shows more, not an error).
 */
export function parseUrlFilters<T extends Partial<Record<string, string>>>(
  params: URLSearchParams,
  keys: readonly (keyof T & string)[],
  shape: Record<keyof T & string, z.ZodType>,
): T {
  const filters: Record<string, string> = {};
  for (const key of keys) {
    const value = params.get(key);
    if (!value) continue;
    const one = shape[key].safeParse(value);
    if (one.success && typeof one.data === "string" && one.data) filters[key] = one.data;
  }
  return filters as T;
}

/**
 * The keys of `keys` whose value in the URL is not blank yet parses to nothing: for a request that
 * must not quietly widen (an export answers 400 naming them rather than export everything).
 */
export function invalidUrlFilters(
  params: URLSearchParams,
  keys: readonly string[],
  shape: Record<string, z.ZodType>,
): string[] {
  return keys.filter((key) => {
    const value = params.get(key);
    if (!value?.trim()) return false;
    const one = shape[key]?.safeParse(value);
    return !one?.success || typeof one.data !== "string" || !one.data;
  });
}

/** The 400 answer of an export whose filters do not parse: plain text naming them. */
export function invalidFiltersResponse(keys: readonly string[]) {
  return new Response(
    `Nothing was exported: these filters are not valid: ${keys.join(", ")}. Dates are yyyy-mm-dd (1900 to 2999); text may not contain control characters.\n`,
    { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } },
  );
}

/** The filters as a query string (no leading '?'), for links that keep them (pager, CSV export). */
export function urlFiltersQuery<T extends Partial<Record<string, string>>>(
  keys: readonly (keyof T & string)[],
  filters: T,
) {
  const params = new URLSearchParams();
  for (const key of keys) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  return params.toString();
}

/** The three readings of one list's filters, for its keys and their schema's fields. */
export function urlFilters<T extends Partial<Record<string, string>>>(
  keys: readonly (keyof T & string)[],
  shape: Record<keyof T & string, z.ZodType>,
) {
  return {
    parse: (params: URLSearchParams) => parseUrlFilters<T>(params, keys, shape),
    invalid: (params: URLSearchParams) => invalidUrlFilters(params, keys, shape),
    query: (filters: T) => urlFiltersQuery(keys, filters),
  };
}
