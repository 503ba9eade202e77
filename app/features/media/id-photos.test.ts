import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { orders } from "#app/db/schema.ts";
import { uploadIdPhoto } from "#app/features/checkout/id-photo-upload.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { postCheckout, submitAsShopper } from "#tests/support/checkout-posts.server.ts";
import {
  insertTestProduct,
  oneOf,
  orderFields,
  placedOrderRow,
  testPng,
} from "#tests/support/checkout-test-helpers.server.ts";
import { MAX_UPLOAD_BYTES } from "./id-image.ts";
import {
  getIdPhoto,
  ID_PHOTO_BUSY_MESSAGE,
  ID_PHOTO_DECODES,
  ID_PHOTO_QUEUE,
  processIdPhoto,
  sniffImageType,
} from "./id-photos.server.ts";
import { UploadRefused } from "./upload-refused.ts";

/** Takes both decode slots and fills the waiting line; `release` lets them all finish. */
async function saturateDecodeQueue() {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const { concurrency, maxWaiting } = ID_PHOTO_QUEUE;
  const held = Array.from({ length: concurrency + maxWaiting }, () => ID_PHOTO_DECODES.run(() => gate));
  await new Promise((resolve) => setImmediate(resolve));
  expect(ID_PHOTO_DECODES.stats).toEqual({ running: concurrency, waiting: maxWaiting });
  return async () => {
    release();
    await Promise.all(held);
  };
}

describe("ID photo content checks", () => {
  it("knows images by their first bytes, not by name", async () => {
    expect(sniffImageType(await testPng())).toBe("png");
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#fff" } })
      .jpeg()
      .toBuffer();
    expect(sniffImageType(jpeg)).toBe("jpeg");
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#fff" } })
      .gif()
      .toBuffer();
    expect(sniffImageType(gif)).toBe("gif");
    expect(sniffImageType(new TextEncoder().encode("%PDF-1.7 not an image"))).toBeNull();
  });

  it("re-encodes to JPEG and strips EXIF and GPS data", async () => {
    const withGps = await sharp({ create: { width: 120, height: 80, channels: 3, background: "#336699" } })
      .withExif({
        IFD0: { Copyright: "Secret Owner", Artist: "Ada" },
        IFD3: { GPSLatitudeRef: "N", GPSLatitude: "38/1 53/1 0/1" },
      })
      .jpeg()
      .toBuffer();
    expect((await sharp(withGps).metadata()).exif).toBeDefined();
    const processed = await processIdPhoto(new Uint8Array(withGps));
    expect(processed.contentType).toBe("image/jpeg");
    const metadata = await sharp(processed.bytes).metadata();
    expect(metadata.format).toBe("jpeg");
    expect(metadata.exif).toBeUndefined();
    expect(Buffer.from(processed.bytes).includes("Secret Owner")).toBe(false);
  });

  it("refuses a 49-megapixel PNG of a few KB (a pixel bomb) as unreadable (answered 400)", async () => {
    const bomb = await sharp({ create: { width: 7000, height: 7000, channels: 3, background: "#fff" } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(300 * 1024);
    await expect(processIdPhoto(new Uint8Array(bomb))).rejects.toMatchObject({
      problem: "invalid",
      message: "This file is not a readable image. Please upload a PNG, JPG or GIF photo of your ID.",
    });
  });

  it("stores a 12-megapixel photo at most 1600 px on its long side", async () => {
    const photo = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: "#8a6d3b" } })
      .jpeg()
      .toBuffer();
    const processed = await processIdPhoto(new Uint8Array(photo));
    expect([processed.width, processed.height]).toEqual([1600, 1200]);
  });

  it("answers 503 with Retry-After when too many photos wait to be decoded, and works again after", async () => {
    const release = await saturateDecodeQueue();
    try {
      const refused = await processIdPhoto(await testPng()).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(UploadRefused);
      expect(refused).toMatchObject({
        problem: "busy",
        message: ID_PHOTO_BUSY_MESSAGE,
        retryAfterSeconds: 10,
      });

      const form = new FormData();
      form.append("idFront", new File([(await testPng()) as BlobPart], "id.png", { type: "image/png" }));
      const upload = await uploadIdPhoto(
        new Request("http://localhost/api/id-photo", { method: "POST", body: form }),
      );
      expect(upload).toEqual({
        ok: false,
        problem: "busy",
        message: ID_PHOTO_BUSY_MESSAGE,
        retryAfterSeconds: 10,
      });
    } finally {
      await release();
    }
    expect((await processIdPhoto(await testPng())).contentType).toBe("image/jpeg");
  });

  it("refuses a file that only looks like an image", async () => {
    const fake = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...randomBytes(2000)]);
    await expect(processIdPhoto(fake)).rejects.toBeInstanceOf(UploadRefused);
    await expect(processIdPhoto(new TextEncoder().encode("hello"))).rejects.toMatchObject({
      problem: "invalid",
    });
  });
});

/** A multipart body produced lazily; counts what the server actually pulled. */
function streamingCheckout(fields: Record<string, string>, fileBytes: number, declaredLength?: number) {
  const boundary = "----cg-test-boundary";
  const encoder = new TextEncoder();
  const head =
    Object.entries(fields)
      .map(
        ([key, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`,
      )
      .join("") +
    `--${boundary}\r\nContent-Disposition: form-data; name="idFront"; filename="huge.png"\r\nContent-Type: image/png\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const chunk = new Uint8Array(64 * 1024).fill(0x41);
  let sent = 0;
  let pulled = 0;
  let phase: "head" | "body" | "tail" | "done" = "head";
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (phase === "head") {
          const bytes = encoder.encode(head);
          pulled += bytes.length;
          controller.enqueue(bytes);
          phase = "body";
        } else if (phase === "body") {
          const size = Math.min(chunk.length, fileBytes - sent);
          sent += size;
          pulled += size;
          controller.enqueue(chunk.subarray(0, size));
          if (sent >= fileBytes) phase = "tail";
        } else if (phase === "tail") {
          controller.enqueue(encoder.encode(tail));
          phase = "done";
        } else {
          controller.close();
        }
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request("http://localhost/checkout", {
    method: "POST",
    body,
    headers: {
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
      ...(declaredLength ? { "Content-Length": String(declaredLength) } : {}),
    },
    duplex: "half",
  } as RequestInit);
  return { request, pulled: () => pulled };
}

describeEachDatabase("ID photo uploads at checkout", (database) => {
  const orderCount = async () => (await database().db.select({ id: orders.id }).from(orders)).length;

  it("refuses a non-image renamed .png with a clear message and no order", async () => {
    const product = await insertTestProduct(database().db, { priceCents: 9000 });
    const before = await orderCount();
    const result = await postCheckout(
      oneOf(product),
      {},
      {
        file: {
          bytes: new TextEncoder().encode("#!/bin/sh\necho definitely not a picture\n"),
          name: "id.png",
          type: "image/png",
        },
      },
    );
    expect(result).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { idFront: "Please select an image file (PNG, JPG, GIF up to 10MB)" },
    });
    expect(await orderCount()).toBe(before);
  });

  it("answers a checkout 503 with Retry-After and no order while the photo queue is full", async () => {
    const product = await insertTestProduct(database().db, { priceCents: 9000 });
    const before = await orderCount();
    const release = await saturateDecodeQueue();
    try {
      const result = await postCheckout(
        oneOf(product),
        { _client: "js" },
        { file: { bytes: await testPng(), name: "id.png", type: "image/png" } },
      );
      expect(result).toMatchObject({
        ok: false,
        status: 503,
        retryAfterSeconds: 10,
        fieldErrors: {},
        toast: { title: "Please try again", description: ID_PHOTO_BUSY_MESSAGE },
      });
    } finally {
      await release();
    }
    expect(await orderCount()).toBe(before);
  });

  it("refuses an 11 MB image with 413 and a clear message", async () => {
    const product = await insertTestProduct(database().db, { priceCents: 9000 });
    const width = 2100;
    const height = 1900;
    const noise = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(noise.byteLength).toBeGreaterThan(11 * 1024 * 1024);
    const result = await postCheckout(
      oneOf(product),
      {},
      {
        file: { bytes: new Uint8Array(noise), name: "id.png", type: "image/png" },
      },
    );
    expect(result).toMatchObject({
      ok: false,
      status: 413,
      fieldErrors: { idFront: "File too large: please select an image smaller than 10MB." },
      toast: { title: "File too large" },
    });
  });

  it("cuts a 50 MB stream off soon after 10 MB instead of reading it all", async () => {
    const product = await insertTestProduct(database().db, { priceCents: 9000 });
    const fields = orderFields(oneOf(product));
    const upload = streamingCheckout(fields, 50 * 1024 * 1024);
    const result = await submitAsShopper(upload.request);
    expect(result).toMatchObject({ ok: false, status: 413 });
    expect(upload.pulled()).toBeGreaterThan(MAX_UPLOAD_BYTES);
    expect(upload.pulled()).toBeLessThan(MAX_UPLOAD_BYTES + 1024 * 1024);
  });

  it("refuses a declared 50 MB body before reading any of it", async () => {
    const upload = streamingCheckout({ name: "x" }, 50 * 1024 * 1024, 50 * 1024 * 1024);
    expect(upload.request.headers.get("Content-Length")).toBe(String(50 * 1024 * 1024));
    const result = await submitAsShopper(upload.request);
    expect(result).toMatchObject({ ok: false, status: 413 });
    expect(upload.pulled()).toBe(0);
  });

  it("stores the re-encoded photo privately and hands it to the admin side by id", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000 });
    const result = await postCheckout(
      oneOf(product),
      {},
      {
        file: { bytes: await testPng(), name: "my id.png", type: "image/png" },
      },
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const order = await placedOrderRow(result.token);
    expect(order.idPhotoId).toBeTruthy();
    const photo = await getIdPhoto(order.idPhotoId as string);
    expect(photo?.contentType).toBe("image/jpeg");
    expect(sniffImageType(photo?.bytes ?? new Uint8Array())).toBe("jpeg");
    expect(await getIdPhoto(crypto.randomUUID())).toBeNull();
    expect(await getIdPhoto("../../etc/passwd")).toBeNull();
  });
});
