/**
 * Per-client budgets (P-29 and P-30), counted by `rate-limiter-flexible`: in the database's
 * `rate_limits` table on PostgreSQL, so every instance sharing the database shares the counts, and
 * in memory on the embedded database (one process by construction).
 *
 * Every budget is consumed before the work it protects (one atomic upsert decides), never checked
 * first and recorded after: parallel requests cannot slip through between a check and a write.
 * A database error falls back to an in-memory count instead of refusing or failing the request.
 */
import { createHash } from "node:crypto";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
} from "rate-limiter-flexible";
import { data } from "react-router";
import { type DatabaseHandle, getDatabaseHandle } from "#app/db/client.server.ts";
import { addressBudgetKey } from "#app/utils/client-address.server.ts";
import { config } from "#app/utils/env.server.ts";

const MINUTE = 60;
const HOUR = 60 * MINUTE;

/** Sign-in attempts per client address in SIGN_IN_WINDOW_SECONDS, whatever the accounts. */
export const SIGN_IN_ATTEMPTS_PER_ADDRESS = 10;
/** Sign-in attempts for one account from one address in SIGN_IN_WINDOW_SECONDS. */
export const SIGN_IN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS = 5;
export const SIGN_IN_WINDOW_SECONDS = 15 * MINUTE;
/** How long an account's failed sign-ins are remembered to slow down the next ones. */
export const SIGN_IN_FAILURE_MEMORY_SECONDS = HOUR;

export type BudgetName =
  | "contactCodes"
  | "contactCodesPerContact"
  | "idPhotoUpload"
  | "cartPrices"
  | "search"
  | "signInAddress"
  | "signInAccountAndAddress"
  | "signInAccountFailures"
  | "signInAccountGate"
  | "signInKnownDevice"
  | "reauthentication"
  | "customerCodeAddress"
  | "customerCodeEmail";

type BudgetSpec = { points: number; durationSeconds: number };

/**
 * Budgets counted per client address: their key is the address (`clientAddress`), counted as
 * `addressBudgetKey` says (an IPv6 client by its /64). Keys that hold an address among other things
 * (an account and an address) call `addressBudgetKey` themselves.
 */
const PER_ADDRESS: ReadonlySet<BudgetName> = new Set([
  "contactCodes",
  "idPhotoUpload",
  "cartPrices",
  "search",
  "signInAddress",
  "customerCodeAddress",
]);

function budgetSpecs(): Record<BudgetName, BudgetSpec> {
  const settings = config();
  return {
    // Checkout codes (P-36): sent per client address, and per phone or e-mail whatever the address.
    contactCodes: { points: settings.CONTACT_CODES_PER_HOUR, durationSeconds: HOUR },
    contactCodesPerContact: { points: settings.CONTACT_CODES_PER_HOUR, durationSeconds: HOUR },
    idPhotoUpload: { points: settings.ID_UPLOADS_PER_HOUR, durationSeconds: HOUR },
    cartPrices: { points: settings.CART_PRICES_PER_MINUTE, durationSeconds: MINUTE },
    search: { points: settings.SEARCHES_PER_MINUTE, durationSeconds: MINUTE },
    signInAddress: { points: SIGN_IN_ATTEMPTS_PER_ADDRESS, durationSeconds: SIGN_IN_WINDOW_SECONDS },
    signInAccountAndAddress: {
      points: SIGN_IN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS,
      durationSeconds: SIGN_IN_WINDOW_SECONDS,
    },
    // A counter, never refused: how many failed sign-ins an account had lately.
    signInAccountFailures: { points: 1_000_000_000, durationSeconds: SIGN_IN_FAILURE_MEMORY_SECONDS },
    // One attempt per delay for an account under attack; each consume sets its own delay.
    signInAccountGate: { points: 1, durationSeconds: MINUTE },
    // A known device's attempts on its own account, wherever it is (instead of the address's).
    signInKnownDevice: {
      points: SIGN_IN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS,
      durationSeconds: SIGN_IN_WINDOW_SECONDS,
    },
    // A customer's sign-in codes (record 053), asked for and checked, as staff sign-ins: per client
    // address whatever the e-mail addresses, and per e-mail address and client address.
    customerCodeAddress: { points: SIGN_IN_ATTEMPTS_PER_ADDRESS, durationSeconds: SIGN_IN_WINDOW_SECONDS },
    customerCodeEmail: {
      points: SIGN_IN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS,
      durationSeconds: SIGN_IN_WINDOW_SECONDS,
    },
    // A signed-in account's re-checks of its password and code (record 037), whatever the session.
    reauthentication: {
      points: SIGN_IN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS,
      durationSeconds: SIGN_IN_WINDOW_SECONDS,
    },
  };
}

type Limiters = Map<BudgetName, RateLimiterAbstract>;

/** One set of limiters per open database: tests switch databases, each gets fresh counts. */
const limitersByDatabase = new WeakMap<DatabaseHandle, Limiters>();

function createLimiter(handle: DatabaseHandle, name: BudgetName, spec: BudgetSpec): RateLimiterAbstract {
  const common = { keyPrefix: `cg-${name}`, points: spec.points, duration: spec.durationSeconds };
  if (!handle.pgPool) return new RateLimiterMemory(common);
  return new RateLimiterPostgres({
    ...common,
    storeClient: handle.pgPool,
    storeType: "pool",
    // Created by migration 0003; unqualified, so it is found on the connection's search_path.
    tableName: "rate_limits",
    tableCreated: true,
    insuranceLimiter: new RateLimiterMemory(common),
  });
}

async function limiterFor(name: BudgetName): Promise<RateLimiterAbstract> {
  const handle = await getDatabaseHandle();
  let limiters = limitersByDatabase.get(handle);
  if (!limiters) {
    limiters = new Map();
    limitersByDatabase.set(handle, limiters);
  }
  let limiter = limiters.get(name);
  if (!limiter) {
    limiter = createLimiter(handle, name, budgetSpecs()[name]);
    limiters.set(name, limiter);
  }
  return limiter;
}

/** Keys stay short and never store an e-mail address in clear (the store's key is 255 characters). */
function storedKey(key: string) {
  return key.length <= 64 && /^[\w.:/-]+$/.test(key)
    ? key
    : `h:${createHash("sha256").update(key).digest("base64url")}`;
}

function budgetKey(name: BudgetName, key: string) {
  return storedKey(PER_ADDRESS.has(name) ? addressBudgetKey(key) : key);
}

/**
 * The hourly order budget of a client address (P-29). Unlike the budgets above it is taken
 * inside the order's own statement (`place_order`, drizzle/functions/place_order.sql), in the same `rate_limits` rows:
 * only an order placed spends a point, and no extra round trip takes or gives one back.
 */
export type OrderBudget = { key: string; points: number; windowMs: number };

export function orderBudgetOf(clientAddress: string): OrderBudget {
  return {
    key: `cg-checkout:${storedKey(addressBudgetKey(clientAddress))}`,
    points: config().ORDERS_PER_HOUR,
    windowMs: HOUR * 1000,
  };
}

export type BudgetResult = { ok: true; used: number } | { ok: false; retryAfterSeconds: number };

function secondsUntil(res: RateLimiterRes) {
  return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
}

/**
 * Takes `points` from the budget `name` of `key`, or says when to come back. The upsert is the
 * decision: of N parallel consumers of a budget of P, exactly P get through.
 */
export async function consumeBudget(
  name: BudgetName,
  key: string,
  options: { points?: number; durationSeconds?: number } = {},
): Promise<BudgetResult> {
  const limiter = await limiterFor(name);
  try {
    const res = await limiter.consume(
      budgetKey(name, key),
      options.points ?? 1,
      options.durationSeconds === undefined ? {} : { customDuration: options.durationSeconds },
    );
    return { ok: true, used: res.consumedPoints };
  } catch (error) {
    if (error instanceof RateLimiterRes) return { ok: false, retryAfterSeconds: secondsUntil(error) };
    throw error;
  }
}

/** Gives back what a request consumed when its work did not happen (an order not placed, …). */
export async function refundBudget(name: BudgetName, key: string, points = 1) {
  await (await limiterFor(name)).reward(budgetKey(name, key), points);
}

/** Points used in the current window (0 when none). */
export async function budgetUsed(name: BudgetName, key: string) {
  const res = await (await limiterFor(name)).get(budgetKey(name, key));
  return res?.consumedPoints ?? 0;
}

/** Forgets a key's count (a successful sign-in clears its account-and-address counter). */
export async function resetBudget(name: BudgetName, key: string) {
  await (await limiterFor(name)).delete(budgetKey(name, key));
}

/** The response headers and words of a refusal: every block says when to come back. */
export function retryAfterHeaders(retryAfterSeconds: number) {
  return { "Retry-After": String(retryAfterSeconds), "Cache-Control": "private, no-store" };
}

/**
 * The cart's price checks (its current prices and the checkout's suggestions) share one budget;
 * beyond it the answer is a JSON 429 with Retry-After, otherwise nothing.
 */
export async function cartPriceChecksRefusal(clientAddress: string): Promise<Response | undefined> {
  const budget = await consumeBudget("cartPrices", clientAddress);
  if (budget.ok) return undefined;
  return Response.json(
    { error: "Too many requests. Please try again shortly." },
    { status: 429, headers: retryAfterHeaders(budget.retryAfterSeconds) },
  );
}

/** 'in 12 minutes', 'in 40 seconds': when a refused client may try again. */
export function waitPhrase(retryAfterSeconds: number) {
  if (retryAfterSeconds < 90) {
    return `${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"}`;
  }
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/** The refusal of an ID photo beyond the address's hourly budget (upload ahead or checkout post). */
export function idPhotoBudgetMessage(retryAfterSeconds: number) {
  return `Too many photo uploads from this connection. Please try again in ${waitPhrase(retryAfterSeconds)}.`;
}

/**
 * A search (a non-empty `q` on /shop, a category or an effect page) spends the address's
 * per-minute search budget; beyond it the page is a plain 429 with Retry-After.
 */
export async function requireSearchBudget(search: string, clientAddress: string) {
  if (search === "") return;
  const budget = await consumeBudget("search", clientAddress);
  if (budget.ok) return;
  throw data(
    {
      message: `Too many searches from this connection. Please try again in ${waitPhrase(budget.retryAfterSeconds)}.`,
    },
    { status: 429, headers: retryAfterHeaders(budget.retryAfterSeconds) },
  );
}
