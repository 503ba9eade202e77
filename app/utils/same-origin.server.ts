/**
 * Is a state-changing request from this shop's own pages? Browsers send `Origin` on every POST (and
 * `Sec-Fetch-Site`); a form or script on another site cannot forge either. A request with neither
 * header is not a browser's cross-site request (curl, a server-side client), so it passes: the check
 * is against cross-site request forgery, not against scripts, which have other limits.
 */
import { config } from "./env.server.ts";

export type OriginHeaders = { origin?: string | null; secFetchSite?: string | null };

export function isSameOriginHeaders(headers: OriginHeaders, ownOrigins: readonly string[]) {
  if (headers.origin) return ownOrigins.includes(headers.origin);
  if (headers.secFetchSite) return headers.secFetchSite === "same-origin" || headers.secFetchSite === "none";
  return true;
}

/** For a Fetch API request (loaders, actions, middleware). */
export function isSameOrigin(request: Request) {
  return isSameOriginHeaders(
    { origin: request.headers.get("Origin"), secFetchSite: request.headers.get("Sec-Fetch-Site") },
    [new URL(request.url).origin, new URL(config().publicUrl).origin],
  );
}
