/**
 * The route pattern of a request (`/product/:slug`, not `/product/blue-dream`), for the request log and the
 * duration histogram: ids never reach a log line or a metric label, and labels stay few.
 */
import { matchRoutes, type RouteObject } from "react-router";

type BuildRoute = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean };

/** Paths answered outside the router, by their own prefix. */
const FIXED_PREFIXES = [
  ["/assets/", "/assets/*"],
  ["/healthz", "/healthz"],
  ["/readyz", "/readyz"],
  ["/metrics", "/metrics"],
] as const;

/** Distinct paths remembered; past it the memo starts again (a crawler of made-up URLs). */
const MEMO_LIMIT = 5_000;

export function routePatterns(routes: Record<string, BuildRoute | undefined>) {
  const byParent = new Map<string | undefined, BuildRoute[]>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const siblings = byParent.get(route.parentId) ?? [];
    siblings.push(route);
    byParent.set(route.parentId, siblings);
  }
  const tree = (parentId: string | undefined): RouteObject[] =>
    (byParent.get(parentId) ?? []).map((route) =>
      route.index
        ? { id: route.id, path: route.path, index: true }
        : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: tree(route.id) },
    );
  const routeObjects = tree(undefined);
  const memo = new Map<string, string>();

  function compute(pathname: string): string {
    for (const [prefix, pattern] of FIXED_PREFIXES) if (pathname.startsWith(prefix)) return pattern;
    // Client navigations fetch `/shop.data`, `/_root.data`: the page's pattern with `.data`.
    const data = pathname.endsWith(".data");
    const path = data ? pathname.slice(0, -5).replace(/^\/_root$/, "/") : pathname;
    const matches = matchRoutes(routeObjects, path);
    if (!matches) return "unmatched";
    const parts: string[] = [];
    for (const { route } of matches) if (route.path) parts.push(route.path.replace(/^\/|\/$/g, ""));
    const pattern = `/${parts.filter(Boolean).join("/")}`;
    return data ? `${pattern}.data` : pattern;
  }

  /** The pattern of `pathname` (no query string). */
  return (pathname: string): string => {
    let pattern = memo.get(pathname);
    if (pattern === undefined) {
      pattern = compute(pathname);
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(pathname, pattern);
    }
    return pattern;
  };
}
