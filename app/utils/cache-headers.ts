/** Pages and answers about one shopper's order or photo: never stored by a browser or a proxy. */
export const PRIVATE_NO_STORE = { "Cache-Control": "private, no-store" } as const;

/** A route module's `headers` for such a page. */
export function privateNoStoreHeaders() {
  return PRIVATE_NO_STORE;
}
