import { AsyncLocalStorage } from "node:async_hooks";
import type { AddressInfo } from "node:net";
import express from "express";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { rawRequest, wireRequest } from "#tests/support/raw-http.ts";
import {
  crossSiteGuard,
  finalErrorHandler,
  HOST_MESSAGE,
  hostGuard,
  methodGuard,
  originFormTarget,
} from "./http-guards.server.ts";

/**
 * The guards and the last error handler in a real Express server on loopback, in the order server.ts
 * uses them; requests go over HTTP with raw paths (no client normalises `/%`).
 */
const PUBLIC_URL = "http://shop.example";
let base: { host: string; port: number };
let close: () => Promise<void>;
let logged = "";
let capturing = false;
// The process's logger (app/utils/logger.server.ts keeps one per process under this key), writing
// here instead of to file descriptor 1: its JSON lines are what the tests read.
(globalThis as Record<symbol, unknown>)[Symbol.for("capital-grown.logging")] = {
  root: pino(
    { level: "debug", base: undefined, formatters: { level: (label: string) => ({ level: label }) } },
    {
      write(line: string) {
        if (capturing) logged += line;
      },
    },
  ),
  requests: new AsyncLocalStorage(),
};

beforeAll(async () => {
  const app = express();
  let counter = 0;
  app.use(originFormTarget(PUBLIC_URL));
  app.use((_req, res, next) => {
    res.locals.requestId = `req-${++counter}`;
    next();
  });
  app.get("/healthz", (_req, res) => {
    res.send("ok");
  });
  app.use(methodGuard);
  app.use(hostGuard);
  app.use(crossSiteGuard(PUBLIC_URL));
  app.get("/boom", () => {
    throw new Error("the database at /srv/capital-grown is on fire");
  });
  app.post("/form", (_req, res) => {
    res.send("accepted");
  });
  app.all("/{*path}", (req, res) => {
    // What React Router's Express adapter makes of the request (it failed on these with a 500).
    const url = new URL(`${req.protocol}://${req.hostname.split(/[\\/?#@]/)[0]}${req.originalUrl}`);
    res.send(`page ${url.pathname}${url.search} for ${req.get("host")}`);
  });
  app.use(finalErrorHandler);
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = { host: "127.0.0.1", port: (server.address() as AddressInfo).port };
  close = () => new Promise((resolve) => server.close(() => resolve()));
});

afterAll(async () => {
  await close();
});

function captureLogs() {
  logged = "";
  capturing = true;
}

afterEach(() => {
  capturing = false;
});

function send(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  return rawRequest(`http://${base.host}:${base.port}`, method, path, headers, body);
}

function referenceOf(body: string) {
  const id = /Reference: (req-\d+)/.exec(body)?.[1];
  if (!id) throw new Error(`no request id in the page:\n${body}`);
  return id;
}

function expectCalmPage(body: string, requestId: string) {
  expect(body).toContain(`Reference: ${requestId}`);
  expect(body).not.toMatch(/\n\s+at |node_modules|\/srv\/|\/work\/|Error:/);
}

describe("the server's own answers", () => {
  it("answers a real fault with 500, a plain page with the request id, and logs its stack", async () => {
    captureLogs();
    const response = await send("GET", "/boom");
    expect(response.status).toBe(500);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.body).toContain("Unexpected Application Error!");
    expectCalmPage(response.body, referenceOf(response.body));
    expect(response.body).not.toContain("on fire");
    expect(logged).toMatch(
      /"level":"error".*on fire.*\\n\s+at .*"msg":"Unhandled error while serving a request"/,
    );
  });

  it("answers a malformed URL with 400, not 500, and logs one line without a stack", async () => {
    captureLogs();
    const response = await send("GET", "/%");
    expect(response.status).toBe(400);
    const id = referenceOf(response.body);
    expectCalmPage(response.body, id);
    expect(logged).toMatch(/"level":"info".*"msg":"Refused a malformed request"/);
    expect(logged).not.toMatch(/"level":"error"|\\n\s+at /);
  });

  it("answers odd request lines and Host headers with a 4xx plain page, never a 500", async () => {
    captureLogs();
    const url = `http://${base.host}:${base.port}`;
    const refused = [
      "GET /admin/login HTTP/1.0\r\n\r\n",
      "GET /terms HTTP/1.0\r\nHost:\r\n\r\n",
      "GET /terms HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n",
      "GET /terms HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n",
      "GET /terms HTTP/1.1\r\nHost: shop.example:99999\r\nConnection: close\r\n\r\n",
      "GET /terms HTTP/1.1\r\nHost: user@shop.example\r\nConnection: close\r\n\r\n",
      "GET /terms HTTP/1.1\r\nHost: [::1\r\nConnection: close\r\n\r\n",
      "GET http:///terms HTTP/1.1\r\nHost: shop.example\r\nConnection: close\r\n\r\n",
      "GET ftp://evil.example/terms HTTP/1.1\r\nHost: shop.example\r\nConnection: close\r\n\r\n",
    ];
    for (const head of refused) {
      const answer = await wireRequest(url, head);
      expect(answer.status, head).toBe(400);
      expect(answer.body, head).toContain(HOST_MESSAGE);
      expectCalmPage(answer.body, referenceOf(answer.body));
    }
    // An absolute-form target for the shop's own host is its path, and that host the request's
    // (RFC 9112, section 3.2.2); one for another host is misdirected (421), whatever Host it sends.
    const absolute = await wireRequest(
      url,
      "GET http://shop.example/terms?x=1 HTTP/1.1\r\nHost: other.example\r\nConnection: close\r\n\r\n",
    );
    expect(absolute.status).toBe(200);
    expect(absolute.body).toBe("page /terms?x=1 for shop.example");
    const upper = await wireRequest(url, "GET http://Shop.Example/?a HTTP/1.0\r\n\r\n");
    expect(upper.body).toBe("page /?a for Shop.Example");
    for (const head of [
      "GET http://evil.example/terms HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
      "GET http://evil.example/terms HTTP/1.1\r\nHost: shop.example\r\nConnection: close\r\n\r\n",
      "GET https://shop.example:8443/ HTTP/1.0\r\n\r\n",
    ]) {
      const misdirected = await wireRequest(url, head);
      expect(misdirected.status, head).toBe(421);
      expect(misdirected.body, head).toContain("the shop answers only requests for its own address");
      expectCalmPage(misdirected.body, referenceOf(misdirected.body));
    }
    // A load balancer's HTTP/1.0 health check without Host is answered before the guard.
    expect((await wireRequest(url, "GET /healthz HTTP/1.0\r\n\r\n")).status).toBe(200);
    expect((await wireRequest(url, "GET /terms HTTP/1.0\r\nHost: shop.example\r\n\r\n")).status).toBe(200);
    expect(logged).toMatch(/"level":"info".*"msg":"Refused a request without a usable Host"/);
    expect(logged).not.toMatch(/"level":"error"|\\n\s+at /);
  });

  it("answers TRACE, PROPFIND and other unused methods with 405 and Allow", async () => {
    captureLogs();
    for (const method of ["TRACE", "PROPFIND", "PUT", "DELETE", "PATCH"]) {
      const response = await send(method, "/");
      expect(response.status, method).toBe(405);
      expect(response.headers.allow).toBe("GET, HEAD, POST, OPTIONS");
      expectCalmPage(response.body, referenceOf(response.body));
    }
    const options = await send("OPTIONS", "/");
    expect(options.status).toBe(204);
    expect(options.headers.allow).toBe("GET, HEAD, POST, OPTIONS");
    expect(logged).not.toMatch(/"level":"error"/);
  });

  it("refuses a POST from another site's page with 403, and lets the shop's own through", async () => {
    captureLogs();
    const form = { "Content-Type": "application/x-www-form-urlencoded" };
    const refused: Record<string, string>[] = [
      { Origin: "https://evil.example" },
      { Origin: "null" },
      { "Sec-Fetch-Site": "cross-site" },
      { "Sec-Fetch-Site": "same-site" },
    ];
    for (const headers of refused) {
      const response = await send("POST", "/form", { ...form, ...headers }, "a=1");
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(response.body).toContain("Cross-site request refused");
    }
    const json = await send("POST", "/form", { Origin: "https://evil.example", Accept: "application/json" });
    expect(JSON.parse(json.body)).toEqual({ error: "Cross-site request refused" });
    const allowed: Record<string, string>[] = [
      { Origin: PUBLIC_URL },
      { Origin: `http://127.0.0.1:${base.port}` },
      { "Sec-Fetch-Site": "same-origin" },
      {},
    ];
    for (const headers of allowed) {
      const response = await send("POST", "/form", { ...form, ...headers }, "a=1");
      expect(response.status, JSON.stringify(headers)).toBe(200);
    }
    expect(logged).toMatch(/"level":"warn".*"msg":"Refused a cross-site request"/);
    expect(logged).not.toMatch(/"level":"error"|\\n\s+at /);
  });
});
