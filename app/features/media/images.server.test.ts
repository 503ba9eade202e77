import { crc32 } from "node:zlib";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { expect, it } from "vitest";
import { mediaFiles } from "#app/db/schema.ts";
import { productArtworkSvg } from "#app/demo/artwork.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { PRODUCT_IMAGE_WIDTHS } from "./image-urls.ts";
import { getMediaFile, InvalidImageError, storeProductArtwork, storeProductImage } from "./images.server.ts";

function png(width: number, height: number, color = "#2f7a52") {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
}

/** A tiny PNG whose header claims `width` × `height` pixels (a decompression bomb's shape). */
function pngHeaderOnly(width: number, height: number) {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

describeEachDatabase("product image pipeline", (database) => {
  it("stores a square WebP at every width, content-addressed", async () => {
    const { db } = database();
    const started = performance.now();
    const stored = await storeProductImage(db, await png(1200, 800));
    const ms = Math.round(performance.now() - started);
    process.stdout.write(`storeProductImage of a 1200×800 PNG took ${ms} ms\n`);
    expect(stored.imageKey).toMatch(/^[0-9a-f]{16}$/);
    expect(stored.imageUrl).toBe(`/media/${stored.imageKey}-640.webp`);

    const rows = await db.select().from(mediaFiles).where(eq(mediaFiles.imageKey, stored.imageKey));
    expect(rows.map((row) => row.width).sort((a, b) => a - b)).toEqual([...PRODUCT_IMAGE_WIDTHS]);
    for (const row of rows) {
      expect(row.path).toBe(`${stored.imageKey}-${row.width}.webp`);
      expect(row.contentType).toBe("image/webp");
      const metadata = await sharp(row.bytes).metadata();
      expect(metadata.format).toBe("webp");
      expect([metadata.width, metadata.height]).toEqual([row.width, row.width]);
    }

    // The same picture again stores nothing new.
    expect(await storeProductImage(db, await png(1200, 800))).toEqual(stored);
    const again = await db.select().from(mediaFiles).where(eq(mediaFiles.imageKey, stored.imageKey));
    expect(again).toHaveLength(PRODUCT_IMAGE_WIDTHS.length);
  });

  it("still makes every width from a small source, and drops the metadata", async () => {
    const { db } = database();
    const small = await sharp({ create: { width: 200, height: 300, channels: 3, background: "#c98d45" } })
      .jpeg()
      .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: "Secret GPS Inc." } } })
      .toBuffer();
    const stored = await storeProductImage(db, small);
    const largest = await getMediaFile(db, `${stored.imageKey}-960.webp`);
    expect(largest?.contentType).toBe("image/webp");
    const metadata = await sharp(largest?.bytes).metadata();
    expect([metadata.width, metadata.height]).toEqual([960, 960]);
    expect(metadata.exif).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
  });

  it("refuses what is not an image, an SVG upload and a pixel bomb", async () => {
    const { db } = database();
    const before = await db.$count(mediaFiles);
    await expect(storeProductImage(db, Buffer.from("%PDF-1.7 not an image"))).rejects.toBeInstanceOf(
      InvalidImageError,
    );
    await expect(storeProductImage(db, new Uint8Array())).rejects.toBeInstanceOf(InvalidImageError);
    const svg = productArtworkSvg({ name: "Blue Dream", category: "Flower", strain: "Hybrid" });
    await expect(storeProductImage(db, Buffer.from(svg))).rejects.toBeInstanceOf(InvalidImageError);
    await expect(storeProductImage(db, pngHeaderOnly(20_000, 20_000))).rejects.toThrow(/too large/);
    const truncated = (await png(400, 400)).subarray(0, 120);
    await expect(storeProductImage(db, truncated)).rejects.toBeInstanceOf(InvalidImageError);
    expect(await db.$count(mediaFiles)).toBe(before);
  });

  it("stores drawn artwork and serves files back by name", async () => {
    const { db } = database();
    const svg = productArtworkSvg({ name: "Gelato #41", category: "Flower", strain: "Hybrid" });
    const stored = await storeProductArtwork(db, svg);
    const file = await getMediaFile(db, `${stored.imageKey}-320.webp`);
    expect(file?.bytes.byteLength).toBeGreaterThan(1000);
    expect(await getMediaFile(db, "0000000000000000-320.webp")).toBeUndefined();
  });
});
