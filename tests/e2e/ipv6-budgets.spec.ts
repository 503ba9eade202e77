/**
 * Per-address budgets count an IPv6 client by its /64 (record 012), through the real server: a
 * server of its own behind a "proxy" on loopback (TRUST_PROXY=loopback), so each request's
 * X-Forwarded-For is the client address the server counts, at the default limits.
 */
import { expect, test } from "@playwright/test";
import { type RunningApp, startApp } from "../support/app-server.ts";

let app: RunningApp;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  app = await startApp({
    buildDir: process.env.E2E_BUILD_DIR as string,
    env: { TRUST_PROXY: "loopback", SEED_DEMO_COUNT: "8" },
  });
});

test.afterAll(async () => {
  await app?.stop();
});

async function search(forwardedFor: string) {
  const response = await fetch(`${app.url}/shop?q=kush`, { headers: { "X-Forwarded-For": forwardedFor } });
  await response.arrayBuffer();
  return response;
}

test("70 searches from 70 addresses of one /64: the 61st is 429; the next /64 and IPv4 clients are not affected", async () => {
  const statuses: number[] = [];
  for (let i = 1; i <= 70; i++) statuses.push((await search(`2001:db8:1234:5678::${i.toString(16)}`)).status);
  expect(statuses.slice(0, 60)).toEqual(Array(60).fill(200));
  expect(statuses.slice(60)).toEqual(Array(10).fill(429));
  const refused = await search("2001:DB8:1234:5678:ffff:ffff:ffff:fffe");
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  expect((await search("2001:db8:1234:5679::1")).status).toBe(200);
  expect((await search("198.51.100.7")).status).toBe(200);
});

test("an IPv4-mapped IPv6 address spends the budget of its IPv4 address", async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 60; i++) statuses.push((await search("203.0.113.50")).status);
  expect(statuses).toEqual(Array(60).fill(200));
  expect((await search("::ffff:203.0.113.50")).status).toBe(429);
  expect((await search("::ffff:cb00:7132")).status).toBe(429);
});
