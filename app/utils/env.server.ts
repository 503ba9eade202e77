import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "#app/utils/password-length.ts";
import { z } from "#app/utils/zod.ts";

const booleanFromString = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((value) => value === "true" || value === "1" || value === "yes");

const emptyAsUndefined = (value: unknown) => (value === "" ? undefined : value);

export const ID_PHOTO_KEY_BYTES = 32;

/** A 32-byte key written in base64 (or base64url), or null when it is anything else. */
export function parseBase64Key(text: string): Buffer | null {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return null;
  const bytes = Buffer.from(trimmed, /[-_]/.test(trimmed) ? "base64url" : "base64");
  return bytes.byteLength === ID_PHOTO_KEY_BYTES ? bytes : null;
}

const KEY_MESSAGE = "must be 32 bytes written in base64 (make one with: openssl rand -base64 32)";

const base64Key = z.string().transform((value, context) => {
  const key = parseBase64Key(value);
  if (!key) {
    context.addIssue({ code: "custom", message: KEY_MESSAGE });
    return z.NEVER;
  }
  return key;
});

const base64KeyList = z.string().transform((value, context) => {
  const keys = value
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((item) => parseBase64Key(item));
  if (keys.some((key) => key === null)) {
    context.addIssue({
      code: "custom",
      message: `must be a comma-separated list of keys that each ${KEY_MESSAGE}`,
    });
    return z.NEVER;
  }
  return keys as Buffer[];
});
/** A whole number from `min` up, for the abuse limits below. */
const wholeNumber = (unit: string, min: number, fallback: number, max?: number) => {
  const number = z.coerce
    .number({ error: `must be a whole number of ${unit}` })
    .int(`must be a whole number of ${unit}`)
    .min(min, `must be at least ${min}`);
  return (max === undefined ? number : number.max(max, `must be at most ${max}`)).default(fallback);
};

/** A whole number from `min` to `max`, one message for every way to miss. */
const wholeNumberFrom = (min: number, max: number, fallback: number) => {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.coerce
    .number({ error: message })
    .int(message)
    .min(min, message)
    .max(max, message)
    .default(fallback);
};

/** Express's names for address ranges, accepted in TRUST_PROXY beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isProxyAddress(item: string) {
  if (PROXY_RANGE_NAMES.has(item)) return true;
  const [address, bits, ...rest] = item.split("/");
  if (rest.length > 0 || !address || isIP(address) === 0) return false;
  if (bits === undefined) return true;
  const max = isIP(address) === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= max;
}

/**
 * Which peers may tell us the client's address in X-Forwarded-For (P-30): unset trusts
 * nobody; a number is a hop count; otherwise a comma list of proxy addresses, CIDRs or Express's
 * range names. Parsed into the value Express's "trust proxy" setting takes.
 */
const trustProxy = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .optional()
    .transform((value, context): false | number | string[] => {
      if (value === undefined) return false;
      const text = value.trim();
      if (/^\d+$/.test(text)) return Number(text);
      const items = text
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean);
      const bad = items.find((item) => !isProxyAddress(item));
      if (items.length === 0 || bad !== undefined) {
        context.addIssue({
          code: "custom",
          message: "must be a hop count or a comma list of proxy addresses or CIDRs",
        });
        return z.NEVER;
      }
      return items;
    }),
);

/** The soft limit on this process's open files (`ulimit -n`), or 1024 where it cannot be read. */
export function openFileLimit(): number {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync("/proc/self/limits", "utf8"))?.[1];
    if (line === "unlimited") return Number.MAX_SAFE_INTEGER;
    if (line) return Number(line);
  } catch {}
  return 1024;
}

/**
 * File descriptors kept for the shop's own work whatever the clients do: the database pool and
 * LISTEN connection (or the embedded database's files), SMTP, ID photos, backups, logs.
 */
export const RESERVED_FILE_DESCRIPTORS = 256;
/** At most this many by default: each connection also costs memory, and a small shop needs far fewer. */
const DEFAULT_MAX_CONNECTIONS = 4096;

/** MAX_CONNECTIONS when unset: the open-file limit less the reserve (half of a small limit), up to 4,096. */
export function defaultMaxConnections(limit = openFileLimit()) {
  return Math.min(
    DEFAULT_MAX_CONNECTIONS,
    Math.max(Math.floor(limit / 2), limit - RESERVED_FILE_DESCRIPTORS),
  );
}

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: wholeNumberFrom(1, 65535, 3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .url({
        protocol: /^postgres(ql)?$/,
        error: "must be a postgres:// or postgresql:// URL",
      })
      .optional(),
  ),
  ADMIN_EMAIL: z.preprocess(emptyAsUndefined, z.email("must be an e-mail address").optional()),
  ADMIN_PASSWORD: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
      .max(MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`)
      .optional(),
  ),
  SMTP_URL: z.preprocess(
    emptyAsUndefined,
    z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
  ),
  /** SMS through Twilio (record 054): all three, or none (then everything goes by e-mail). */
  TWILIO_ACCOUNT_SID: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^AC[0-9a-fA-F]{32}$/, "must be a Twilio account SID (AC followed by 32 hex digits)")
      .optional(),
  ),
  TWILIO_AUTH_TOKEN: z.preprocess(
    emptyAsUndefined,
    z.string().min(16, "must be at least 16 characters").optional(),
  ),
  TWILIO_FROM: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(
        /^(\+[1-9]\d{6,14}|MG[0-9a-fA-F]{32})$/,
        "must be a number in E.164 (+12025550142) or a messaging service SID",
      )
      .optional(),
  ),
  /** Where the twilio client's REST calls go; only changed to reach a stand-in (tests, staging). */
  TWILIO_API_URL: z.preprocess(
    emptyAsUndefined,
    z
      .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
      .default("https://api.twilio.com"),
  ),
  PUBLIC_URL: z.preprocess(
    emptyAsUndefined,
    z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).optional(),
  ),
  STORE_NAME: z.string().min(1).default("Capital Grown"),
  STORE_PHONE: z.string().min(1).default("(202) 555-0142"),
  STORE_EMAIL: z.email("must be an e-mail address").default("orders@capitalgrown.example"),
  STORE_ADDRESS: z.string().min(1).default("Washington, DC"),
  STORE_ORDERS_EMAIL: z.preprocess(emptyAsUndefined, z.email("must be an e-mail address").optional()),
  AGENCY_NAME: z.string().min(1).default("Capital Web Studio"),
  AGENCY_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  SEED_DEMO: booleanFromString.default(true),
  SEED_DEMO_COUNT: wholeNumber("products", 1, 64, 5000),
  ID_RETENTION_DAYS: wholeNumber("days", 1, 30),
  AUDIT_RETENTION_DAYS: wholeNumber("days", 30, 400),
  BACKUP_DIR: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  /** `off`: this instance writes no daily backup (another instance, or a cron job, does). */
  BACKUP_TIME: z
    .string()
    .regex(/^(([01]\d|2[0-3]):[0-5]\d|off)$/, "must be a time of day as HH:MM, e.g. 03:30, or off")
    .default("03:30"),
  /**
   * When the daily low-stock digest goes to the shop: `opening` (the store's opening time, 10:00
   * Mon–Sat and 11:00 Sunday, store time zone), a time of day as HH:MM, or `off` (record 028).
   */
  LOW_STOCK_DIGEST_TIME: z
    .string()
    .regex(/^(([01]\d|2[0-3]):[0-5]\d|off|opening)$/, "must be opening, a time of day as HH:MM, or off")
    .default("opening"),
  /**
   * When the daily audit digest (the audit chain verified, its last hash) goes to the owners:
   * `opening`, a time of day as HH:MM, or `off` (record 036).
   */
  AUDIT_DIGEST_TIME: z
    .string()
    .regex(/^(([01]\d|2[0-3]):[0-5]\d|off|opening)$/, "must be opening, a time of day as HH:MM, or off")
    .default("opening"),
  ID_PHOTO_KEY: z.preprocess(emptyAsUndefined, base64Key.optional()),
  ID_PHOTO_PREVIOUS_KEYS: z.preprocess(emptyAsUndefined, base64KeyList.optional()),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  LOG_FORMAT: z.enum(["json", "pretty"]).default("json"),
  /** Bearer token that opens /metrics to a non-loopback scraper. */
  METRICS_TOKEN: z.preprocess(
    emptyAsUndefined,
    z.string().min(16, "must be at least 16 characters (e.g. openssl rand -hex 24)").optional(),
  ),
  PAGE_CACHE: booleanFromString.default(true),
  /** Run a migration that changes a write path while older instances are connected (record 038). */
  MIGRATE_WITH_OLDER_INSTANCES: booleanFromString.default(false),
  /** Client connections open at once; unset: `defaultMaxConnections()` (checked against the limit below). */
  MAX_CONNECTIONS: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: "must be a whole number of connections" })
      .int("must be a whole number of connections")
      .min(1, "must be at least 1")
      .optional(),
  ),
  // Abuse limits (P-29 and P-30).
  TRUST_PROXY: trustProxy,
  MAX_OPEN_ORDERS: wholeNumber("orders", 1, 2),
  // Slot capacity (P-22) where staff set none at /admin/settings/delivery.
  DELIVERY_SLOT_CAPACITY: wholeNumber("orders", 0, 8),
  ORDERS_PER_HOUR: wholeNumber("orders", 1, 5),
  ID_UPLOADS_PER_HOUR: wholeNumber("uploads", 1, 20),
  /** Checkout codes (P-36) one client address may ask for in an hour. */
  CONTACT_CODES_PER_HOUR: wholeNumber("codes", 1, 5),
  CART_PRICES_PER_MINUTE: wholeNumber("requests", 1, 120),
  SEARCHES_PER_MINUTE: wholeNumber("searches", 1, 60),
  OUTBOX_LEASE_SECONDS: wholeNumber("seconds", 1, 60),
  OUTBOX_CONCURRENCY: wholeNumberFrom(1, 20, 1),
  READY_MIN_FREE_MB: wholeNumberFrom(0, 1_000_000, 100),
  COOKIE_SECRET: z.preprocess(
    emptyAsUndefined,
    z.string().min(32, "must be at least 32 characters (e.g. openssl rand -base64 32)").optional(),
  ),
  IMAGE_HOSTS: z
    .string()
    .default("")
    .transform((value, ctx) => {
      const origins: string[] = [];
      for (const item of value.split(/[\s,]+/).filter(Boolean)) {
        const url = URL.canParse(item) ? new URL(item) : undefined;
        if (url?.protocol !== "https:" || url.origin !== item.replace(/\/+$/, "")) {
          ctx.addIssue({
            code: "custom",
            message: "must be a list of https:// origins, e.g. https://cdn.example.com",
          });
          return z.NEVER;
        }
        origins.push(url.origin);
      }
      return origins;
    }),
});

type ParsedEnv = z.infer<typeof envSchema>;

export type Config = ParsedEnv & {
  MAX_CONNECTIONS: number;
  dataDir: string;
  publicUrl: string;
  secureCookies: boolean;
  ordersEmail: string;
};

export class ConfigError extends Error {}

function describeIssues(error: z.ZodError, source: Record<string, string | undefined>) {
  return error.issues
    .map((issue) => {
      const key = String(issue.path[0] ?? "environment");
      const given = source[key];
      const secret =
        key.includes("PASSWORD") ||
        key.includes("URL") ||
        key.includes("KEY") ||
        key.includes("SECRET") ||
        key.includes("TOKEN");
      const shown = secret ? "" : ` (got "${given}")`;
      return `${key} ${issue.message}${given === undefined ? "" : shown}`;
    })
    .join("; ");
}

export function parseConfig(source: Record<string, string | undefined> = process.env): Config {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    throw new ConfigError(`Invalid configuration: ${describeIssues(result.error, source)}`);
  }
  const env = result.data;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
  const fileLimit = openFileLimit();
  const ceiling = fileLimit - 64;
  const twilio = [env.TWILIO_ACCOUNT_SID, env.TWILIO_AUTH_TOKEN, env.TWILIO_FROM];
  if (twilio.some(Boolean) && !twilio.every(Boolean)) {
    throw new ConfigError(
      "Invalid configuration: TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM go together: set all three to send texts, or none",
    );
  }
  if (env.MAX_CONNECTIONS !== undefined && env.MAX_CONNECTIONS > ceiling) {
    throw new ConfigError(
      `Invalid configuration: MAX_CONNECTIONS must be at most ${ceiling}, the open-file limit (ulimit -n: ${fileLimit}) less 64 kept for the database, files and logs (got "${source.MAX_CONNECTIONS}")`,
    );
  }
  return {
    ...env,
    MAX_CONNECTIONS: env.MAX_CONNECTIONS ?? defaultMaxConnections(fileLimit),
    dataDir: path.resolve(env.DATA_DIR),
    publicUrl,
    secureCookies: publicUrl.startsWith("https://"),
    ordersEmail: env.STORE_ORDERS_EMAIL ?? env.STORE_EMAIL,
  };
}

const LOOPBACK_HOSTS = new Set(["localhost", "::1", "[::1]"]);

/** Whether the server binds only to this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string) {
  return LOOPBACK_HOSTS.has(host.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * The start-up warning for a server others can reach while PUBLIC_URL is unset: every link the shop
 * writes (invitations, order e-mails, the sitemap) would point at localhost. Null when all is well.
 */
export function publicUrlWarning(config: Pick<Config, "PUBLIC_URL" | "HOST" | "publicUrl">) {
  if (config.PUBLIC_URL || isLoopbackHost(config.HOST)) return null;
  return `PUBLIC_URL is not set while the server listens on ${config.HOST}: links in e-mails and staff invitations point at ${config.publicUrl}, which works only on this machine. Set PUBLIC_URL to the address people open the shop at (https://…).`;
}

let cached: Config | undefined;

/** The configuration of this process, parsed once. */
export function config(): Config {
  cached ??= parseConfig();
  return cached;
}

/** Values the browser may see: nothing secret goes in here. */
export function publicStoreInfo() {
  const { STORE_NAME, STORE_PHONE, STORE_EMAIL, STORE_ADDRESS, AGENCY_NAME, AGENCY_URL, publicUrl } =
    config();
  return {
    name: STORE_NAME,
    phone: STORE_PHONE,
    email: STORE_EMAIL,
    address: STORE_ADDRESS,
    agencyName: AGENCY_NAME,
    agencyUrl: AGENCY_URL ?? null,
    publicUrl,
  };
}

export type StoreInfo = ReturnType<typeof publicStoreInfo>;
