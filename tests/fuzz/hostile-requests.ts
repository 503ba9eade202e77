/**
 * Hostile HTTP traffic, generated with fast-check from a seed, sent to a running server, and
 * checked: no answer ≥ 500, no stack trace or server path in any body, no broken connection.
 * Shared by the fuzz test in `npm test` (tests/e2e/fuzz.spec.ts, about 2,000 requests) and by
 * `npm run bench` (10,000 requests).
 *
 * Every checkout it posts is refused by construction: each carries at least one field that no
 * order can have (see `poisonedCheckout`), so a placed order is a bug the caller finds by counting
 * the orders afterwards.
 */
import { Agent, request } from "node:http";
import path from "node:path";
import fc from "fast-check";
import { wireRequest } from "../support/raw-http.ts";

export type HostileRequest = {
  label: string;
  method: string;
  /** Sent as is: may hold bad percent-encoding. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
};

export type Finding = { request: string; status: number | "no answer"; why: string; excerpt: string };

export type FuzzReport = {
  sent: number;
  byStatus: Record<string, number>;
  findings: Finding[];
  /** Generated requests Node's client refuses to send (an invalid header, say). */
  unsendable: number;
  seconds: number;
};

export type FuzzTarget = {
  url: string;
  /** Real product and size ids of the shop, so some requests go past "unknown product". */
  productIds: string[];
  sizeIds: string[];
};

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Markers of a leaked stack or server path in a body; generated strings never contain them. */
const LEAK_MARKERS = [ROOT, "node_modules", "file://", "/work/"];
const STACK_FRAME = /^\s+at .+(\(|\s)\S+:\d+:\d+\)?$/m;

function leakIn(body: string): string | null {
  for (const marker of LEAK_MARKERS) if (body.includes(marker)) return `body contains "${marker}"`;
  if (STACK_FRAME.test(body)) return "body contains a stack frame";
  return null;
}

// ---- value generators -------------------------------------------------------------------------

const CONTROL_CHARACTERS = fc.constantFrom(
  "\u0000",
  "\u0001",
  "\u0007",
  "\b",
  "\t",
  "\n",
  "\r",
  "\u001b",
  "\u007f",
);

/** Strings an attacker would try: control characters, unicode, markup, SQL, huge ones. */
const hostileString: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
    {
      weight: 2,
      arbitrary: fc
        .array(fc.oneof(CONTROL_CHARACTERS, fc.string({ maxLength: 4 })), { maxLength: 12 })
        .map((parts) => parts.join("")),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "",
        " ",
        "%",
        "%zz",
        "%00",
        "%E0%A4%A",
        "\u0000",
        "' OR 1=1 --",
        "'; DROP TABLE orders; --",
        "<script>alert(1)</script>",
        '"><img src=x onerror=alert(1)>',
        "$" + "{7*7}",
        "{{7*7}}",
        "../../etc/passwd",
        "..%2F..%2Fetc%2Fpasswd",
        "\uFEFF",
        "\uD800",
        "🌿".repeat(50),
        "null",
        "undefined",
        "[object Object]",
        "__proto__",
        "constructor",
        "NaN",
        "-0",
        "1e309",
        "0x10",
        "1e2",
        "true",
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.string({ minLength: 1, maxLength: 8 }), fc.integer({ min: 1_000, max: 70_000 }))
        .map(([piece, times]) => piece.repeat(Math.ceil(times / piece.length)).slice(0, times)),
    },
  )
  .filter((value) => !LEAK_MARKERS.some((marker) => value.includes(marker)) && !STACK_FRAME.test(value));

const oddNumber = fc.constantFrom<unknown>(
  "1e2",
  "0x10",
  "-0",
  -0,
  "NaN",
  "Infinity",
  "1e309",
  true,
  false,
  null,
  "",
  " 1",
  "1.5",
  1.5,
  -1,
  0,
  1e21,
  "9".repeat(400),
  [1],
  { value: 1 },
);

/** A JSON text whose numbers are not JSON's: 1e309, NaN, -0, trailing garbage. */
const rawNumberJson = fc.constantFrom("1e309", "NaN", "-0", "Infinity", "01", "1_000", "0x10", "1e2");

// ---- request pieces ---------------------------------------------------------------------------

const COOKIE_NAMES = ["cg_toast", "cg_admin_session", "cg_age", "cg_cart", "session", "__proto__"];
/** Header values Node will send: printable latin-1 only. */
const headerSafe = (value: string) => value.replace(/[^\t\x20-\x7e\x80-\xff]/g, "");

const cookieHeader: fc.Arbitrary<string | null> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(null) },
  {
    weight: 3,
    arbitrary: fc
      .array(
        fc.tuple(
          fc.oneof(fc.constantFrom(...COOKIE_NAMES), fc.string({ maxLength: 10 })),
          fc.oneof(
            hostileString,
            fc.constantFrom("%", "%E0%A4%A", '"unclosed', "a=b=c", "eyJub3QiOiJzaWduZWQifQ==", "s%3A.bad"),
          ),
        ),
        { minLength: 1, maxLength: 6 },
      )
      .map((pairs) =>
        headerSafe(pairs.map(([name, value]) => `${name}=${value}`).join("; ")).slice(0, 12_000),
      ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(";;;", "=", "cg_toast", "cg_toast=", `cg_toast=${"A".repeat(8_000)}`),
  },
);

const CONTENT_TYPES = [
  "application/json",
  "text/plain",
  "text/plain;charset=UTF-8",
  "application/xml",
  "application/octet-stream",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "multipart/mixed; boundary=x",
  "application/x-www-form-urlencoded; charset=utf-16",
  "",
];

type Field = [string, string];

/** How a set of form fields is written: right, or in any of the ways an attacker would. */
type Encoding = "urlencoded" | "multipart" | "json" | "text" | "wrong-type" | "bad-multipart";

const encoding: fc.Arbitrary<Encoding> = fc.oneof(
  { weight: 5, arbitrary: fc.constant<Encoding>("urlencoded") },
  { weight: 5, arbitrary: fc.constant<Encoding>("multipart") },
  { weight: 1, arbitrary: fc.constant<Encoding>("json") },
  { weight: 1, arbitrary: fc.constant<Encoding>("text") },
  { weight: 1, arbitrary: fc.constant<Encoding>("wrong-type") },
  { weight: 1, arbitrary: fc.constant<Encoding>("bad-multipart") },
);

type FileField = { field: string; name: string; type: string; bytes: Buffer };

function encodeForm(
  fields: readonly Field[],
  how: Encoding,
  file: FileField | null,
  wrongType: string,
): { headers: Record<string, string>; body: Buffer } {
  const boundary = "----cgfuzzboundary7d3f";
  switch (how) {
    case "urlencoded":
      return {
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: Buffer.from(new URLSearchParams(fields.map(([key, value]) => [key, value])).toString()),
      };
    case "json":
      return {
        headers: { "Content-Type": "application/json" },
        body: Buffer.from(JSON.stringify(Object.fromEntries(fields))),
      };
    case "text":
      return {
        headers: { "Content-Type": "text/plain" },
        body: Buffer.from(fields.map(([key, value]) => `${key}=${value}`).join("\n")),
      };
    case "wrong-type":
      return {
        headers: { "Content-Type": wrongType },
        body: Buffer.from(new URLSearchParams(fields.map(([key, value]) => [key, value])).toString()),
      };
    default: {
      const parts: Buffer[] = [];
      for (const [key, value] of fields) {
        parts.push(
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`),
        );
      }
      if (file) {
        parts.push(
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
          ),
          file.bytes,
          Buffer.from("\r\n"),
        );
      }
      if (how === "bad-multipart") {
        // A body cut short: no closing boundary, or a boundary the header does not announce.
        return {
          headers: { "Content-Type": `multipart/form-data; boundary=${boundary}x` },
          body: Buffer.concat(parts),
        };
      }
      parts.push(Buffer.from(`--${boundary}--\r\n`));
      return {
        headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
        body: Buffer.concat(parts),
      };
    }
  }
}

/** Repeats some lines, as a crafted form may: `a=1&a=2`. */
const withRepeats = (fields: Field[]): fc.Arbitrary<Field[]> =>
  fc
    .array(fc.nat({ max: Math.max(0, fields.length - 1) }), { maxLength: 4 })
    .map((indexes) =>
      indexes.length && fields.length ? [...fields, ...indexes.map((i) => fields[i] as Field)] : fields,
    );

// ---- checkout ---------------------------------------------------------------------------------

function nextDeliveryDate() {
  const date = new Date(Date.now() + 2 * 24 * 3600 * 1000);
  return date.toISOString().slice(0, 10);
}

const SLOTS = ["10:00 AM - 12:00 PM", "12:00 PM - 2:00 PM", "2:00 PM - 4:00 PM", "4:00 PM - 6:00 PM"];

type Images = { png: Buffer; pixelBomb: Buffer };

/**
 * A checkout post that cannot place an order: one field (the poison) is always one no order can
 * have, whatever the rest is. The rest is a valid value or a hostile one.
 */
function poisonedCheckout(target: FuzzTarget, images: Images): fc.Arbitrary<HostileRequest> {
  const knownSize = target.sizeIds.length ? fc.constantFrom(...target.sizeIds) : fc.uuid();
  const knownProduct = target.productIds.length ? fc.constantFrom(...target.productIds) : fc.uuid();
  const line = fc.record({
    productId: fc.oneof(knownProduct, fc.uuid(), hostileString),
    sizeId: fc.oneof(knownSize, fc.uuid(), hostileString),
    quantity: fc.oneof(fc.integer({ min: 1, max: 3 }), oddNumber),
  });
  const itemsText = fc.oneof(
    { weight: 4, arbitrary: fc.array(line, { maxLength: 4 }).map((lines) => JSON.stringify(lines)) },
    // Repeated lines of one size, as in the issue's 100-line order.
    {
      weight: 1,
      arbitrary: fc
        .tuple(line, fc.integer({ min: 2, max: 120 }))
        .map(([item, times]) => JSON.stringify(Array.from({ length: times }, () => item))),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(knownProduct, knownSize, rawNumberJson)
        .map(
          ([productId, sizeId, quantity]) =>
            `[{"productId":"${productId}","sizeId":"${sizeId}","quantity":${quantity}}]`,
        ),
    },
    { weight: 1, arbitrary: hostileString },
  );
  const valid: Record<string, fc.Arbitrary<string>> = {
    name: fc.constant("Fuzz Tester"),
    email: fc.constant("fuzz@example.com"),
    phone: fc.constant("(202) 555-0199"),
    address: fc.constant("1 Test Street"),
    city: fc.constant("Washington"),
    state: fc.constantFrom("DC", "VA"),
    zipCode: fc.constant("20001"),
    notes: fc.constant(""),
    deliveryDate: fc.constant(nextDeliveryDate()),
    timeSlot: fc.constantFrom(...SLOTS),
    ageConfirmed: fc.constant("on"),
    idempotencyKey: fc.uuid(),
    items: itemsText,
    _client: fc.constantFrom("js", "html"),
  };
  // Values no order can have, field by field.
  const poisons: Record<string, fc.Arbitrary<string | null>> = {
    ageConfirmed: fc.oneof(
      fc.constant(null),
      hostileString.filter((v) => !["on", "true", "yes", "1"].includes(v.trim().toLowerCase())),
    ),
    idempotencyKey: fc.oneof(
      fc.constant(null),
      hostileString.filter((v) => !/^[\w-]{16,80}$/.test(v)),
    ),
    deliveryDate: fc.oneof(
      fc.constant(null),
      fc.constantFrom("1999-01-01", "2000-02-30", "0000-00-00"),
      hostileString.filter((v) => !/\d{4}-\d{2}-\d{2}/.test(v)),
    ),
    email: fc.oneof(
      fc.constant(null),
      hostileString.filter((v) => !v.includes("@")),
    ),
    state: hostileString.filter((v) => !["DC", "VA"].includes(v.trim().toUpperCase())),
    items: fc.oneof(
      fc.constantFrom("[]", "{}", "[", "null", `[{"productId":1}]`),
      fc
        .array(fc.record({ productId: fc.uuid(), sizeId: fc.uuid(), quantity: fc.constant(1) }), {
          minLength: 1,
          maxLength: 3,
        })
        .map((lines) => JSON.stringify(lines)),
    ),
  };
  const field = (name: string) =>
    fc.oneof({ weight: 3, arbitrary: valid[name] as fc.Arbitrary<string> }, hostileString);
  return fc
    .record({
      values: fc.record(Object.fromEntries(Object.keys(valid).map((name) => [name, field(name)]))),
      poison: fc
        .constantFrom(...Object.keys(poisons), "photo")
        .chain((name) =>
          (poisons[name] ?? fc.constant(null)).map((value) => ({ field: name, value }) as const),
        ),
      photo: fc.constantFrom("png", "junk", "bomb", "token", "bad-token", "none"),
      photoPoison: fc.constantFrom("junk", "bomb", "token", "bad-token", "none"),
      token: fc.uuid(),
      how: encoding,
      wrongType: fc.constantFrom(...CONTENT_TYPES),
      cookie: cookieHeader,
      origin: fc.constantFrom(null, "same", "https://evil.example", "null"),
      path: fc.constantFrom("/checkout", "/checkout.data", "/checkout?index", "/CHECKOUT", "/checkout/"),
    })
    .chain((draw) => {
      const values: Record<string, string | null> = { ...draw.values };
      // No usable photo is none, a made-up token, or a file that is no image.
      const photo: string = draw.poison.field === "photo" ? draw.photoPoison : draw.photo;
      if (draw.poison.field !== "photo") values[draw.poison.field] = draw.poison.value;
      const fields: Field[] = Object.entries(values).filter((entry): entry is Field => entry[1] !== null);
      let file: FileField | null = null;
      if (photo === "png") file = { field: "idFront", name: "id.png", type: "image/png", bytes: images.png };
      if (photo === "junk")
        file = {
          field: "idFront",
          name: "id.png",
          type: "image/png",
          bytes: Buffer.from("#!/bin/sh\nnot an image"),
        };
      if (photo === "bomb")
        file = { field: "idFront", name: "bomb.png", type: "image/png", bytes: images.pixelBomb };
      if (photo === "token") fields.push(["idPhotoToken", draw.token]);
      if (photo === "bad-token") fields.push(["idPhotoToken", "../../etc/passwd"]);
      return withRepeats(fields).map((repeated) => {
        const encoded = encodeForm(repeated, draw.how, file, draw.wrongType);
        return {
          label: `checkout (${draw.how}, poison ${draw.poison.field}, photo ${photo})`,
          method: "POST",
          path: draw.path,
          headers: withCommon(encoded.headers, draw.cookie, draw.origin, target),
          body: encoded.body,
        };
      });
    });
}

function withCommon(
  headers: Record<string, string>,
  cookie: string | null,
  origin: string | null,
  target: FuzzTarget,
): Record<string, string> {
  const all = { ...headers };
  if (cookie) all.Cookie = cookie;
  if (origin) all.Origin = origin === "same" ? target.url : origin;
  return all;
}

// ---- other routes -----------------------------------------------------------------------------

function idPhotoUpload(target: FuzzTarget, images: Images): fc.Arbitrary<HostileRequest> {
  return fc
    .record({
      file: fc.constantFrom("png", "junk", "bomb", "none", "empty", "wrong-field"),
      how: encoding,
      wrongType: fc.constantFrom(...CONTENT_TYPES),
      extra: fc.array(fc.tuple(fc.constantFrom("idFront", "idPhotoToken", "x"), hostileString), {
        maxLength: 3,
      }),
      cookie: cookieHeader,
      origin: fc.constantFrom(null, "same", "https://evil.example"),
    })
    .map((draw) => {
      const bytes =
        draw.file === "png"
          ? images.png
          : draw.file === "bomb"
            ? images.pixelBomb
            : draw.file === "empty"
              ? Buffer.alloc(0)
              : Buffer.from("GIF89a but not really");
      const file: FileField | null =
        draw.file === "none"
          ? null
          : {
              field: draw.file === "wrong-field" ? "photo" : "idFront",
              name: "id.png",
              type: "image/png",
              bytes,
            };
      const encoded = encodeForm(draw.extra, draw.how, file, draw.wrongType);
      return {
        label: `id-photo (${draw.how}, ${draw.file})`,
        method: "POST",
        path: "/api/id-photo",
        headers: withCommon(encoded.headers, draw.cookie, draw.origin, target),
        body: encoded.body,
      };
    });
}

/** encodeURIComponent that takes lone surrogates too (as U+FFFD). */
const encode = (value: string) => encodeURIComponent(value.toWellFormed());

/** A query value as sent on the wire: encoded, raw, or with broken percent-encoding. */
const queryValue = fc.oneof(
  { weight: 3, arbitrary: hostileString.map((value) => encode(value.slice(0, 4_000)).replace(/%25/g, "%")) },
  { weight: 3, arbitrary: hostileString.map((value) => encode(value.slice(0, 4_000))) },
  { weight: 1, arbitrary: fc.constantFrom("%", "%%", "%zz", "%E0%A4%A", "%00", "%C0%AF", "%FF%FE", "+%2B+") },
);

function cartPrices(target: FuzzTarget): fc.Arbitrary<HostileRequest> {
  const size = fc.oneof(
    target.sizeIds.length ? fc.constantFrom(...target.sizeIds) : fc.uuid(),
    fc.uuid(),
    queryValue,
  );
  return fc
    .record({
      sizes: fc.oneof(
        fc.array(size, { maxLength: 8 }),
        fc
          .tuple(size, fc.integer({ min: 50, max: 600 }))
          .map(([one, times]) => Array.from({ length: times }, () => one)),
      ),
      name: fc.constantFrom("size", "size[]", "size[0]", "SIZE", "size%00"),
      cookie: cookieHeader,
    })
    .map((draw) => ({
      label: `cart-prices (${draw.sizes.length} sizes)`,
      method: "GET",
      path: `/api/cart-prices?${draw.sizes.map((value) => `${draw.name}=${value}`).join("&")}`.slice(
        0,
        15_000,
      ),
      headers: withCommon({}, draw.cookie, null, target),
    }));
}

function adminLogin(target: FuzzTarget): fc.Arbitrary<HostileRequest> {
  return fc
    .record({
      email: fc.oneof(fc.constant("owner@capitalgrown.test"), hostileString),
      password: fc.oneof(fc.constant("wrong-password-123"), hostileString),
      redirectTo: fc.oneof(
        fc.constantFrom(
          "/admin/orders",
          "//evil.example",
          "https://evil.example",
          "/\\evil.example",
          "javascript:alert(1)",
        ),
        hostileString,
      ),
      how: encoding,
      wrongType: fc.constantFrom(...CONTENT_TYPES),
      cookie: cookieHeader,
      origin: fc.constantFrom("same", "same", null, "https://evil.example", "null"),
      path: fc.constantFrom("/admin/login", "/admin/login.data", "/admin/login?index", "/admin/login/"),
    })
    .chain((draw) =>
      withRepeats([
        ["email", draw.email],
        ["password", draw.password],
        ["redirectTo", draw.redirectTo],
      ]).map((fields) => {
        const encoded = encodeForm(fields, draw.how, null, draw.wrongType);
        return {
          label: `admin login (${draw.how})`,
          method: "POST",
          path: draw.path,
          headers: withCommon(encoded.headers, draw.cookie, draw.origin, target),
          body: encoded.body,
        };
      }),
    );
}

const LISTING_PATHS = ["/shop", "/flower", "/edibles", "/deals", "/relaxed", "/uplifted", "/"];
const LISTING_PARAMS = ["q", "category", "page", "only", "effect", "sort", "strain", "q[]"];

function listing(target: FuzzTarget): fc.Arbitrary<HostileRequest> {
  return fc
    .record({
      path: fc.constantFrom(...LISTING_PATHS),
      params: fc.array(
        fc.tuple(
          fc.constantFrom(...LISTING_PARAMS),
          fc.oneof(
            queryValue,
            oddNumber.map((value) => String(value)),
          ),
        ),
        { maxLength: 6 },
      ),
      data: fc.boolean(),
      cookie: cookieHeader,
    })
    .map((draw) => ({
      label: `listing ${draw.path}`,
      method: "GET",
      path: `${draw.path === "/" && draw.data ? "/_root" : draw.path}${draw.data ? ".data" : ""}?${draw.params
        .map(([key, value]) => `${key}=${value}`)
        .join("&")}`.slice(0, 15_000),
      headers: withCommon({}, draw.cookie, null, target),
    }));
}

/** Paths themselves: bad percent-encoding, odd methods, ids that are not ids. */
function oddPaths(target: FuzzTarget): fc.Arbitrary<HostileRequest> {
  const segment = fc.oneof(
    queryValue,
    fc.constantFrom("%", "%2e%2e", "..", "%2F", "%00", "%C0%AE", "a%", "~", "%E2%80%AE", "%F0%9F%8C%BF"),
  );
  return fc
    .record({
      prefix: fc.constantFrom(
        "/",
        "/product/",
        "/media/",
        "/thank-you?order=",
        "/order-confirmation?order=",
        "/admin/id-photos/",
        "/api/",
        "/assets/",
      ),
      segment,
      method: fc.oneof(
        { weight: 6, arbitrary: fc.constant("GET") },
        {
          weight: 1,
          arbitrary: fc.constantFrom("HEAD", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND"),
        },
      ),
      cookie: cookieHeader,
    })
    .map((draw) => ({
      label: `path ${draw.method} ${draw.prefix}`,
      method: draw.method,
      path: `${draw.prefix}${draw.segment}`.slice(0, 8_000),
      headers: withCommon({}, draw.cookie, null, target),
    }));
}

export function hostileRequests(target: FuzzTarget, images: Images): fc.Arbitrary<HostileRequest> {
  return fc.oneof(
    { weight: 4, arbitrary: poisonedCheckout(target, images) },
    { weight: 2, arbitrary: idPhotoUpload(target, images) },
    { weight: 2, arbitrary: cartPrices(target) },
    { weight: 3, arbitrary: adminLogin(target) },
    { weight: 3, arbitrary: listing(target) },
    { weight: 2, arbitrary: oddPaths(target) },
  );
}

// ---- running ----------------------------------------------------------------------------------

/** A small real PNG and a 49-megapixel PNG of a few KB (a pixel bomb), made with sharp. */
export async function fuzzImages(): Promise<Images> {
  const { default: sharp } = await import("sharp");
  const png = await sharp({ create: { width: 64, height: 40, channels: 3, background: "#2f7553" } })
    .png()
    .toBuffer();
  const pixelBomb = await sharp({ create: { width: 7000, height: 7000, channels: 3, background: "#ffffff" } })
    .png({ compressionLevel: 9 })
    .toBuffer();
  return { png, pixelBomb };
}

/** Product and size ids from the shop's own pages, so generated carts can name real ones. */
export async function discoverTarget(url: string): Promise<FuzzTarget> {
  const shop = await (await fetch(`${url}/shop`)).text();
  // Product pages are at /product/{slug} (record 028); their ids come with their sizes' prices.
  const slugs = [
    ...new Set([...shop.matchAll(/href="\/product\/([a-z0-9-]+)"/g)].map((m) => m[1] as string)),
  ];
  const candidates = new Set<string>();
  for (const slug of slugs.slice(0, 4)) {
    const page = await (await fetch(`${url}/product/${slug}`)).text();
    for (const match of page.matchAll(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g)) {
      candidates.add(match[0]);
    }
  }
  const query = [...candidates].map((id) => `size=${id}`).join("&");
  const { sizes } = (await (await fetch(`${url}/api/cart-prices?${query}`)).json()) as {
    sizes: { productId: string; sizeId: string }[];
  };
  const productIds = [...new Set(sizes.map((size) => size.productId))];
  const sizeIds = sizes.map((size) => size.sizeId);
  return { url, productIds: productIds.slice(0, 8), sizeIds: sizeIds.slice(0, 12) };
}

/** What each connection carried last, to tell which answer left it broken. */
const lastRequestOn = new WeakMap<object, string>();

function send(agent: Agent, base: URL, hostile: HostileRequest) {
  return new Promise<{ status: number; body: string } | { error: string; unsendable: boolean }>((resolve) => {
    let settled = false;
    const done = (value: { status: number; body: string } | { error: string; unsendable: boolean }) => {
      if (!settled) {
        settled = true;
        resolve(value);
      }
    };
    let outgoing: ReturnType<typeof request>;
    try {
      outgoing = request(
        {
          agent,
          host: base.hostname,
          port: base.port,
          method: hostile.method,
          path: hostile.path,
          headers: hostile.body
            ? { ...hostile.headers, "Content-Length": String(hostile.body.length) }
            : hostile.headers,
          timeout: 30_000,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size < 4 * 1024 * 1024) chunks.push(chunk);
          });
          response.on("end", () =>
            done({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
          );
          response.on("error", (error) => done({ error: error.message, unsendable: false }));
        },
      );
    } catch (error) {
      // Node's client refuses to send it (a character it does not allow in a path or header).
      done({ error: (error as Error).message, unsendable: true });
      return;
    }
    outgoing.on("timeout", () => outgoing.destroy(new Error("no answer within 30 s")));
    outgoing.on("socket", (socket) => {
      previousOnSocket = lastRequestOn.get(socket) ?? "";
      lastRequestOn.set(socket, `${hostile.method} ${hostile.path.slice(0, 80)} (${hostile.label})`);
    });
    let previousOnSocket = "";
    outgoing.on("error", (error) =>
      done({
        error: `${error.message}${outgoing.reusedSocket ? ` (on a connection reused after ${previousOnSocket})` : ""}`,
        unsendable: false,
      }),
    );
    outgoing.end(hostile.body);
  });
}

function describeRequest(hostile: HostileRequest) {
  const body = hostile.body
    ? ` body ${hostile.body.length} B: ${hostile.body.subarray(0, 160).toString("latin1")}`
    : "";
  return `${hostile.label}: ${hostile.method} ${hostile.path.slice(0, 200)} ${JSON.stringify(hostile.headers).slice(0, 300)}${body}`;
}

/** Generates `requests` hostile requests from `seed` and sends them, `concurrency` at a time. */
export async function fuzzServer(
  target: FuzzTarget,
  options: { requests: number; seed: number; concurrency?: number; images?: Images },
): Promise<FuzzReport> {
  const started = Date.now();
  const images = options.images ?? (await fuzzImages());
  const samples = fc.sample(hostileRequests(target, images), {
    numRuns: options.requests,
    seed: options.seed,
  });
  const base = new URL(target.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency ?? 4 });
  const report: FuzzReport = { sent: 0, byStatus: {}, findings: [], unsendable: 0, seconds: 0 };
  let next = 0;
  async function worker() {
    while (next < samples.length) {
      const hostile = samples[next++] as HostileRequest;
      const result = await send(agent, base, hostile);
      if ("error" in result) {
        if (result.unsendable) {
          report.unsendable++;
          continue;
        }
        report.sent++;
        report.byStatus["no answer"] = (report.byStatus["no answer"] ?? 0) + 1;
        report.findings.push({
          request: describeRequest(hostile),
          status: "no answer",
          why: result.error,
          excerpt: "",
        });
        continue;
      }
      report.sent++;
      report.byStatus[result.status] = (report.byStatus[result.status] ?? 0) + 1;
      const leak = leakIn(result.body);
      if (result.status >= 500 || leak) {
        report.findings.push({
          request: describeRequest(hostile),
          status: result.status,
          why: leak ?? `status ${result.status}`,
          excerpt: result.body.slice(0, 400),
        });
      }
    }
  }
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, () => worker()));
  agent.destroy();
  report.seconds = (Date.now() - started) / 1000;
  return report;
}

// ---- odd HTTP over raw sockets -------------------------------------------------------------------

/**
 * What Node's client never sends: HTTP/1.0 without Host, an empty or malformed Host, absolute-form
 * targets, odd X-Forwarded-* (read only behind TRUST_PROXY); to pages, the storefront, and the
 * admin's lists and CSV exports with dates and text the database refuses (signed in when
 * `adminCookie` is given).
 */
export function oddHttpRequests(target: { url: string; adminCookie?: string }): fc.Arbitrary<string> {
  const own = new URL(target.url).host;
  const badDate = fc.constantFrom(
    "2026-02-30",
    "0000-01-01",
    "0000-02-29",
    "2026-13-01",
    "2026-00-10",
    "9999-12-31",
    "10000-01-01",
    "-001-01-01",
    "2026-1-1",
    "2026-02-29",
    "2024-02-29",
    "1899-12-31",
  );
  const filterValue = fc.oneof(badDate, queryValue, fc.constantFrom("%00", "Quin%00tessa", "%1b%5B2J", "%"));
  const withQuery = (paths: string[], keys: string[]) =>
    fc
      .tuple(
        fc.constantFrom(...paths),
        fc.array(fc.tuple(fc.constantFrom(...keys), filterValue), { minLength: 1, maxLength: 3 }),
      )
      .map(([base, pairs]) => `${base}?${pairs.map(([key, value]) => `${key}=${value}`).join("&")}`);
  const path = fc.oneof(
    {
      weight: 2,
      arbitrary: fc.constantFrom("/", "/admin/login", "/terms", "/shop", "/shop.data", "/admin", "/checkout"),
    },
    {
      weight: 3,
      arbitrary: withQuery(
        ["/admin/orders/export", "/admin/orders", "/admin/completed-orders"],
        ["from", "to", "q", "status", "scope"],
      ),
    },
    {
      weight: 2,
      arbitrary: withQuery(
        ["/admin/audit/export", "/admin/audit"],
        ["from", "to", "action", "targetType", "targetId", "actor"],
      ),
    },
    { weight: 1, arbitrary: withQuery(["/admin/today", "/admin/today/pick-list"], ["date", "slot"]) },
    { weight: 1, arbitrary: withQuery(["/shop", "/flower", "/"], ["q", "page", "utm_source", "fbclid"]) },
  );
  const host = fc.constantFrom<string | null>(
    null,
    "",
    " ",
    own,
    own,
    "evil.example",
    "a b",
    "[::1",
    "[::1]:3000",
    "localhost:99999",
    "user@evil.example",
    "evil.example/path",
    "évil.example",
    "x".repeat(300),
    `${own}, evil.example`,
  );
  const requestTarget = fc
    .tuple(
      fc.constantFrom(
        "origin",
        "origin",
        "origin",
        "absolute",
        "absolute-https",
        "other-scheme",
        "no-host",
        "star",
      ),
      path,
      fc.constantFrom(own, "evil.example", "EVIL.example:8080", "127.0.0.1"),
    )
    .map(([form, p, authority]) => {
      switch (form) {
        case "absolute":
          return `http://${authority}${p}`;
        case "absolute-https":
          return `https://${authority}${p}`;
        case "other-scheme":
          return `ftp://${authority}${p}`;
        case "no-host":
          return `http://${p}`;
        case "star":
          return "*";
        default:
          return p;
      }
    });
  return fc
    .record({
      method: fc.constantFrom("GET", "GET", "GET", "HEAD"),
      target: requestTarget,
      version: fc.constantFrom("HTTP/1.0", "HTTP/1.1", "HTTP/1.1"),
      host,
      signedIn: fc.boolean(),
      forwarded: fc.constantFrom<[string, string] | null>(
        null,
        null,
        ["X-Forwarded-Host", ""],
        ["X-Forwarded-Host", "a b"],
        ["X-Forwarded-Proto", "javascript"],
        ["X-Forwarded-Proto", "a b"],
        ["X-Real-IP", "203.0.113.9"],
      ),
    })
    .map((draw) => {
      const lines = [`${draw.method} ${draw.target} ${draw.version}`];
      if (draw.host !== null) lines.push(`Host: ${draw.host}`.trimEnd());
      if (draw.signedIn && target.adminCookie) lines.push(`Cookie: ${target.adminCookie}`);
      if (draw.forwarded) lines.push(`${draw.forwarded[0]}: ${draw.forwarded[1]}`.trimEnd());
      lines.push("Connection: close", "", "");
      return lines.join("\r\n");
    });
}

/**
 * Sends `requests` odd HTTP requests generated from `seed`, each on a connection of its own,
 * `concurrency` at a time; a finding is an answer ≥ 500, a stack or a server path in a body, or a
 * connection closed without an answer.
 */
export async function fuzzRawHttp(
  target: { url: string; adminCookie?: string },
  options: { requests: number; seed: number; concurrency?: number },
): Promise<FuzzReport> {
  const started = Date.now();
  const samples = fc.sample(oddHttpRequests(target), { numRuns: options.requests, seed: options.seed });
  const report: FuzzReport = { sent: 0, byStatus: {}, findings: [], unsendable: 0, seconds: 0 };
  let next = 0;
  const describe = (head: string) =>
    head
      .replace(/Cookie: [^\r]*/, "Cookie: (admin session)")
      .replaceAll("\r\n", " ⏎ ")
      .slice(0, 300);
  async function worker() {
    while (next < samples.length) {
      const head = samples[next++] as string;
      report.sent++;
      let answer: Awaited<ReturnType<typeof wireRequest>>;
      try {
        answer = await wireRequest(target.url, head, 30_000);
      } catch (error) {
        report.byStatus["no answer"] = (report.byStatus["no answer"] ?? 0) + 1;
        report.findings.push({
          request: describe(head),
          status: "no answer",
          why: String(error),
          excerpt: "",
        });
        continue;
      }
      const status = answer.status === 0 ? "no answer" : answer.status;
      report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
      const leak = leakIn(answer.body);
      if (answer.status === 0 || answer.status >= 500 || leak) {
        report.findings.push({
          request: describe(head),
          status,
          why:
            leak ?? (answer.status === 0 ? "connection closed without an answer" : `status ${answer.status}`),
          excerpt: answer.body.slice(0, 400),
        });
      }
    }
  }
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, () => worker()));
  report.seconds = (Date.now() - started) / 1000;
  return report;
}

/** Orders in a stopped server's embedded database (or in a PostgreSQL database). */
export async function countOrders(where: { dataDir?: string; databaseUrl?: string }): Promise<number> {
  if (where.databaseUrl) {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: where.databaseUrl });
    await client.connect();
    try {
      const result = await client.query<{ count: number }>("select count(*)::int as count from orders");
      return result.rows[0]?.count ?? 0;
    } finally {
      await client.end();
    }
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const database = await PGlite.create(path.join(where.dataDir as string, "pglite"));
  try {
    const result = await database.query<{ count: number }>("select count(*)::int as count from orders");
    return result.rows[0]?.count ?? 0;
  } finally {
    await database.close();
  }
}
