/**
 * The product image pipeline: decode any common raster image with sharp, auto-rotate, strip
 * metadata, crop to a square and store WebP variants at every PRODUCT_IMAGE_WIDTHS width in
 * `media_files`. Files are content-addressed (`<key>-<width>.webp`), so their URLs never change
 * meaning and can be cached for a year.
 */
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Metadata, OutputInfo } from "sharp";
import type { Executor } from "#app/db/client.server.ts";
import { mediaFiles } from "#app/db/schema.ts";
import { mediaFileName, mediaUrl, PRODUCT_IMAGE_WIDTHS, type ProductImageWidth } from "./image-urls.ts";
import sharp, { lowerImageThreadPriority } from "./sharp.server.ts";

/** Refuse decompression bombs: no product photo needs more than 40 megapixels. */
export const MAX_INPUT_PIXELS = 40_000_000;

const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp", "gif", "avif", "heif", "tiff"]);
/** Effort 2 encodes about twice as fast as the default 4 with files of about the same size. */
const WEBP_OPTIONS = { quality: 80, effort: 2 } as const;
const LARGEST_WIDTH = PRODUCT_IMAGE_WIDTHS[PRODUCT_IMAGE_WIDTHS.length - 1] as number;
const KEY_WIDTH: ProductImageWidth = 640;

/** The upload is not an image we can decode (or is far too large): a message for the person. */
export class InvalidImageError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InvalidImageError";
  }
}

export type StoredImage = { imageKey: string; imageUrl: string };

type Variant = { width: ProductImageWidth; bytes: Buffer };

async function probe(input: Uint8Array, allowSvg: boolean) {
  let metadata: Metadata;
  try {
    // Only the header is read here; the pixel limit is checked below with a clearer message.
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw new InvalidImageError(
      "This file is not an image we can read. Please use a JPEG, PNG, WebP or GIF.",
      {
        cause: error,
      },
    );
  }
  const accepted = ACCEPTED_FORMATS.has(metadata.format ?? "") || (allowSvg && metadata.format === "svg");
  if (!accepted) {
    throw new InvalidImageError(
      `Images of type ${metadata.format ?? "unknown"} are not supported. Please use a JPEG, PNG, WebP or GIF.`,
    );
  }
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  if (width < 1 || height < 1) throw new InvalidImageError("This image has no pixels.");
  if (width * height > MAX_INPUT_PIXELS) {
    throw new InvalidImageError(
      `This image is too large (${width} × ${height} pixels). Please use one under ${MAX_INPUT_PIXELS / 1_000_000} megapixels.`,
    );
  }
}

/**
 * Square WebP variants at every width. The source is decoded once (auto-rotated, centre-cropped,
 * capped at the largest width, metadata dropped); a source smaller than a width is scaled up so
 * every URL exists.
 */
export async function renderImageVariants(
  input: Uint8Array,
  options: { allowSvg?: boolean; opaque?: boolean } = {},
): Promise<Variant[]> {
  await probe(input, options.allowSvg ?? false);
  let square: { data: Buffer; info: OutputInfo };
  try {
    const source = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).rotate();
    // Encoding an alpha channel nobody sees costs time and bytes.
    if (options.opaque) source.removeAlpha();
    const { width = 0, height = 0 } = await source.metadata();
    // The shorter side does not change with the EXIF rotation.
    const side = Math.min(width, height, LARGEST_WIDTH);
    square = await source
      .resize({ width: side, height: side, fit: "cover", position: "centre" })
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new InvalidImageError("This image could not be decoded. It may be damaged or incomplete.", {
      cause: error,
    });
  }
  const { data, info } = square;
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const variants = await Promise.all(
    PRODUCT_IMAGE_WIDTHS.map(async (width) => ({
      width,
      bytes: await sharp(data, raw)
        .resize({ width, height: width, kernel: width > info.width ? "mitchell" : "lanczos3" })
        .webp(WEBP_OPTIONS)
        .toBuffer(),
    })),
  );
  lowerImageThreadPriority();
  return variants;
}

async function storeVariants(executor: Executor, variants: Variant[]): Promise<StoredImage> {
  const keyVariant = variants.find((variant) => variant.width === KEY_WIDTH) as Variant;
  const imageKey = createHash("sha256").update(keyVariant.bytes).digest("hex").slice(0, 16);
  await executor
    .insert(mediaFiles)
    .values(
      variants.map((variant) => ({
        path: mediaFileName(imageKey, variant.width),
        imageKey,
        width: variant.width,
        height: variant.width,
        contentType: "image/webp",
        bytes: new Uint8Array(variant.bytes.buffer, variant.bytes.byteOffset, variant.bytes.byteLength),
      })),
    )
    .onConflictDoNothing({ target: mediaFiles.path });
  return { imageKey, imageUrl: mediaUrl(imageKey, KEY_WIDTH) };
}

/**
 * Stores an uploaded product image (JPEG, PNG, WebP, GIF, AVIF, HEIC or TIFF; checked by content,
 * never by name) and returns its key and the URL of its 640 px variant. Storing the same picture
 * twice stores nothing new. Throws InvalidImageError for anything that is not a decodable image.
 */
export async function storeProductImage(
  executor: Executor,
  input: Uint8Array | Buffer,
): Promise<StoredImage> {
  return storeVariants(executor, await renderImageVariants(input));
}

/** Stores artwork drawn as SVG by this app (artwork.server.ts); uploads never take this path. */
export async function storeProductArtwork(executor: Executor, svg: string): Promise<StoredImage> {
  return storeVariants(
    executor,
    await renderImageVariants(Buffer.from(svg), { allowSvg: true, opaque: true }),
  );
}

export type MediaFile = { bytes: Uint8Array; contentType: string };

/** One stored file by its name (`<key>-<width>.webp`), or undefined. */
export async function getMediaFile(executor: Executor, path: string): Promise<MediaFile | undefined> {
  const [row] = await executor
    .select({ bytes: mediaFiles.bytes, contentType: mediaFiles.contentType })
    .from(mediaFiles)
    .where(eq(mediaFiles.path, path))
    .limit(1);
  return row;
}
