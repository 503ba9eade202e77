import express from "express";
import { describe, expect, it } from "vitest";
import { isLoopbackAddress, metricsAccess } from "./ops-endpoints.server.ts";
import { routePatterns } from "./route-pattern.server.ts";

const TOKEN = "a-metrics-token-of-some-length";

function peer(remote: string, ip: string, headers: Record<string, string> = {}) {
  return { ip, socket: { remoteAddress: remote }, headers };
}

/** Express's own reading of a TRUST_PROXY value (env.server.ts parses it into this setting). */
function proxiesOf(setting: false | number | string[]) {
  const trusted = express().set("trust proxy", setting).get("trust proxy fn") as (
    address: string,
    hop: number,
  ) => boolean;
  return (address: string) => trusted(address, 0);
}
const noProxy = proxiesOf(false);

describe("who may read /metrics", () => {
  it("knows loopback addresses", () => {
    for (const address of ["127.0.0.1", "127.3.2.1", "::1", "::ffff:127.0.0.1"]) {
      expect(isLoopbackAddress(address), address).toBe(true);
    }
    for (const address of ["10.0.0.1", "::ffff:10.0.0.1", "203.0.113.9", "", undefined]) {
      expect(isLoopbackAddress(address), String(address)).toBe(false);
    }
  });

  it("lets a direct loopback peer in, not a forwarded one, whatever TRUST_PROXY made of req.ip", () => {
    expect(metricsAccess(peer("127.0.0.1", "127.0.0.1"), undefined, noProxy)).toBe("allowed");
    // TRUST_PROXY=loopback: req.ip is the outside client.
    expect(
      metricsAccess(
        peer("127.0.0.1", "203.0.113.9", { "x-forwarded-for": "203.0.113.9" }),
        undefined,
        noProxy,
      ),
    ).toBe("hidden");
    // No TRUST_PROXY: req.ip is the proxy on this machine, but the request was forwarded.
    expect(
      metricsAccess(peer("127.0.0.1", "127.0.0.1", { "x-forwarded-for": "203.0.113.9" }), undefined, noProxy),
    ).toBe("hidden");
    expect(
      metricsAccess(peer("127.0.0.1", "127.0.0.1", { forwarded: "for=203.0.113.9" }), undefined, noProxy),
    ).toBe("hidden");
    expect(metricsAccess(peer("10.0.0.7", "10.0.0.7"), undefined, noProxy)).toBe("hidden");
  });

  it("counts a request from a TRUST_PROXY peer as forwarded, whatever headers the proxy sent", () => {
    const loopbackProxy = proxiesOf(["loopback"]);
    // A proxy on this machine that passes the client in X-Real-IP alone.
    const realIpOnly = peer("127.0.0.1", "127.0.0.1", { "x-real-ip": "203.0.113.9" });
    expect(metricsAccess(realIpOnly, undefined, loopbackProxy)).toBe("hidden");
    expect(metricsAccess(peer("127.0.0.1", "127.0.0.1"), undefined, loopbackProxy)).toBe("hidden");
    expect(metricsAccess(peer("::1", "::1"), undefined, loopbackProxy)).toBe("hidden");
    expect(metricsAccess(realIpOnly, TOKEN, loopbackProxy)).toBe("unauthorized");
    expect(
      metricsAccess({ ...realIpOnly, headers: { authorization: `Bearer ${TOKEN}` } }, TOKEN, loopbackProxy),
    ).toBe("allowed");
    // A hop count trusts whoever connects: every peer may be the proxy.
    expect(metricsAccess(peer("127.0.0.1", "127.0.0.1"), undefined, proxiesOf(1))).toBe("hidden");
    // A proxy elsewhere leaves this machine's own scraper alone.
    expect(metricsAccess(peer("127.0.0.1", "127.0.0.1"), undefined, proxiesOf(["10.0.0.5"]))).toBe("allowed");
    expect(
      metricsAccess(peer("10.0.0.5", "10.0.0.5", { "x-real-ip": "127.0.0.1" }), undefined, noProxy),
    ).toBe("hidden");
  });

  it("takes the bearer token from anywhere, and answers 401 to a wrong or missing one when a token is set", () => {
    const outsider = { "x-forwarded-for": "203.0.113.9" };
    expect(
      metricsAccess(
        peer("10.0.0.7", "203.0.113.9", { ...outsider, authorization: `Bearer ${TOKEN}` }),
        TOKEN,
        noProxy,
      ),
    ).toBe("allowed");
    expect(
      metricsAccess(peer("10.0.0.7", "203.0.113.9", { authorization: "Bearer nope" }), TOKEN, noProxy),
    ).toBe("unauthorized");
    expect(metricsAccess(peer("10.0.0.7", "203.0.113.9", outsider), TOKEN, noProxy)).toBe("unauthorized");
    // Without a configured token, a bearer header opens nothing.
    expect(
      metricsAccess(peer("10.0.0.7", "10.0.0.7", { authorization: `Bearer ${TOKEN}` }), undefined, noProxy),
    ).toBe("hidden");
  });
});

describe("route patterns", () => {
  const routeOf = routePatterns({
    root: { id: "root", path: "" },
    store: { id: "store", parentId: "root" },
    home: { id: "home", parentId: "store", index: true },
    shop: { id: "shop", parentId: "store", path: "shop" },
    product: { id: "product", parentId: "store", path: "product/:id" },
    missing: { id: "missing", parentId: "store", path: "*" },
    admin: { id: "admin", parentId: "root", path: "admin/orders" },
  });

  it("names the pattern, never the ids in the URL", () => {
    expect(routeOf("/")).toBe("/");
    expect(routeOf("/shop")).toBe("/shop");
    expect(routeOf("/product/5d1c-secret-ish")).toBe("/product/:id");
    expect(routeOf("/product/42.data")).toBe("/product/:id.data");
    expect(routeOf("/_root.data")).toBe("/.data");
    expect(routeOf("/admin/orders")).toBe("/admin/orders");
    expect(routeOf("/no/such/page")).toBe("/*");
    expect(routeOf("/assets/entry-abc.js")).toBe("/assets/*");
    expect(routeOf("/readyz")).toBe("/readyz");
  });
});
