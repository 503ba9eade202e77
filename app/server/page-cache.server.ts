/**
 * Rendered-response cache for the catalogue pages. Those pages are the same for every
 * shopper (the cart lives in the browser), so a rendered 200 response is kept in memory with its
 * gzip and brotli bodies and a strong ETag, and served again until the catalogue version changes.
 *
 * - Key: path + the sorted query parameters the page reads (its route's `pageParams`); any other
 *   parameter (utm_*, fbclid, gclid, a made-up one) is left out of the key and out of the render, so
 *   a new value of it is a hit, not a render. GET and HEAD share an entry (HEAD is answered from it,
 *   never stored).
 * - Only an allow-list of catalogue paths (and their `.data` single-fetch twins) is cached; anything
 *   else, and any request carrying one of our cookies (`cg_*`: the toast, the admin session), passes.
 * - Each entry is tagged with the catalogue version read BEFORE it was rendered; it is served only
 *   while that version is the current one. The version comes from `currentVersion()`, which returns
 *   undefined when it cannot vouch for freshness (then the cache neither serves nor stores), except
 *   while the database cannot be reached at all: then entries of the last version read are served
 *   as they are (`X-Cache: STALE`; nothing can change the catalogue meanwhile).
 * - Bounded by bytes, least recently used entries go first. Concurrent misses of one key render once.
 * - A miss is compressed with a fast brotli quality; an entry served again is compressed once more at
 *   `refinedBrotliQuality`, off the request path (see `#refine`): the smaller body brings /shop's
 *   whole first response within the 10 packets a TCP connection may send before its first
 *   acknowledgement (record 025 has the figures).
 *
 * Plain Node types (IncomingMessage/ServerResponse) so it is used as an Express middleware by
 * server.ts and tested without a server.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { brotliCompress, gzip, gzipSync, constants as zlibConstants } from "node:zlib";
import { hashPolicy } from "./content-security-policy.server.ts";

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Response headers that belong to one exchange, never to a stored entry. */
const EXCHANGE_HEADERS = new Set([
  "set-cookie",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
  "etag",
  "vary",
  "cache-control",
  "x-request-id",
]);

/** Catalogue pages must be revalidated by browsers (they get a 304 while nothing changed). */
const CACHE_CONTROL = "no-cache";
const MAX_ENTRY_BYTES = 4 * 1024 * 1024;
/** Entries waiting for a refined brotli body at most; others are queued again when next served. */
const REFINE_QUEUE = 64;

/** A text body compressed with brotli at `quality`, on libuv's thread pool (also the build assets'). */
export function brotliText(body: Buffer, quality: number): Promise<Buffer> {
  return brotliAsync(body, {
    params: {
      [zlibConstants.BROTLI_PARAM_QUALITY]: quality,
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
      [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
    },
  });
}

export type CachedPage = {
  key: string;
  version: number;
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
  gzip: Buffer;
  br: Buffer;
  /** Its Content-Security-Policy: the hashes of its own inline scripts (record 013). */
  csp: string;
  etag: { identity: string; gzip: string; br: string };
  bytes: number;
  /** Its brotli body has been (or is being) compressed again at the refined quality. */
  refined?: boolean;
};

export type Encoding = "br" | "gzip" | "identity";

export type PageCacheOptions = {
  /**
   * The query parameters a catalogue page (or its `.data` request) reads, from its route's handle;
   * null when the path is not a catalogue page (`cataloguePages(routes).pageParams`).
   */
  pageParams: (pathname: string) => ReadonlySet<string> | null;
  /** The catalogue version pages are rendered at now, or undefined when it is not known to be fresh. */
  currentVersion: () => number | undefined;
  /**
   * While the database cannot be reached: the last version read, whose pages are served as they are
   * (nothing can change the catalogue through a database nobody reaches); undefined otherwise.
   */
  unreachableVersion?: () => number | undefined;
  /**
   * Renders a request with the app (a miss), for `url`: the cache key, the path with only the
   * parameters the page reads (the page is shared: another shopper's tracking parameters must not
   * end up in its links). The response is buffered.
   */
  render: (req: IncomingMessage, res: ServerResponse, url: string) => Promise<Response>;
  maxBytes?: number;
  /** Brotli quality for stored bodies (computed once per entry; 11 is far too slow for a miss). */
  brotliQuality?: number;
  /**
   * Brotli quality an entry's body is compressed with again once it is served a second time (0: never).
   * One entry at a time on libuv's thread pool, then a pause of three times that work, so the work
   * stays under a quarter of one pool thread whatever a client requests; an entry asked for only once
   * (a one-off query string) is never refined.
   */
  refinedBrotliQuality?: number;
  /**
   * The Content-Security-Policy of a page `render` made (rendered without a nonce: its bytes are
   * shared), from its HTML: by default, the hashes of its inline scripts.
   */
  policyFor?: (html: string) => string;
};

/**
 * The cache key of a request URL, or null when the path is not a catalogue page (one whose route
 * says `handle: { pageCache: true }`, app/utils/catalogue-pages.ts) or the request is a search:
 * every `q` would be an entry of its own, and searches have a per-address budget the app counts
 * (P-30), which a cached answer would skip. Nor a ZIP check (`zip=`, P-21).
 * Only the parameters the page reads are in the key (and `_routes`, which picks the routes of a
 * `.data` request); the rest change nothing on the page.
 */
export function cacheKey(
  url: string,
  pageParams: (pathname: string) => ReadonlySet<string> | null,
): string | null {
  const q = url.indexOf("?");
  const pathname = q === -1 ? url : url.slice(0, q);
  const reads = pageParams(pathname);
  if (reads === null) return null;
  if (q === -1 || q === url.length - 1) return pathname;
  const isData = pathname.endsWith(".data");
  const params = [...new URLSearchParams(url.slice(q + 1))].filter(
    ([name]) => reads.has(name) || (isData && name === "_routes"),
  );
  if (params.length === 0) return pathname;
  if (params.some(([name, value]) => name === "q" && value.trim() !== "")) return null;
  // The landing page's ZIP check (P-21): each answer is rendered from the current zones,
  // never stored, so no cached page holds an answer and no ZIP list fills the cache.
  if (params.some(([name]) => name === "zip")) return null;
  params.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return `${pathname}?${new URLSearchParams(params).toString()}`;
}

/** True when the request carries a cookie the app reads (ours are all named `cg_…`). */
export function hasPrivateCookie(cookieHeader: string | undefined): boolean {
  if (!cookieHeader) return false;
  for (const part of cookieHeader.split(";")) {
    if (part.trimStart().startsWith("cg_")) return true;
  }
  return false;
}

const encodingMemo = new Map<string, Encoding>();

/** The best stored encoding a client accepts (brotli, then gzip, then none). */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return "identity";
  const memo = encodingMemo.get(acceptEncoding);
  if (memo) return memo;
  const accepted = new Map<string, number>();
  for (const token of acceptEncoding.toLowerCase().split(",")) {
    const [name = "", ...params] = token.trim().split(";");
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const quality = qParam ? Number(qParam.slice(2)) : 1;
    accepted.set(name.trim(), Number.isFinite(quality) ? quality : 0);
  }
  const star = accepted.get("*") ?? 0;
  const accepts = (name: string) => (accepted.get(name) ?? star) > 0;
  const result: Encoding = accepts("br") ? "br" : accepts("gzip") ? "gzip" : "identity";
  if (encodingMemo.size < 256) encodingMemo.set(acceptEncoding, result);
  return result;
}

function etagMatches(ifNoneMatch: string, entry: CachedPage) {
  if (ifNoneMatch.trim() === "*") return true;
  for (const raw of ifNoneMatch.split(",")) {
    const tag = raw.trim().replace(/^W\//, "");
    if (tag === entry.etag.identity || tag === entry.etag.gzip || tag === entry.etag.br) return true;
  }
  return false;
}

const defaultPolicy = (html: string) => hashPolicy([], html);

/** Builds an entry from a rendered response: null when it must not be stored. */
export async function toEntry(
  key: string,
  version: number,
  response: Response,
  body: Buffer,
  brotliQuality = 5,
  policyFor: (html: string) => string = defaultPolicy,
): Promise<CachedPage | null> {
  if (response.status !== 200) return null;
  const type = response.headers.get("content-type") ?? "";
  if (!type.startsWith("text/html") && !type.startsWith("text/x-script")) return null;
  if (response.headers.has("set-cookie")) return null;
  const cacheControl = response.headers.get("cache-control") ?? "";
  if (/no-store|private/i.test(cacheControl)) return null;
  if (body.length > MAX_ENTRY_BYTES) return null;
  const headers: Array<[string, string]> = [];
  response.headers.forEach((value, name) => {
    if (!EXCHANGE_HEADERS.has(name)) headers.push([name, value]);
  });
  const [gz, br] = await Promise.all([gzipAsync(body, { level: 6 }), brotliText(body, brotliQuality)]);
  const hash = createHash("sha256").update(body).digest("base64url").slice(0, 27);
  return {
    key,
    version,
    status: 200,
    headers,
    body,
    gzip: gz,
    br,
    csp: policyFor(type.startsWith("text/html") ? body.toString("utf8") : ""),
    etag: { identity: `"${hash}"`, gzip: `"${hash}-gz"`, br: `"${hash}-br"` },
    bytes: body.length + gz.length + br.length + 512,
  };
}

export type PageCacheStats = {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
  bypasses: number;
  notModified: number;
};

export class PageCache {
  readonly #entries = new Map<string, CachedPage>();
  readonly #inflight = new Map<string, Promise<CachedPage | null>>();
  readonly #options: Required<PageCacheOptions>;
  #bytes = 0;
  #stats = { hits: 0, misses: 0, bypasses: 0, notModified: 0 };
  /** Entries waiting for their refined brotli body, oldest first (at most REFINE_QUEUE). */
  readonly #toRefine: CachedPage[] = [];
  #refining = false;

  constructor(options: PageCacheOptions) {
    this.#options = {
      maxBytes: 64 * 1024 * 1024,
      brotliQuality: 5,
      refinedBrotliQuality: 11,
      unreachableVersion: () => undefined,
      policyFor: defaultPolicy,
      ...options,
    };
  }

  get stats(): PageCacheStats {
    return { entries: this.#entries.size, bytes: this.#bytes, ...this.#stats };
  }

  /** Drops every entry (e.g. when the catalogue version moves on). */
  clear() {
    this.#entries.clear();
    this.#bytes = 0;
  }

  /** The stored entry for a key if it is still current. */
  lookup(key: string, version: number): CachedPage | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version) {
      this.#delete(key);
      return undefined;
    }
    // Most recently used goes last.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry;
  }

  store(entry: CachedPage) {
    this.#delete(entry.key);
    if (entry.bytes > this.#options.maxBytes) return;
    this.#entries.set(entry.key, entry);
    this.#bytes += entry.bytes;
    for (const [key] of this.#entries) {
      if (this.#bytes <= this.#options.maxBytes) break;
      this.#delete(key);
    }
  }

  #delete(key: string) {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }

  /** Express-style middleware: answers from the cache, or renders, stores and answers. */
  handle = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
    const method = req.method;
    if (method !== "GET" && method !== "HEAD") return next();
    const url = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? "/";
    const key = cacheKey(url, this.#options.pageParams);
    if (key === null) return next();
    if (hasPrivateCookie(req.headers.cookie)) {
      this.#stats.bypasses++;
      res.setHeader("X-Cache", "BYPASS");
      return next();
    }
    // Read the version BEFORE rendering: a page rendered while a change commits is tagged with the
    // older version, so it is dropped as soon as the newer one is known.
    const version = this.#options.currentVersion();
    if (version === undefined) {
      const lastKnown = this.#options.unreachableVersion();
      const stale = lastKnown === undefined ? undefined : this.lookup(key, lastKnown);
      if (stale) {
        this.#stats.hits++;
        this.#send(req, res, stale, "STALE");
        return;
      }
      this.#stats.bypasses++;
      res.setHeader("X-Cache", "BYPASS");
      return next();
    }
    const entry = this.lookup(key, version);
    if (entry) {
      this.#stats.hits++;
      this.#send(req, res, entry, "HIT");
      if (!entry.refined) this.#refine(entry);
      return;
    }
    if (method === "HEAD") return next();
    this.#stats.misses++;
    this.#miss(req, res, key, version).catch(next);
  };

  async #miss(req: IncomingMessage, res: ServerResponse, key: string, version: number) {
    const flightKey = `${version} ${key}`;
    const pending = this.#inflight.get(flightKey);
    if (pending) {
      const shared = await pending;
      if (shared) {
        this.#send(req, res, shared, "HIT");
        return;
      }
    }
    let resolveFlight: (entry: CachedPage | null) => void = () => {};
    if (!pending) {
      this.#inflight.set(
        flightKey,
        new Promise((resolve) => {
          resolveFlight = resolve;
        }),
      );
    }
    let entry: CachedPage | null = null;
    try {
      const response = await this.#options.render(req, res, key);
      const body = Buffer.from(await response.arrayBuffer());
      entry = await toEntry(
        key,
        version,
        response,
        body,
        this.#options.brotliQuality,
        this.#options.policyFor,
      );
      if (entry && this.#options.currentVersion() === version) this.store(entry);
      if (entry) this.#send(req, res, entry, "MISS");
      else sendUncached(req, res, response, body, this.#options.policyFor);
    } finally {
      if (!pending) {
        this.#inflight.delete(flightKey);
        resolveFlight(entry);
      }
    }
  }

  /** Queues an entry for its refined brotli body; the queue is worked through one entry at a time. */
  #refine(entry: CachedPage) {
    const quality = this.#options.refinedBrotliQuality;
    if (quality <= this.#options.brotliQuality || this.#toRefine.length >= REFINE_QUEUE) return;
    entry.refined = true;
    this.#toRefine.push(entry);
    if (!this.#refining) void this.#refineQueued(quality);
  }

  async #refineQueued(quality: number) {
    this.#refining = true;
    for (let entry = this.#toRefine.shift(); entry; entry = this.#toRefine.shift()) {
      // Replaced, evicted or cleared meanwhile: its bytes are no longer served.
      if (this.#entries.get(entry.key) !== entry) continue;
      const started = performance.now();
      // A body brotli fails to compress again keeps the one it has.
      const br = await brotliText(entry.body, quality).catch(() => null);
      const took = performance.now() - started;
      if (br && this.#entries.get(entry.key) === entry && br.length < entry.br.length) {
        this.#bytes += br.length - entry.br.length;
        entry.bytes += br.length - entry.br.length;
        entry.br = br;
      }
      await new Promise((resolve) => setTimeout(resolve, 3 * took).unref());
    }
    this.#refining = false;
  }

  /** Waits until every queued entry has its refined body (tests). */
  async refined(): Promise<void> {
    while (this.#refining || this.#toRefine.length > 0)
      await new Promise((resolve) => setTimeout(resolve, 10));
  }

  #send(req: IncomingMessage, res: ServerResponse, entry: CachedPage, state: "HIT" | "MISS" | "STALE") {
    const encoding = preferredEncoding(req.headers["accept-encoding"] as string | undefined);
    const etag = entry.etag[encoding];
    const ifNoneMatch = req.headers["if-none-match"];
    if (ifNoneMatch && etagMatches(ifNoneMatch, entry)) {
      this.#stats.notModified++;
      // The browser keeps its copy; the policy is the stored page's, as with the copy.
      res.setHeader("Content-Security-Policy", entry.csp);
      res.writeHead(304, {
        ETag: etag,
        "Cache-Control": CACHE_CONTROL,
        Vary: "Accept-Encoding",
        "X-Cache": state,
      });
      res.end();
      return;
    }
    const body = encoding === "br" ? entry.br : encoding === "gzip" ? entry.gzip : entry.body;
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    res.setHeader("Content-Security-Policy", entry.csp);
    res.setHeader("ETag", etag);
    res.setHeader("Cache-Control", CACHE_CONTROL);
    res.setHeader("Vary", "Accept-Encoding");
    if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
    res.setHeader("Content-Length", body.length);
    res.setHeader("X-Cache", state);
    res.writeHead(entry.status);
    res.end(req.method === "HEAD" ? undefined : body);
  }
}

/** Sends a rendered response that must not be stored (redirect, 404, error, Set-Cookie …). */
function sendUncached(
  req: IncomingMessage,
  res: ServerResponse,
  response: Response,
  body: Buffer,
  policyFor: (html: string) => string,
) {
  response.headers.forEach((value, name) => {
    if (name === "set-cookie" || name === "content-length" || name === "transfer-encoding") return;
    res.setHeader(name, value);
  });
  // Rendered without a nonce, as every page this cache renders.
  const type = response.headers.get("content-type") ?? "";
  if (type.startsWith("text/html"))
    res.setHeader("Content-Security-Policy", policyFor(body.toString("utf8")));
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("Set-Cookie", cookies);
  let payload = body;
  if (
    body.length > 1024 &&
    !response.headers.has("content-encoding") &&
    /^text\/|json|javascript|xml/.test(type) &&
    preferredEncoding(req.headers["accept-encoding"] as string | undefined) !== "identity" &&
    /\bgzip\b/.test(String(req.headers["accept-encoding"]))
  ) {
    payload = gzipSync(body, { level: 6 });
    res.setHeader("Content-Encoding", "gzip");
    res.setHeader("Vary", "Accept-Encoding");
  }
  res.setHeader("Content-Length", payload.length);
  res.setHeader("X-Cache", "MISS");
  res.writeHead(response.status);
  res.end(req.method === "HEAD" ? undefined : payload);
}
