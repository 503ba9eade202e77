import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  ConfigError,
  defaultMaxConnections,
  openFileLimit,
  parseConfig,
  publicUrlWarning,
} from "./env.server.ts";

describe("configuration", () => {
  it("has working defaults for a fresh clone", () => {
    const config = parseConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.STORE_NAME).toBe("Capital Grown");
    expect(config.SEED_DEMO).toBe(true);
    expect(config.ID_RETENTION_DAYS).toBe(30);
    expect(config.AUDIT_RETENTION_DAYS).toBe(400);
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.secureCookies).toBe(false);
  });

  it.each([
    [{ PORT: "abc" }, /^Invalid configuration: PORT must be a whole number from 1 to 65535 \(got "abc"\)$/],
    [{ PORT: "70000" }, /PORT must be a whole number/],
    [
      { DATABASE_URL: "mysql://localhost/shop" },
      /DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL$/,
    ],
    [{ SMTP_URL: "http://mail" }, /SMTP_URL must be an smtp/],
    [{ SEED_DEMO: "maybe" }, /SEED_DEMO/],
    [{ ID_RETENTION_DAYS: "0" }, /ID_RETENTION_DAYS must be at least 1/],
    [{ AUDIT_RETENTION_DAYS: "29" }, /AUDIT_RETENTION_DAYS must be at least 30/],
    [{ AUDIT_RETENTION_DAYS: "1.5" }, /AUDIT_RETENTION_DAYS must be a whole number of days/],
  ])("names the bad variable in one line: %o", (env, message) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(message);
  });

  it("bounds client connections below the open-file limit (MAX_CONNECTIONS)", () => {
    const limit = openFileLimit();
    // The soft limit `ulimit -n` reports for this process.
    const soft = /^Max open files\s+(\d+)/m.exec(readFileSync("/proc/self/limits", "utf8"))?.[1];
    expect(limit).toBe(Number(soft));
    const fallback = parseConfig({}).MAX_CONNECTIONS;
    expect(fallback).toBe(defaultMaxConnections(limit));
    expect(fallback).toBeLessThanOrEqual(Math.min(4096, limit - 64));
    expect(defaultMaxConnections(1024)).toBe(768);
    expect(defaultMaxConnections(20_000)).toBe(4096);
    expect(defaultMaxConnections(256)).toBe(128);
    expect(parseConfig({ MAX_CONNECTIONS: "50" }).MAX_CONNECTIONS).toBe(50);
    expect(() => parseConfig({ MAX_CONNECTIONS: String(limit) })).toThrow(
      new RegExp(
        `^Invalid configuration: MAX_CONNECTIONS must be at most ${limit - 64}, the open-file limit`,
      ),
    );
    expect(() => parseConfig({ MAX_CONNECTIONS: "0" })).toThrow(/MAX_CONNECTIONS must be at least 1/);
    expect(() => parseConfig({ MAX_CONNECTIONS: "lots" })).toThrow(/MAX_CONNECTIONS must be a whole number/);
  });

  it("trusts no proxy by default, and reads TRUST_PROXY as a hop count or a list of addresses", () => {
    const defaults = parseConfig({});
    expect(defaults.TRUST_PROXY).toBe(false);
    expect(defaults.MAX_OPEN_ORDERS).toBe(2);
    expect(defaults.ORDERS_PER_HOUR).toBe(5);
    expect(defaults.ID_UPLOADS_PER_HOUR).toBe(20);
    expect(parseConfig({ TRUST_PROXY: "1" }).TRUST_PROXY).toBe(1);
    expect(parseConfig({ TRUST_PROXY: "10.0.0.5, 192.168.0.0/16,loopback, ::1" }).TRUST_PROXY).toEqual([
      "10.0.0.5",
      "192.168.0.0/16",
      "loopback",
      "::1",
    ]);
    for (const bad of ["everyone", "10.0.0.0/33", "10.0.0.1/8/8", ","]) {
      expect(() => parseConfig({ TRUST_PROXY: bad })).toThrow(
        /TRUST_PROXY must be a hop count or a comma list of proxy addresses or CIDRs/,
      );
    }
    expect(() => parseConfig({ ORDERS_PER_HOUR: "0" })).toThrow(/ORDERS_PER_HOUR must be at least 1/);
  });

  it("never echoes a password or a database URL back", () => {
    expect(() => parseConfig({ ADMIN_PASSWORD: "short" })).toThrow(
      /^Invalid configuration: ADMIN_PASSWORD must be at least 12 characters$/,
    );
  });

  it("asks of ADMIN_PASSWORD what npm run admin:create and an invitation ask: 12 to 128 characters", () => {
    expect(() => parseConfig({ ADMIN_PASSWORD: "ten-chars!" })).toThrow(
      /^Invalid configuration: ADMIN_PASSWORD must be at least 12 characters$/,
    );
    expect(() => parseConfig({ ADMIN_PASSWORD: "x".repeat(129) })).toThrow(
      /^Invalid configuration: ADMIN_PASSWORD must be at most 128 characters$/,
    );
    expect(parseConfig({ ADMIN_PASSWORD: "twelve-chars" }).ADMIN_PASSWORD).toBe("twelve-chars");
    expect(parseConfig({ ADMIN_PASSWORD: "x".repeat(128) }).ADMIN_PASSWORD).toHaveLength(128);
  });

  it("uses secure cookies when the public URL is https", () => {
    const config = parseConfig({ PUBLIC_URL: "https://shop.example/", SEED_DEMO: "false" });
    expect(config.publicUrl).toBe("https://shop.example");
    expect(config.secureCookies).toBe(true);
    expect(config.SEED_DEMO).toBe(false);
  });

  it("reads COOKIE_SECRET without echoing it, and IMAGE_HOSTS as a list of https origins", () => {
    expect(() => parseConfig({ COOKIE_SECRET: "too-short" })).toThrow(
      /^Invalid configuration: COOKIE_SECRET must be at least 32 characters \(e\.g\. openssl rand -base64 32\)$/,
    );
    expect(parseConfig({}).IMAGE_HOSTS).toEqual([]);
    expect(
      parseConfig({ IMAGE_HOSTS: "https://cdn.example.com, https://img.example.org/" }).IMAGE_HOSTS,
    ).toEqual(["https://cdn.example.com", "https://img.example.org"]);
    for (const bad of ["http://cdn.example.com", "https://cdn.example.com/images", "*", "cdn.example.com"]) {
      expect(() => parseConfig({ IMAGE_HOSTS: bad }), bad).toThrow(
        /IMAGE_HOSTS must be a list of https:\/\/ origins/,
      );
    }
  });
});

describe("Twilio settings (record 054)", () => {
  const sid = `AC${"0123456789abcdef".repeat(2)}`;
  it("takes all three or none, and never echoes the auth token", () => {
    expect(parseConfig({}).TWILIO_ACCOUNT_SID).toBeUndefined();
    const all = parseConfig({
      TWILIO_ACCOUNT_SID: sid,
      TWILIO_AUTH_TOKEN: "a-token-of-32-characters-exactly",
      TWILIO_FROM: "+12025550100",
    });
    expect(all.TWILIO_API_URL).toBe("https://api.twilio.com");
    expect(() => parseConfig({ TWILIO_ACCOUNT_SID: sid })).toThrow(
      /TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM go together/,
    );
    expect(() => parseConfig({ TWILIO_AUTH_TOKEN: "short" })).toThrow(
      /^Invalid configuration: TWILIO_AUTH_TOKEN must be at least 16 characters$/,
    );
    expect(() => parseConfig({ TWILIO_FROM: "(202) 555-0100" })).toThrow(
      /TWILIO_FROM must be a number in E\.164/,
    );
  });
});

describe("the PUBLIC_URL warning at start-up", () => {
  it("warns when others can reach the server and links would point at localhost", () => {
    const open = parseConfig({ HOST: "0.0.0.0", PORT: "4100" });
    expect(publicUrlWarning(open)).toBe(
      "PUBLIC_URL is not set while the server listens on 0.0.0.0: links in e-mails and staff invitations point at http://localhost:4100, which works only on this machine. Set PUBLIC_URL to the address people open the shop at (https://…).",
    );
    expect(publicUrlWarning(parseConfig({ HOST: "192.168.1.20" }))).toContain("listens on 192.168.1.20");
  });

  it("stays quiet on a loopback address or with PUBLIC_URL set", () => {
    for (const host of ["127.0.0.1", "127.0.0.53", "::1", "localhost"]) {
      expect(publicUrlWarning(parseConfig({ HOST: host })), host).toBeNull();
    }
    expect(publicUrlWarning(parseConfig({ HOST: "0.0.0.0", PUBLIC_URL: "https://shop.example" }))).toBeNull();
  });
});
