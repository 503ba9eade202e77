/**
 * The Content-Security-Policy of every response (record 013). Scripts are never allowed inline
 * as such: a page rendered for one response names that response's nonce; a page served from the
 * page cache, whose bytes are the same for everyone, names the SHA-256 of each of its inline
 * scripts instead, computed once when it is stored, so a cached page goes out as stored bytes.
 */
import { createHash, randomFillSync } from "node:crypto";

const NONCE_BYTES = 18; // 144 bits, 24 characters of base64url
// One call for the random bytes of 512 nonces: a call per response costs more than the rest of a
// small response's own work.
const pool = Buffer.alloc(NONCE_BYTES * 512);
let poolOffset = pool.length;

/** A fresh nonce for one response (144 random bits from the operating system's generator). */
export function createNonce() {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const nonce = pool.toString("base64url", poolOffset, poolOffset + NONCE_BYTES);
  poolOffset += NONCE_BYTES;
  return nonce;
}

function policy(imageHosts: readonly string[], scriptSources: readonly string[]) {
  return [
    "default-src 'self'",
    // blob: shows a picked photo before it is sent (checkout ID, product image in the admin).
    ["img-src 'self' data: blob:", ...imageHosts].join(" "),
    ["script-src 'self'", ...scriptSources].join(" "),
    "style-src 'self' 'unsafe-inline'",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Builds the policy of one response from the nonce of its scripts. */
export function noncePolicy(imageHosts: readonly string[]) {
  const [before, after] = policy(imageHosts, ["'nonce-{nonce}'"]).split("{nonce}") as [string, string];
  return (nonce: string) => `${before}${nonce}${after}`;
}

// An inline script: a <script> without src, up to its end tag (React escapes "</" inside scripts).
const INLINE_SCRIPT = /<script\b((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)<\/script\s*>/gi;
const HAS_SRC = /\ssrc\s*=/i;

/** The CSP hash sources ('sha256-…') of every inline script of a page, in order, without repeats. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes = "", text = ""] of html.matchAll(INLINE_SCRIPT)) {
    if (HAS_SRC.test(attributes)) continue;
    hashes.add(`'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

/** The policy of a stored page: its own inline scripts and no others. */
export function hashPolicy(imageHosts: readonly string[], html: string) {
  return policy(imageHosts, inlineScriptHashes(html));
}
