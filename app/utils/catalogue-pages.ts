/**
 * Catalogue pages are declared once, by their route module: `export const handle = { pageCache:
 * true }` marks a page that is the same for every shopper. The page cache (server.ts) and the
 * sitemap read that mark from the build's route table; no list of paths is kept anywhere else.
 */
import { matchRoutes } from "react-router";

/** What a route module's `handle` says about its page. */
export type PageHandle = { pageCache?: boolean };

/** A catalogue page's handle (`export const handle = CATALOGUE_PAGE`): the same page for every shopper, so the page cache stores it and the sitemap lists it. */
export const CATALOGUE_PAGE: PageHandle = { pageCache: true };

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

function marked(routes: RouteTable, id: string) {
  return (routes[id]?.module.handle as PageHandle | undefined)?.pageCache === true;
}

const MEMO_LIMIT = 10_000;

export function cataloguePages(routes: RouteTable) {
  const roots = tree(routes, undefined);
  const memo = new Map<string, boolean>();

  /** True when the page (or its single-fetch data request, `/shop.data`, `/_root.data`) is marked. */
  function isCacheable(pathname: string) {
    const known = memo.get(pathname);
    if (known !== undefined) return known;
    const page = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
    const leaf: Match | undefined = matchRoutes(roots as Parameters<typeof matchRoutes>[0], page)?.at(-1);
    const cacheable = leaf?.route.id !== undefined && marked(routes, leaf.route.id);
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(pathname, cacheable);
    return cacheable;
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

  return { isCacheable, staticPaths };
}
