/**
 * Refused checkouts cost no photo work. 120 checkout posts from one address, each with a
 * 24-megapixel photo in the form (as without JavaScript) and a sold-out size in the cart: the
 * server's CPU for all of them (posted as a page without JavaScript does, and again to
 * /checkout.data), against what their photos alone would cost to decode (the same
 * photo sent to /api/id-photo, decoded and stored, a sample of 12 scaled to 120) in the same run.
 * Then, with ID_UPLOADS_PER_HOUR at its default of 20, the 21st photo decode from one address in an
 * hour must be a 429: twenty posts whose photo cannot be read (decoded, refused), then one more.
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import sharp from "sharp";
import { openDatabase } from "#app/db/client.server.ts";
import { MIN_ORDER_CENTS } from "#app/features/cart/cart.ts";
import { availableSlots, deliveryOptions } from "#app/features/delivery/delivery-slots.ts";
import { orderFields } from "#tests/support/checkout-test-helpers.server.ts";
import { orderableAtMinimum } from "#tests/support/shop-orders.ts";
import { cpuSeconds, type DataSet, say, startServer } from "./lib.ts";

type Row = { figure: string; target: string; value: string; pass: boolean | null; context: string };
type SizeRow = {
  id: string;
  product_id: string;
  price_cents: number;
  sale_price_cents: number | null;
  flower_equivalent_mg: number | null;
};

const POSTS = 120;
const REFERENCE_DECODES = 12;
const CONCURRENCY = 2;

/** Runs SQL on the data set's database while no server holds it. */
async function withDatabase<T>(
  data: DataSet,
  work: (query: (text: string) => Promise<unknown[]>) => Promise<T>,
) {
  const url = data.env.DATABASE_URL;
  if (url) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await work(async (text) => (await client.query(text)).rows);
    } finally {
      await client.end();
    }
  }
  const handle = await openDatabase({
    kind: "pglite",
    dataDir: data.env.DATA_DIR as string,
    lockOwner: "the checkout refusal bench",
  });
  try {
    return await work(
      async (text) => ((await handle.db.execute(sql.raw(text))) as unknown as { rows: unknown[] }).rows,
    );
  } finally {
    await handle.close();
  }
}

/** A 6000 × 4000 JPEG with some texture, about 6 MB: a phone camera's photo. */
async function photo24Megapixels() {
  const noise = await sharp({
    create: {
      width: 1500,
      height: 1000,
      channels: 3,
      background: "#808080",
      noise: { type: "gaussian", mean: 128, sigma: 40 },
    },
  })
    .png()
    .toBuffer();
  return new Uint8Array(
    await sharp(noise).resize(6000, 4000, { kernel: "cubic" }).jpeg({ quality: 80 }).toBuffer(),
  );
}

function fmt(value: number, digits = 2) {
  return Number.isFinite(value) ? value.toFixed(digits) : "n/a";
}

async function inLanes<T>(count: number, lanes: number, work: (index: number) => Promise<T>) {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await work(index);
      }
    }),
  );
  return results;
}

export async function benchCheckoutRefusals(data: DataSet): Promise<Row[]> {
  const { soldOut, inStock } = await withDatabase(data, async (query) => {
    const sizes = (await query(
      "SELECT s.id, s.product_id, s.price_cents, s.sale_price_cents, s.flower_equivalent_mg FROM product_sizes s JOIN products p ON p.id = s.product_id WHERE p.archived_at IS NULL ORDER BY s.id",
    )) as SizeRow[];
    const orderable = sizes.filter((size) =>
      orderableAtMinimum(size.sale_price_cents ?? size.price_cents, size.flower_equivalent_mg),
    );
    const [first, second] = orderable;
    if (!first || !second) throw new Error("no sizes to order");
    await query(`UPDATE product_sizes SET inventory_count = 0 WHERE id = '${first.id}'`);
    await query(`UPDATE product_sizes SET inventory_count = 1000000 WHERE id = '${second.id}'`);
    return { soldOut: first, inStock: second };
  });
  const line = (size: SizeRow) => {
    const unit = size.sale_price_cents ?? size.price_cents;
    return {
      productId: size.product_id,
      sizeId: size.id,
      quantity: Math.max(1, Math.ceil(MIN_ORDER_CENTS / unit)),
    };
  };
  const photo = await photo24Megapixels();
  const unreadable = new Uint8Array(
    Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(4096)]),
  );
  const now = new Date();
  const { defaultDate } = deliveryOptions(now);
  const slot = availableSlots(defaultDate, now)[0] ?? "";
  const post = async (serverUrl: string, size: SizeRow, bytes: Uint8Array, pathname = "/checkout") => {
    const form = new FormData();
    for (const [key, value] of Object.entries(
      orderFields([line(size)], { deliveryDate: defaultDate, timeSlot: slot }, now),
    )) {
      form.append(key, value);
    }
    form.append("idFront", new File([bytes as BlobPart], "id.jpg", { type: "image/jpeg" }));
    const response = await fetch(`${serverUrl}${pathname}`, {
      method: "POST",
      body: form,
      redirect: "manual",
    });
    await response.arrayBuffer();
    return response.status;
  };
  const statusesOf = (statuses: number[]) => {
    const counts = new Map<number, number>();
    for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
    return [...counts].map(([status, count]) => `${status}: ${count}`).join(", ");
  };

  const rows: Row[] = [];
  say(
    `… ${POSTS} refused checkout posts, each with a 24-megapixel photo (${photo.byteLength} bytes) and a sold-out size`,
  );
  let server = await startServer(data);
  try {
    // Warm-up: one refused post and one decode.
    await post(server.url, soldOut, photo);
    const before = cpuSeconds(server.pid);
    const statuses = await inLanes(POSTS, CONCURRENCY, () => post(server.url, soldOut, photo));
    const refusedCpu = cpuSeconds(server.pid) - before;
    const dataBefore = cpuSeconds(server.pid);
    const dataStatuses = await inLanes(POSTS, CONCURRENCY, () =>
      post(server.url, soldOut, photo, "/checkout.data"),
    );
    const dataCpu = cpuSeconds(server.pid) - dataBefore;

    const referenceBefore = cpuSeconds(server.pid);
    const uploads = await inLanes(REFERENCE_DECODES, CONCURRENCY, async () => {
      const form = new FormData();
      form.append("idFront", new File([photo as BlobPart], "id.jpg", { type: "image/jpeg" }));
      const response = await fetch(`${server.url}/api/id-photo`, { method: "POST", body: form });
      await response.arrayBuffer();
      return response.status;
    });
    const decodeCpu = ((cpuSeconds(server.pid) - referenceBefore) / REFERENCE_DECODES) * POSTS;
    const ratio = refusedCpu / decodeCpu;
    rows.push({
      figure: `CPU of ${POSTS} checkout posts with a 24-megapixel photo and a sold-out size ÷ CPU of decoding their ${POSTS} photos`,
      target: "< 0.10",
      value: fmt(ratio, 3),
      pass: ratio < 0.1 && statuses.every((status) => status === 409),
      context: `${fmt(refusedCpu)} CPU-s for the posts to /checkout (${statusesOf(statuses)}; to /checkout.data ${fmt(dataCpu)} CPU-s, ${statusesOf(dataStatuses)}) vs ${fmt(decodeCpu)} CPU-s for ${POSTS} decodes (${REFERENCE_DECODES} uploads to /api/id-photo × ${POSTS / REFERENCE_DECODES}: ${statusesOf(uploads)})`,
    });
  } finally {
    await server.stop();
  }

  say("… the 21st ID photo decode in an hour from one address (ID_UPLOADS_PER_HOUR=20)");
  server = await startServer(data, { ID_UPLOADS_PER_HOUR: "20" });
  try {
    const first20 = [];
    for (let index = 0; index < 20; index++) first20.push(await post(server.url, inStock, unreadable));
    const twentyFirst = await post(server.url, inStock, photo);
    rows.push({
      figure: "Checkout post with the 21st ID photo decode in an hour from one address",
      target: "429",
      value: String(twentyFirst),
      pass: twentyFirst === 429 && first20.every((status) => status === 400),
      context: `the 20 before it, each with a photo that could not be read: ${statusesOf(first20)}`,
    });
  } finally {
    await server.stop();
  }
  return rows;
}
