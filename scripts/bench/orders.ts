/**
 * Orders over HTTP against a bare INSERT on the same engine (PostgreSQL or PGlite, same run). A shopper's checkout post —
 * the form naming the ID photo the page sent ahead when it was picked (P-8), validated,
 * priced and stocked on the server, order, items, outbox and running totals written in one
 * transaction, response — compared with inserting
 * one order row into a copy of the orders table (same columns, defaults and indexes) in a schema of
 * our own on PostgreSQL, or into a second embedded database on disk for PGlite, with the same
 * concurrency. The photos are sent before each timed run of order posts; a second figure times the
 * whole checkout (photo upload, then the post) against the same INSERTs. Then: no size sold more
 * units than it had (0 oversold), also for a size with 25 units that 200 concurrent checkouts try
 * to buy with the photo in the form, as without JavaScript.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import sharp from "sharp";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { MIN_ORDER_CENTS } from "#app/features/cart/cart.ts";
import { availableSlots, deliveryOptions } from "#app/features/delivery/delivery-slots.ts";
import { orderFields } from "#tests/support/checkout-test-helpers.server.ts";
import { orderableAtMinimum } from "#tests/support/shop-orders.ts";
import { type DataSet, formPoster, median, say, startServer } from "./lib.ts";

type Row = { figure: string; target: string; value: string; pass: boolean | null; context: string };
type SizeRow = {
  id: string;
  product_id: string;
  price_cents: number;
  sale_price_cents: number | null;
  flower_equivalent_mg: number | null;
};

const CONCURRENCY = 8;

function fmt(value: number, digits = 2) {
  return Number.isFinite(value) ? value.toFixed(digits) : "n/a";
}

/** Runs `worker` on `concurrency` lanes for `seconds`; returns how many calls returned true. */
async function forSeconds(seconds: number, concurrency: number, worker: () => Promise<boolean>) {
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  let ok = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        if (await worker()) ok++;
        else failed++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return { ok, failed, rate: ok / elapsed };
}

type StockRow = { id: string; inventory_count: number; sold: string };

const SIZES_SQL =
  "SELECT s.id, s.product_id, s.price_cents, s.sale_price_cents, s.flower_equivalent_mg FROM product_sizes s JOIN products p ON p.id = s.product_id WHERE p.archived_at IS NULL ORDER BY s.id";
const STOCK_SQL = "SELECT id, inventory_count FROM product_sizes";
const FINAL_SQL =
  "SELECT s.id, s.inventory_count, COALESCE((SELECT SUM(quantity) FROM order_items i WHERE i.product_size_id = s.id), 0) AS sold FROM product_sizes s";
const INSERT_COLUMNS =
  "public_token, idempotency_key, user_email, customer_name, phone, street, city, state, zip_code, delivery_address, delivery_date, delivery_time, total_amount_cents, quantity";

/**
 * What the bench needs of the shop's database besides the server: read sizes and stock, and a
 * reference table for the bare INSERT on the same engine. PostgreSQL is reached while the server
 * runs; the embedded database is opened only while the server is stopped (its folder is locked), and
 * its reference INSERTs go to a second embedded database on disk.
 */
type OrderStore = {
  engine: "PostgreSQL" | "PGlite";
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  bareInsert(values: [string, string, string, string]): Promise<void>;
  /** Called around the server's life: the embedded database must be closed while it runs. */
  beforeServer(): Promise<void>;
  afterServer(): Promise<void>;
  close(): Promise<void>;
};

async function postgresStore(url: string): Promise<OrderStore> {
  const pool = new pg.Pool({ connectionString: url, max: CONCURRENCY + 2 });
  const schema = `bench_ref_${randomBytes(4).toString("hex")}`;
  await pool.query(`CREATE SCHEMA "${schema}"`);
  await pool.query(`CREATE TABLE "${schema}".orders (LIKE public.orders INCLUDING ALL)`);
  const insertSql = `INSERT INTO "${schema}".orders (${INSERT_COLUMNS})
      VALUES ($1, $2, 'ada@example.com', 'Ada Shopper', '(202) 555-0100', '1600 Example Ave NW', 'Washington', 'DC', '20001', '1600 Example Ave NW, Washington, DC 20001', $3, $4, 8000, 1)`;
  return {
    engine: "PostgreSQL",
    async query<T>(text: string, params: unknown[] = []) {
      return (await pool.query(text, params)).rows as T[];
    },
    async bareInsert(values) {
      await pool.query(insertSql, values);
    },
    async beforeServer() {},
    async afterServer() {},
    async close() {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
      await pool.end();
    },
  };
}

async function pgliteStore(dataDir: string): Promise<OrderStore> {
  const referenceDir = mkdtempSync(path.join(tmpdir(), "cg-bench-ref-"));
  const reference = await openDatabase({
    kind: "pglite",
    dataDir: referenceDir,
    lockOwner: "the order bench",
  });
  let shop: DatabaseHandle | undefined = await openDatabase({
    kind: "pglite",
    dataDir,
    lockOwner: "the order bench",
  });
  const rows = async (handle: DatabaseHandle, text: string, params: unknown[]) => {
    const query = params.reduce<string>(
      (sqlText, value, index) =>
        sqlText.replaceAll(`$${index + 1}`, `'${String(value).replaceAll("'", "''")}'`),
      text,
    );
    return ((await handle.db.execute(sql.raw(query))) as unknown as { rows: unknown[] }).rows;
  };
  return {
    engine: "PGlite",
    async query<T>(text: string, params: unknown[] = []) {
      if (!shop) throw new Error("The embedded shop database is closed while the server runs");
      return (await rows(shop, text, params)) as T[];
    },
    async bareInsert([token, key, date, slot]) {
      await reference.db.execute(
        sql`INSERT INTO orders (public_token, idempotency_key, user_email, customer_name, phone, street, city, state, zip_code, delivery_address, delivery_date, delivery_time, total_amount_cents, quantity)
          VALUES (${token}, ${key}, 'ada@example.com', 'Ada Shopper', '(202) 555-0100', '1600 Example Ave NW', 'Washington', 'DC', '20001', '1600 Example Ave NW, Washington, DC 20001', ${date}, ${slot}, 8000, 1)`,
      );
    },
    async beforeServer() {
      await shop?.close();
      shop = undefined;
    },
    async afterServer() {
      shop = await openDatabase({ kind: "pglite", dataDir, lockOwner: "the order bench" });
    },
    async close() {
      await shop?.close();
      await reference.close();
      rmSync(referenceDir, { recursive: true, force: true });
    },
  };
}

export async function benchOrders(
  data: DataSet,
  options: { seconds: number; rounds: number },
): Promise<Row[]> {
  const url = data.env.DATABASE_URL;
  const store = url ? await postgresStore(url) : await pgliteStore(data.env.DATA_DIR as string);
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    // Plenty of stock everywhere (so the rate counts placed orders), except one size kept scarce.
    const sizes = await store.query<SizeRow>(SIZES_SQL);
    const [scarce, ...rest] = sizes;
    // The rounds' sizes: orders of any other would be refused by the purchase limit (P-28).
    const plenty = rest.filter((size) =>
      orderableAtMinimum(size.sale_price_cents ?? size.price_cents, size.flower_equivalent_mg),
    );
    if (!scarce || plenty.length === 0) throw new Error("no sizes to order");
    await store.query("UPDATE product_sizes SET inventory_count = 1000000 WHERE id <> $1", [scarce.id]);
    await store.query("UPDATE product_sizes SET inventory_count = 25 WHERE id = $1", [scarce.id]);
    const initial = new Map(
      (await store.query<{ id: string; inventory_count: number }>(STOCK_SQL)).map((r) => [
        r.id,
        r.inventory_count,
      ]),
    );
    await store.beforeServer();
    server = await startServer(data);
    const serverUrl = server.url;

    const png = await sharp({
      create: {
        width: Number(process.env.BENCH_ID_WIDTH ?? 480),
        height: Number(process.env.BENCH_ID_HEIGHT ?? 300),
        channels: 3,
        background: "#2f7553",
      },
    })
      .png()
      .toBuffer();
    const now = new Date();
    const { defaultDate } = deliveryOptions(now);
    const slot = availableSlots(defaultDate, now)[0] ?? "";

    /**
     * The post as the checkout page sends it: with the photo sent ahead, text only and urlencoded
     * (the page's fetcher does the same); with the photo in it, multipart, as without JavaScript.
     */
    function orderForm(
      lines: Array<{ productId: string; sizeId: string; quantity: number }>,
      photoToken?: string,
    ) {
      const fields = orderFields(lines, { deliveryDate: defaultDate, timeSlot: slot, _client: "js" }, now);
      if (photoToken) return new URLSearchParams({ ...fields, idPhotoToken: photoToken });
      const form = new FormData();
      for (const [key, value] of Object.entries(fields)) form.append(key, value);
      form.append("idFront", new File([new Uint8Array(png)], "id.png", { type: "image/png" }));
      return form;
    }
    /** What the page does when the shopper picks the photo: POST it, get its token back. */
    async function uploadPhoto(): Promise<string> {
      for (let attempt = 0; ; attempt++) {
        try {
          const form = new FormData();
          form.append("idFront", new File([new Uint8Array(png)], "id.png", { type: "image/png" }));
          const response = await fetch(`${serverUrl}/api/id-photo`, { method: "POST", body: form });
          const body = (await response.json()) as { token?: string };
          if (response.status !== 200 || !body.token)
            throw new Error(`ID photo upload refused (${response.status})`);
          return body.token;
        } catch (error) {
          if (attempt > 0) throw error;
        }
      }
    }
    // Photos sent ahead, one per order post; filled (untimed) before each timed run of posts.
    const tokens: string[] = [];
    async function fillTokens(count: number) {
      let missing = Math.max(0, count - tokens.length);
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (missing > 0) {
            missing--;
            tokens.push(await uploadPhoto());
          }
        }),
      );
    }
    function lineFor(size: SizeRow, minimumCents: number) {
      const unit = size.sale_price_cents ?? size.price_cents;
      const quantity = Math.min(999, Math.max(1, Math.ceil(minimumCents / Math.max(unit, 1))));
      return { productId: size.product_id, sizeId: size.id, quantity };
    }
    // The posts' own client: Node's http on keep-alive sockets (lib.ts `formPoster`), not `fetch`.
    const poster = formPoster(serverUrl, CONCURRENCY);
    // Why posts were refused, if any were: by status, and the first answer's beginning.
    const refusals = new Map<number, number>();
    let firstRefusal: string | undefined;
    let next = 0;
    async function postOrder(photoToken: string): Promise<boolean> {
      const size = plenty[next++ % plenty.length] as SizeRow;
      // A keep-alive socket the server closed as the client reused it (EPIPE) is retried once on a
      // fresh connection; a second failure is a real one.
      for (let attempt = 0; ; attempt++) {
        try {
          const form = orderForm([lineFor(size, MIN_ORDER_CENTS)], photoToken);
          if (!(form instanceof URLSearchParams)) throw new Error("an order post names its photo sent ahead");
          const { status, text } = await poster.post("/checkout.data", form);
          const placed = status === 200 && !text.includes("fieldErrors") && text.includes("token");
          if (!placed) refusals.set(status, (refusals.get(status) ?? 0) + 1);
          if (!placed) firstRefusal ??= `${status}: ${text.replace(/\s+/g, " ").slice(0, 160)}`;
          return placed;
        } catch (error) {
          if (attempt > 0) throw error;
        }
      }
    }
    /** The order post alone (the target); a pool that ran dry uploads in the timed run. */
    async function placeOrder(): Promise<boolean> {
      return postOrder(tokens.pop() ?? (await uploadPhoto()));
    }
    /** The whole checkout as the shopper's page makes it: the photo, then the post. */
    async function wholeCheckout(): Promise<boolean> {
      return postOrder(await uploadPhoto());
    }
    async function bareInsert(): Promise<boolean> {
      await store.bareInsert([randomBytes(16).toString("base64url"), randomUUID(), defaultDate, slot]);
      return true;
    }

    // Sanity: one order goes through before measuring.
    if (!(await placeOrder()))
      throw new Error(`A checkout post was refused (${firstRefusal}): the order bench cannot run`);

    say(`… orders over HTTP vs bare INSERT (${store.engine})`);
    await forSeconds(1, CONCURRENCY, wholeCheckout);
    await fillTokens(400);
    const warm = await forSeconds(1, CONCURRENCY, placeOrder);
    await forSeconds(1, CONCURRENCY, bareInsert);
    // Enough photos for a run twice as fast as the fastest so far, so the pool does not run dry.
    let fastest = Math.max(warm.rate, 50);
    const timedPosts = async () => {
      await fillTokens(Math.ceil(fastest * options.seconds * 2));
      const run = await forSeconds(options.seconds, CONCURRENCY, placeOrder);
      fastest = Math.max(fastest, run.rate);
      return run;
    };
    const timedInserts = () => forSeconds(options.seconds, CONCURRENCY, bareInsert);
    const timedCheckouts = () => forSeconds(options.seconds, CONCURRENCY, wholeCheckout);
    const ratios: number[] = [];
    const wholeRatios: number[] = [];
    const http: number[] = [];
    const whole: number[] = [];
    const bare: number[] = [];
    let refused = 0;
    let ranDry = 0;
    for (let round = 0; round < options.rounds; round++) {
      // Interleaved: posts, INSERTs, whole checkouts; then the other way round.
      const order = round % 2 === 0 ? ["post", "insert", "whole"] : ["whole", "insert", "post"];
      const results: Record<string, Awaited<ReturnType<typeof forSeconds>>> = {};
      for (const kind of order) {
        if (kind === "post") {
          results.post = await timedPosts();
          if (tokens.length === 0) ranDry++;
        } else if (kind === "insert") results.insert = await timedInserts();
        else results.whole = await timedCheckouts();
      }
      const { post: h, insert: i, whole: w } = results as Record<"post" | "insert" | "whole", typeof warm>;
      http.push(h.rate);
      whole.push(w.rate);
      bare.push(i.rate);
      refused += h.failed + w.failed;
      ratios.push(h.rate / i.rate);
      wholeRatios.push(w.rate / i.rate);
    }

    say("… 200 concurrent checkouts for a size with 25 units");
    const helper = plenty[0] as SizeRow;
    const scarceLine = { productId: scarce.product_id, sizeId: scarce.id, quantity: 1 };
    const scarceUnit = scarce.sale_price_cents ?? scarce.price_cents;
    let scarceOk = 0;
    let connectionErrors = 0;
    await Promise.all(
      Array.from({ length: 200 }, async () => {
        try {
          const response = await fetch(`${serverUrl}/checkout.data`, {
            method: "POST",
            body: orderForm([scarceLine, lineFor(helper, MIN_ORDER_CENTS - scarceUnit)]),
          });
          const text = await response.text();
          if (response.status === 200 && !text.includes("fieldErrors") && text.includes("token")) scarceOk++;
        } catch {
          // Counted and reported: the stock check below still holds for whatever was placed.
          connectionErrors++;
        }
      }),
    );

    // Stock: every size lost exactly the units its order items hold, and never went below zero.
    poster.close();
    await server.stop();
    await store.afterServer();
    const final = await store.query<StockRow>(FINAL_SQL);
    let oversold = 0;
    let mismatched = 0;
    for (const row of final) {
      const start = initial.get(row.id) ?? 0;
      const sold = Number(row.sold);
      oversold += Math.max(0, sold - start);
      if (row.inventory_count < 0) oversold += -row.inventory_count;
      if (start - sold !== row.inventory_count) mismatched++;
    }
    const scarceSold = Number(final.find((row) => row.id === scarce.id)?.sold ?? 0);
    const ratio = median(ratios);
    return [
      {
        figure: `Orders/s over HTTP ÷ bare INSERT of one order row, ${store.engine}`,
        target: "≥ 0.10",
        value: fmt(ratio, 3),
        pass: ratio >= 0.1,
        context: `order post (ID photo sent ahead) ${fmt(median(http), 1)} orders/s vs INSERT ${fmt(median(bare), 0)} rows/s at ${CONCURRENCY} concurrent, rounds ${ratios.map((x) => fmt(x, 3)).join("/")}; ${refused} refused during the rounds${refused > 0 ? ` (by status ${[...refusals].map(([code, count]) => `${code}: ${count}`).join(", ")}; first: ${firstRefusal})` : ""}${ranDry ? `; photo pool ran dry in ${ranDry} round(s)` : ""}`,
      },
      {
        figure: `Whole checkouts/s over HTTP (ID photo upload + order post) ÷ bare INSERT, ${store.engine}`,
        target: "(context)",
        value: fmt(median(wholeRatios), 3),
        pass: null,
        context: `${fmt(median(whole), 1)} checkouts/s, rounds ${wholeRatios.map((x) => fmt(x, 3)).join("/")}`,
      },
      {
        figure: `Oversold units on ${store.engine} (all sizes, after the order rounds and 200 checkouts racing for 25 units)`,
        target: "0",
        value: String(oversold),
        pass: oversold === 0 && mismatched === 0,
        context: `scarce size: ${scarceOk} of 200 checkouts placed (${connectionErrors} connection errors), ${scarceSold} of 25 units sold; sizes whose stock ≠ start − sold: ${mismatched}`,
      },
    ];
  } finally {
    await server?.stop();
    await store.close();
  }
}
