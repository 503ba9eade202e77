import { describe, expect, it } from "vitest";
import { isLoopbackAddress, metricsAccess } from "./ops-endpoints.server.ts";
import { routePatterns } from "./route-pattern.server.ts";

const TOKEN = "a-metrics-token-of-some-length";

function peer(remote: string, ip: string, headers: Record<string, string> = {}) {
  return { ip, socket: { remoteAddress: remote }, headers };
}

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
    expect(metricsAccess(peer("127.0.0.1", "127.0.0.1"), undefined)).toBe("allowed");
    // TRUST_PROXY=loopback: req.ip is the outside client.
    expect(
      metricsAccess(peer("127.0.0.1", "203.0.113.9", { "x-forwarded-for": "203.0.113.9" }), undefined),
    ).toBe("hidden");
    // No TRUST_PROXY: req.ip is the proxy on this machine, but the request was forwarded.
    expect(
      metricsAccess(peer("127.0.0.1", "127.0.0.1", { "x-forwarded-for": "203.0.113.9" }), undefined),
    ).toBe("hidden");
    expect(metricsAccess(peer("127.0.0.1", "127.0.0.1", { forwarded: "for=203.0.113.9" }), undefined)).toBe(
      "hidden",
    );
    expect(metricsAccess(peer("10.0.0.7", "10.0.0.7"), undefined)).toBe("hidden");
  });

  it("takes the bearer token from anywhere, and answers 401 to a wrong or missing one when a token is set", () => {
    const outsider = { "x-forwarded-for": "203.0.113.9" };
    expect(
      metricsAccess(
        peer("10.0.0.7", "203.0.113.9", { ...outsider, authorization: `Bearer ${TOKEN}` }),
        TOKEN,
      ),
    ).toBe("allowed");
    expect(metricsAccess(peer("10.0.0.7", "203.0.113.9", { authorization: "Bearer nope" }), TOKEN)).toBe(
      "unauthorized",
    );
    expect(metricsAccess(peer("10.0.0.7", "203.0.113.9", outsider), TOKEN)).toBe("unauthorized");
    // Without a configured token, a bearer header opens nothing.
    expect(metricsAccess(peer("10.0.0.7", "10.0.0.7", { authorization: `Bearer ${TOKEN}` }), undefined)).toBe(
      "hidden",
    );
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
