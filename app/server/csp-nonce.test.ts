import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  brotliBody,
  createNonce,
  createPlaceholder,
  fill,
  gzipBody,
  identityBody,
  NONCE_LENGTH,
  probeNonce,
} from "./csp-nonce.server.ts";

/** A page like the shop's: several scripts with the nonce, repeated markup, JSON data. */
function page(placeholder: string, products = 60) {
  const cards = Array.from(
    { length: products },
    (_, i) =>
      `<li><a href="/product/${i.toString(16).padStart(8, "0")}">Blue Dream ${i}</a><span>$${(i * 3.7).toFixed(2)}</span></li>`,
  ).join("");
  const data = JSON.stringify(
    Array.from({ length: products }, (_, i) => ({ id: i, name: `Blue Dream ${i}`, price: i * 370 })),
  );
  return Buffer.from(
    `<!DOCTYPE html><html><head><link rel="modulepreload" href="/assets/a.js" nonce="${placeholder}"/></head><body><ul>${cards}</ul>` +
      `<script nonce="${placeholder}">console.log("scroll")</script>` +
      `<script nonce="${placeholder}">window.__ctx = ${data};</script>` +
      `<script type="module" nonce="${placeholder}" async="">import "/assets/entry.js";</script></body></html>`,
  );
}

describe("CSP nonces in cached pages", () => {
  it("makes nonces of 144 random bits that differ every time", () => {
    const a = createNonce();
    expect(a).toHaveLength(NONCE_LENGTH);
    expect(a).toMatch(/^[\w-]+$/);
    expect(createNonce()).not.toBe(a);
    const placeholder = createPlaceholder();
    const probe = probeNonce(placeholder);
    expect(new Set(probe.slice(0, 24)).size).toBe(24);
    for (let i = 0; i < 24; i++) expect(probe[i]).not.toBe(placeholder[i]);
  });

  it("fills a fresh nonce into the identity, gzip and brotli bodies of the same entry", async () => {
    for (let round = 0; round < 20; round++) {
      const placeholder = createPlaceholder();
      const body = page(placeholder, 20 + round * 7);
      const identity = identityBody(body, placeholder);
      const gzip = await gzipBody(body, placeholder);
      const br = await brotliBody(body, placeholder, 5);
      if (!gzip || !br) throw new Error(`a compressed body could not be proven (gzip ${!!gzip}, br ${!!br})`);
      for (const nonce of [createNonce(), createNonce()]) {
        const expected = body.toString().replaceAll(placeholder, nonce);
        expect(fill(identity, nonce).toString()).toBe(expected);
        expect(gunzipSync(fill(gzip, nonce)).toString()).toBe(expected);
        expect(brotliDecompressSync(fill(br, nonce)).toString()).toBe(expected);
        expect(fill(gzip, nonce)).toHaveLength(gzip.bytes);
        expect(fill(br, nonce)).toHaveLength(br.bytes);
        expect(fill(identity, nonce)).toHaveLength(identity.bytes);
      }
    }
  });

  it("leaves a body without the placeholder as it is", async () => {
    const body = Buffer.from("<p>no scripts</p>".repeat(100));
    const placeholder = createPlaceholder();
    expect(fill(identityBody(body, placeholder), createNonce())).toEqual(body);
    const br = await brotliBody(body, placeholder, 5);
    const gzip = await gzipBody(body, placeholder);
    if (!br || !gzip) throw new Error("a compressed body could not be proven");
    expect(brotliDecompressSync(fill(br, createNonce()))).toEqual(body);
    expect(gunzipSync(fill(gzip, createNonce()))).toEqual(body);
  });
});
