import type { z } from "./zod.ts";

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
