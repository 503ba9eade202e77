/**
 * Catalogue pages are declared once, by their route module: `export const handle = { pageCache:
 * true }` marks a page that is the same for every shopper. The page cache (server.ts) and the
 * sitemap read that mark from the build's route table; no list of paths is kept anywhere else.
 */
import { matchRoutes } from "react-router";

/**
 * What a route module's `handle` says about its page: cached, and the query parameters its page
 * reads (`pageParams`). Any other parameter (utm_source, fbclid, gclid, a made-up one) changes
 * nothing on the page, so the page cache leaves it out of the key and renders without it.
 */
export type PageHandle = { pageCache?: boolean; pageParams?: readonly string[] };

/** A catalogue page's handle (`export const handle = CATALOGUE_PAGE`): the same page for every shopper, so the page cache stores it and the sitemap lists it. Its page reads no query parameter. */
export const CATALOGUE_PAGE: PageHandle = { pageCache: true };

/** The handle of a catalogue page whose content depends on these query parameters (and no others). */
export function cataloguePage(pageParams: readonly string[]): PageHandle {
  return { pageCache: true, pageParams };
}

/** The part of a React Router build's route table (`build.routes`) read here. */
export type RouteTable = Record<
  string,
  { id: string; parentId?: string; path?: string; index?: boolean; module: { handle?: unknown } } | undefined
>;

type RouteNode = { id: string; path?: string; index?: boolean; children?: RouteNode[] };
type Match = { route: { id?: string } };

function tree(routes: RouteTable, parentId: string | undefined): RouteNode[] {
  return Object.values(routes)
    .filter((route) => route?.parentId === parentId)
    .flatMap((route) => (route ? [route] : []))
    .map((route) => ({
      id: route.id,
      path: route.path,
      index: route.index,
      children: route.index ? undefined : tree(routes, route.id),
    }));
}

function handleOf(routes: RouteTable, id: string) {
  return routes[id]?.module.handle as PageHandle | undefined;
}

function marked(routes: RouteTable, id: string) {
  return handleOf(routes, id)?.pageCache === true;
}

const NO_PARAMS: ReadonlySet<string> = new Set();

const MEMO_LIMIT = 10_000;

export function cataloguePages(routes: RouteTable) {
  const roots = tree(routes, undefined);
  const memo = new Map<string, ReadonlySet<string> | null>();

  /**
   * The query parameters a marked page (or its single-fetch data request, `/shop.data`,
   * `/_root.data`) reads, or null when the page is not marked.
   */
  function pageParams(pathname: string): ReadonlySet<string> | null {
    const known = memo.get(pathname);
    if (known !== undefined) return known;
    const page = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
    const leaf: Match | undefined = matchRoutes(roots as Parameters<typeof matchRoutes>[0], page)?.at(-1);
    const id = leaf?.route.id;
    const params =
      id !== undefined && marked(routes, id) ? new Set(handleOf(routes, id)?.pageParams ?? NO_PARAMS) : null;
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(pathname, params);
    return params;
  }

  /** True when the page (or its single-fetch data request) is marked. */
  function isCacheable(pathname: string) {
    return pageParams(pathname) !== null;
  }

  /** Every marked page without a dynamic segment, as a path ("/", "/shop", "/flower"…). */
  function staticPaths(): string[] {
    const paths: string[] = [];
    const walk = (nodes: RouteNode[], prefix: string) => {
      for (const node of nodes) {
        const path = node.path ? `${prefix}/${node.path}`.replace(/\/+/g, "/") : prefix;
        if (marked(routes, node.id) && !/[:*]/.test(path)) paths.push(path || "/");
        if (node.children) walk(node.children, path);
      }
    };
    walk(roots, "");
    return paths;
  }

  return { isCacheable, pageParams, staticPaths };
}
