import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { productSizes, products } from "#app/db/schema.ts";
import { listProducts } from "#app/features/catalog/catalog.server.ts";
import { cataloguePages } from "#app/utils/catalogue-pages.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { appRouteTable } from "#tests/support/app-route-table.ts";
import { inlineScriptHashes } from "./content-security-policy.server.ts";
import { cacheKey, hasPrivateCookie, PageCache, preferredEncoding } from "./page-cache.server.ts";
import { type CatalogVersionWatcher, watchCatalogVersion } from "./page-cache-version.server.ts";

/** The app's own routes: a page is cacheable when its route module says `handle: { pageCache: true }`. */
const { pageParams } = cataloguePages(await appRouteTable());

describe("page cache rules", () => {
  it("caches only catalogue pages and their data requests, with a normalised query", () => {
    expect(cacheKey("/", pageParams)).toBe("/");
    expect(cacheKey("/shop?page=2&category=Flower", pageParams)).toBe("/shop?category=Flower&page=2");
    expect(cacheKey("/shop?", pageParams)).toBe("/shop");
    expect(cacheKey("/product/abc", pageParams)).toBe("/product/abc");
    expect(cacheKey("/product/abc.data?_routes=x", pageParams)).toBe("/product/abc.data?_routes=x");
    expect(cacheKey("/_root.data", pageParams)).toBe("/_root.data");
    expect(cacheKey("/flower", pageParams)).toBe("/flower");
    expect(cacheKey("/washington-dc-weed-delivery", pageParams)).toBe("/washington-dc-weed-delivery");
    // Searches are counted per address by the app (P-30), never answered from the cache.
    expect(cacheKey("/shop?q=kush", pageParams)).toBeNull();
    expect(cacheKey("/flower.data?q=haze&page=2", pageParams)).toBeNull();
    expect(cacheKey("/shop?q=&page=2", pageParams)).toBe("/shop?page=2&q=");
    // The landing page's ZIP check (P-21) is answered from the current zones, never stored.
    expect(cacheKey("/washington-dc-weed-delivery?zip=20001", pageParams)).toBeNull();
    expect(cacheKey("/washington-dc-weed-delivery.data?zip=23220", pageParams)).toBeNull();
    for (const path of [
      "/admin",
      "/admin/products",
      "/checkout",
      "/thank-you?token=x",
      "/order-confirmation",
      "/api/cart-prices",
      "/healthz",
      "/media/a-400.webp",
      "/product/a/b",
      "/sitemap.xml",
      "/nope",
    ]) {
      expect(cacheKey(path, pageParams), path).toBeNull();
    }
  });

  it("keys a page by the parameters it reads: tracking and made-up ones change nothing", () => {
    const tracking =
      "utm_source=news&utm_medium=email&utm_campaign=x1&fbclid=IwAR0&gclid=Cj0&msclkid=m&_ga=2.1&ref=hn&mc_cid=c&mc_eid=e";
    expect(cacheKey(`/shop?${tracking}`, pageParams)).toBe("/shop");
    expect(cacheKey(`/shop?utm=${Math.random()}`, pageParams)).toBe("/shop");
    expect(cacheKey(`/shop?${tracking}&page=2&category=Edibles`, pageParams)).toBe(
      "/shop?category=Edibles&page=2",
    );
    expect(cacheKey(`/flower?effect=Relaxed&${tracking}`, pageParams)).toBe("/flower?effect=Relaxed");
    // Parameters another page reads are unknown here: `category` picks nothing on /flower.
    expect(cacheKey("/flower?category=Edibles", pageParams)).toBe("/flower");
    expect(cacheKey(`/?${tracking}&page=3`, pageParams)).toBe("/");
    expect(cacheKey(`/product/abc?${tracking}`, pageParams)).toBe("/product/abc");
    expect(cacheKey(`/terms?x=${"y".repeat(500)}`, pageParams)).toBe("/terms");
    // A search parameter on a page that has no search is not a search.
    expect(cacheKey("/product/abc?q=kush", pageParams)).toBe("/product/abc");
    expect(cacheKey("/?zip=20001", pageParams)).toBe("/");
    // A data request keeps `_routes`, which picks the routes it loads.
    expect(cacheKey(`/shop.data?_routes=routes%2F_store%2Fshop&${tracking}`, pageParams)).toBe(
      "/shop.data?_routes=routes%2F_store%2Fshop",
    );
    expect(cacheKey(`/product/abc?_routes=x`, pageParams)).toBe("/product/abc");
  });

  it("renders a miss for its key, so one shopper's tracking parameters never reach the shared page", async () => {
    const rendered: string[] = [];
    const cache = new PageCache({
      pageParams,
      currentVersion: () => 1,
      async render(_req, _res, url) {
        rendered.push(url);
        return new Response(`<a href="${url}">next</a>`, { headers: { "Content-Type": "text/html" } });
      },
    });
    const server = createServer((req, res) => cache.handle(req, res, () => res.writeHead(404).end()));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const states: string[] = [];
      for (let i = 0; i < 20; i++) {
        const response = await fetch(`${base}/shop?utm_source=mail&utm_campaign=c${i}&fbclid=${i}&page=2`);
        expect(await response.text()).toBe('<a href="/shop?page=2">next</a>');
        states.push(response.headers.get("x-cache") ?? "");
      }
      expect(rendered).toEqual(["/shop?page=2"]);
      expect(states.filter((state) => state === "HIT")).toHaveLength(19);
      expect(cache.stats).toMatchObject({ entries: 1, misses: 1, hits: 19 });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("bypasses requests that carry one of the app's cookies", () => {
    expect(hasPrivateCookie(undefined)).toBe(false);
    expect(hasPrivateCookie("theme=dark; _ga=1")).toBe(false);
    expect(hasPrivateCookie("theme=dark; cg_toast=abc")).toBe(true);
    expect(hasPrivateCookie("cg_admin_session=xyz")).toBe(true);
  });

  it("picks brotli, then gzip, honouring q=0", () => {
    expect(preferredEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(preferredEncoding("gzip")).toBe("gzip");
    expect(preferredEncoding("br;q=0, gzip")).toBe("gzip");
    expect(preferredEncoding("identity")).toBe("identity");
    expect(preferredEncoding(undefined)).toBe("identity");
  });

  it("serves what it holds while the database is unreachable, and renders the rest", async () => {
    let version: number | undefined = 3;
    let unreachable: number | undefined;
    let renders = 0;
    const cache = new PageCache({
      pageParams,
      currentVersion: () => version,
      unreachableVersion: () => unreachable,
      async render(req) {
        renders++;
        return new Response(`<p>${req.url}</p>`, { headers: { "Content-Type": "text/html; charset=utf-8" } });
      },
    });
    const server = await listen(cache);
    try {
      expect((await fetch(`${server.url}/shop`)).headers.get("x-cache")).toBe("MISS");
      // The version read fails: the last one read still vouches for what is cached.
      version = undefined;
      unreachable = 3;
      const stale = await fetch(`${server.url}/shop`);
      expect(stale.headers.get("x-cache")).toBe("STALE");
      expect(await stale.text()).toBe("<p>/shop</p>");
      expect((await fetch(`${server.url}/flower`)).headers.get("x-cache")).toBe("BYPASS");
      // Merely slow (no failure): nothing is served from the cache.
      unreachable = undefined;
      expect((await fetch(`${server.url}/shop`)).headers.get("x-cache")).toBe("BYPASS");
      expect(renders).toBe(1);
    } finally {
      await server.close();
    }
  });

  it("answers 304, serves encodings, evicts least recently used, never stores Set-Cookie", async () => {
    let version = 1;
    let renders = 0;
    const cache = new PageCache({
      pageParams,
      currentVersion: () => version,
      // Each entry is ~1.6 KB (1 KB body, tiny gzip/brotli bodies, 512 B overhead): room for three.
      maxBytes: 5_500,
      async render(req) {
        renders++;
        const headers: Record<string, string> = { "Content-Type": "text/html; charset=utf-8" };
        if (req.url === "/terms") headers["Set-Cookie"] = "x=1";
        return new Response(`<p>${req.url} ${"x".repeat(1000)}</p>`, { headers });
      },
    });
    const server = await listen(cache);
    try {
      const first = await fetch(`${server.url}/shop`, { headers: { "accept-encoding": "identity" } });
      expect(first.headers.get("x-cache")).toBe("MISS");
      const etag = first.headers.get("etag") as string;
      const again = await fetch(`${server.url}/shop`, { headers: { "if-none-match": etag } });
      expect(again.status).toBe(304);
      const gz = await rawGet(server.url, "/shop", { "accept-encoding": "gzip" });
      expect(gz.headers["content-encoding"]).toBe("gzip");
      expect(gunzipSync(gz.body).toString()).toContain("/shop");
      expect(renders).toBe(1);
      // Set-Cookie responses are sent but never stored.
      await fetch(`${server.url}/terms`);
      expect((await fetch(`${server.url}/terms`)).headers.get("x-cache")).toBe("MISS");
      // A newer version makes the entry stale.
      version = 2;
      expect((await fetch(`${server.url}/shop`)).headers.get("x-cache")).toBe("MISS");
      // LRU: /shop, /flower, /edibles fit; a fourth page evicts the least recently used.
      await fetch(`${server.url}/flower`);
      await fetch(`${server.url}/edibles`);
      await fetch(`${server.url}/shop`);
      await fetch(`${server.url}/deals`);
      expect(cache.stats.entries).toBeLessThanOrEqual(3);
      expect((await fetch(`${server.url}/shop`)).headers.get("x-cache")).toBe("HIT");
      expect((await fetch(`${server.url}/flower`)).headers.get("x-cache")).toBe("MISS");
      // Unknown version: neither served nor stored.
      const unknown = new PageCache({
        pageParams,
        currentVersion: () => undefined,
        render: async () => new Response(""),
      });
      const bypass = await listen(unknown);
      const response = await fetch(`${bypass.url}/shop`);
      expect(response.headers.get("x-cache")).toBe("BYPASS");
      await bypass.close();
    } finally {
      await server.close();
    }
  });
});

describe("refined brotli bodies (record 025)", () => {
  it("compresses an entry again at the refined quality once it is served a second time, with the same content", async () => {
    // Cards of a listing: repeated markup with varying text, where quality 11 finds far more than 5.
    const names = ["Blue Dream", "Sour Diesel", "Northern Lights", "Mango Kush", "Midnight Berry Gummies"];
    const cards = Array.from({ length: 36 }, (_, index) => {
      const name = `${names[index % names.length]} ${index}`;
      return `<li class="product-grid-cell"><article class="product-card group"><a href="/product/p-${index}"><img src="/media/${createHash("sha1").update(name).digest("hex").slice(0, 16)}-480.webp" alt="${name}" width="640" height="640"/></a><h3 class="product-card-title">${name}</h3><p class="text-sm text-muted-foreground">THC: ${(index * 7) % 30}%</p><span class="font-semibold">$${20 + index}.00</span></article></li>`;
    });
    const page = `<!DOCTYPE html><html><body><ul>${cards.join("")}</ul></body></html>`;
    const cache = new PageCache({
      pageParams,
      currentVersion: () => 1,
      render: async () => new Response(page, { headers: { "Content-Type": "text/html; charset=utf-8" } }),
    });
    const server = await listen(cache);
    const br = { "accept-encoding": "br" };
    try {
      const miss = await rawGet(server.url, "/shop", br);
      expect(miss.headers["x-cache"]).toBe("MISS");
      // Served once more, it is still the fast body: the refinement starts after this answer.
      const hit = await rawGet(server.url, "/shop", br);
      expect(hit.headers["x-cache"]).toBe("HIT");
      expect(hit.body.equals(miss.body)).toBe(true);
      await cache.refined();
      const refined = await rawGet(server.url, "/shop", br);
      expect(refined.body.length).toBeLessThan(miss.body.length * 0.95);
      expect(brotliDecompressSync(refined.body).toString()).toBe(page);
      expect(refined.headers["content-length"]).toBe(String(refined.body.length));
      expect(refined.headers.etag).toBe(miss.headers.etag);
      // A page asked for once (a one-off query string) is never compressed again.
      const once = await rawGet(server.url, "/flower?utm=1", br);
      await cache.refined();
      expect((await rawGet(server.url, "/flower?utm=1", br)).body.equals(once.body)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("keeps the fast body when refinement is off", async () => {
    const page = `<ul>${Array.from({ length: 200 }, (_, index) => `<li>Product ${index * 37} $${index}.00</li>`).join("")}</ul>`;
    const cache = new PageCache({
      pageParams,
      currentVersion: () => 1,
      refinedBrotliQuality: 0,
      render: async () => new Response(page, { headers: { "Content-Type": "text/html; charset=utf-8" } }),
    });
    const server = await listen(cache);
    try {
      const first = await rawGet(server.url, "/shop", { "accept-encoding": "br" });
      await rawGet(server.url, "/shop", { "accept-encoding": "br" });
      await cache.refined();
      expect((await rawGet(server.url, "/shop", { "accept-encoding": "br" })).body.equals(first.body)).toBe(
        true,
      );
    } finally {
      await server.close();
    }
  });
});

describe("CSP of cached pages (record 013)", () => {
  it("names the hashes of the stored page's inline scripts, the same bytes in every encoding and on a 304", async () => {
    let renders = 0;
    const script = `window.__context = {"page":"/shop","note":"\\u003c/script>"};`;
    const cache = new PageCache({
      pageParams,
      currentVersion: () => 1,
      async render(req) {
        renders++;
        const html = `<p>${req.url}</p>${"<li>card</li>".repeat(200)}<script>${script}</script><script type="module" src="/assets/entry.js"></script><script type="module">import("/assets/app.js")</script>`;
        return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
      },
    });
    const server = createServer((req, res) => {
      // What server.ts sets first on every response; a cached page replaces it with its own.
      res.setHeader("Content-Security-Policy", "script-src 'self' 'nonce-of-this-response'");
      cache.handle(req, res, () => res.end("passed through"));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const expected = `'sha256-${createHash("sha256").update(script).digest("base64")}'`;
    try {
      const bodies = new Set<string>();
      for (const encoding of ["identity", "gzip", "br", "br", "gzip", "identity"]) {
        const response = await rawGet(url, "/shop", { "accept-encoding": encoding });
        const body =
          encoding === "br"
            ? brotliDecompressSync(response.body)
            : encoding === "gzip"
              ? gunzipSync(response.body)
              : response.body;
        bodies.add(body.toString());
        const csp = String(response.headers["content-security-policy"]);
        const scriptSrc = csp.split("; ").find((directive) => directive.startsWith("script-src"));
        expect(scriptSrc).toMatch(
          new RegExp(`^script-src 'self' ${expected.replaceAll("+", "\\+")} 'sha256-[\\w+/]+=*'$`),
        );
        expect(Number(response.headers["content-length"])).toBe(response.body.length);
      }
      expect(bodies.size).toBe(1);
      expect(renders).toBe(1);
      const [html] = [...bodies];
      // Exactly the two inline scripts: the one with src needs no hash.
      expect(inlineScriptHashes(html as string)).toHaveLength(2);
      const first = await fetch(`${url}/shop`);
      const notModified = await fetch(`${url}/shop`, {
        headers: { "if-none-match": first.headers.get("etag") as string },
      });
      expect(notModified.status).toBe(304);
      expect(notModified.headers.get("content-security-policy")).toBe(
        first.headers.get("content-security-policy"),
      );
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

async function listen(cache: PageCache) {
  const server: Server = createServer((req, res) =>
    cache.handle(req, res, (error) => {
      res.statusCode = error ? 500 : 200;
      res.end("passed through");
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function rawGet(base: string, path: string, headers: Record<string, string>) {
  const { request } = await import("node:http");
  return new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    request(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on("error", reject)
      .end();
  });
}

/** What a catalogue page shows, rendered from the real catalogue queries. */
async function renderShop() {
  const items = (await listProducts()).map(
    (p) =>
      `<li>${p.name}|${p.category}|featured=${p.isFeatured}|deal=${p.isDeal}|${p.sizes
        .map((s) => `${s.size}:${s.priceCents}:${s.salePriceCents ?? "-"}:${s.inStock ? "in" : "sold-out"}`)
        .join(",")}</li>`,
  );
  return new Response(`<ul>${items.join("")}</ul>`, { headers: { "Content-Type": "text/html" } });
}

// Each kind of change a catalogue page shows must reach the next GET of a cached page, by the LISTEN
// push alone and by the polling safety net alone (a lost notification), within one second.
for (const mode of ["notification", "polling"] as const) {
  describeEachDatabase(`page cache invalidation by ${mode}`, (database) => {
    let watcher: CatalogVersionWatcher;
    let server: Awaited<ReturnType<typeof listen>>;
    let cache: PageCache;
    let productId: string;
    let sizeId: string;

    beforeAll(async () => {
      const handle = database();
      const watched: DatabaseHandle =
        mode === "notification"
          ? handle
          : {
              ...handle,
              listen: async () => {
                throw new Error("no notifications in this test");
              },
            };
      // Notification mode polls so rarely that only the push can pass; polling mode has no push.
      watcher = await watchCatalogVersion(watched, {
        intervalMs: mode === "notification" ? 60_000 : 200,
        maxAgeMs: mode === "notification" ? 120_000 : 750,
        onChange: () => cache?.clear(),
      });
      cache = new PageCache({ pageParams, currentVersion: () => watcher.current(), render: renderShop });
      server = await listen(cache);
      const [product] = await handle.db
        .insert(products)
        .values({ name: `Cache Kush ${mode}`, category: "Flower", strain: "Hybrid" })
        .returning();
      productId = product?.id as string;
      const [size] = await handle.db
        .insert(productSizes)
        .values({ productId, size: "3.5g", priceCents: 4500, inventoryCount: 2 })
        .returning();
      sizeId = size?.id as string;
    }, 30_000);

    afterAll(async () => {
      await server?.close();
      await watcher?.stop();
    });

    /** Warms the cache, applies the change, and waits for /shop to show `expected`. */
    async function expectVisibleAfter(
      change: () => Promise<unknown>,
      expected: string | RegExp,
      absent?: string,
    ) {
      // Warm: a late notification of an earlier change may clear the page once more.
      let state: string | null = null;
      for (let attempt = 0; attempt < 20 && state !== "HIT"; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 25));
        state = (await fetch(`${server.url}/shop`)).headers.get("x-cache");
      }
      expect(state).toBe("HIT");
      await change();
      const committed = performance.now();
      let body = "";
      while (performance.now() - committed < 1_000) {
        body = await (await fetch(`${server.url}/shop`)).text();
        const shown = typeof expected === "string" ? body.includes(expected) : expected.test(body);
        if (shown && (!absent || !body.includes(absent))) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const elapsed = performance.now() - committed;
      if (typeof expected === "string") expect(body).toContain(expected);
      else expect(body).toMatch(expected);
      if (absent) expect(body).not.toContain(absent);
      expect(elapsed).toBeLessThan(1_000);
    }

    it("price", async () => {
      const db = database().db;
      await expectVisibleAfter(
        () => db.update(productSizes).set({ priceCents: 4321 }).where(eq(productSizes.id, sizeId)),
        "3.5g:4321:",
      );
    });

    it("sale price", async () => {
      const db = database().db;
      await expectVisibleAfter(
        () => db.update(productSizes).set({ salePriceCents: 3999 }).where(eq(productSizes.id, sizeId)),
        "3.5g:4321:3999:",
      );
    });

    it("stock crossing sold-out, both ways; a change that does not cross keeps the page", async () => {
      const db = database().db;
      await expectVisibleAfter(
        () => db.update(productSizes).set({ inventoryCount: 0 }).where(eq(productSizes.id, sizeId)),
        "3999:sold-out",
      );
      await expectVisibleAfter(
        () => db.update(productSizes).set({ inventoryCount: 50 }).where(eq(productSizes.id, sizeId)),
        "3999:in",
      );
      await fetch(`${server.url}/shop`);
      // Above EXACT_STOCK_UP_TO the page shows no figure ('Only N left' needs 5 or fewer), so 50 → 40
      // changes nothing a catalogue page shows (record 026).
      await db.update(productSizes).set({ inventoryCount: 40 }).where(eq(productSizes.id, sizeId));
      await new Promise((resolve) => setTimeout(resolve, mode === "polling" ? 450 : 150));
      expect((await fetch(`${server.url}/shop`)).headers.get("x-cache")).toBe("HIT");
    });

    it("featured flag", async () => {
      const db = database().db;
      await expectVisibleAfter(
        () => db.update(products).set({ isFeatured: true }).where(eq(products.id, productId)),
        `Cache Kush ${mode}|Flower|featured=true`,
      );
    });

    it("deal flag", async () => {
      const db = database().db;
      await expectVisibleAfter(
        () => db.update(products).set({ isDeal: true }).where(eq(products.id, productId)),
        `Cache Kush ${mode}|Flower|featured=true|deal=true`,
      );
    });

    it("size label, new size", async () => {
      const db = database().db;
      await expectVisibleAfter(
        () => db.update(productSizes).set({ size: "7g" }).where(eq(productSizes.id, sizeId)),
        "7g:4321:3999:in",
      );
      await expectVisibleAfter(
        () =>
          db.insert(productSizes).values({ productId, size: "1oz", priceCents: 15000, inventoryCount: 1 }),
        "1oz:15000:-:in",
      );
    });

    it("new product and deleted product", async () => {
      const db = database().db;
      let newId = "";
      await expectVisibleAfter(async () => {
        const [row] = await db
          .insert(products)
          .values({ name: `Fresh Drop ${mode}`, category: "Edibles" })
          .returning({ id: products.id });
        newId = row?.id as string;
      }, `Fresh Drop ${mode}|Edibles`);
      await expectVisibleAfter(
        () => db.delete(products).where(eq(products.id, newId)),
        `Cache Kush ${mode}`,
        `Fresh Drop ${mode}`,
      );
    });
  });
}
