/**
 * URLs of product images. Pure and browser-safe: the product card, the admin and the media route
 * all agree on the file names the image pipeline (images.server.ts) writes.
 */

/** Every uploaded product image is stored as square WebP files at these widths. */
export const PRODUCT_IMAGE_WIDTHS = [160, 320, 480, 640, 960] as const;
export type ProductImageWidth = (typeof PRODUCT_IMAGE_WIDTHS)[number];

/** The width a product's `image_url` points at. */
export const DEFAULT_PRODUCT_IMAGE_WIDTH: ProductImageWidth = 640;

const IMAGE_KEY = /^[0-9a-f]{16}$/;
const MEDIA_FILE_NAME = /^([0-9a-f]{16})-(160|320|480|640|960)\.webp$/;
const MEDIA_URL = /^\/media\/([0-9a-f]{16})-(160|320|480|640|960)\.webp$/;

export function isImageKey(value: string) {
  return IMAGE_KEY.test(value);
}

/** `<image key>-<width>.webp`: the name of one stored variant. */
export function mediaFileName(imageKey: string, width: ProductImageWidth) {
  return `${imageKey}-${width}.webp`;
}

export function mediaUrl(imageKey: string, width: ProductImageWidth = DEFAULT_PRODUCT_IMAGE_WIDTH) {
  return `/media/${mediaFileName(imageKey, width)}`;
}

/** The image key and width of a well-formed media file name, or undefined for anything else. */
export function parseMediaFileName(name: string): { imageKey: string; width: ProductImageWidth } | undefined {
  const match = MEDIA_FILE_NAME.exec(name);
  if (!match) return undefined;
  return { imageKey: match[1] as string, width: Number(match[2]) as ProductImageWidth };
}

/** The image key of an uploaded image's URL; undefined for a pasted external URL. */
export function mediaImageKey(imageUrl: string | null | undefined) {
  if (!imageUrl) return undefined;
  return MEDIA_URL.exec(imageUrl)?.[1];
}

/**
 * The URL to show at (at least) `width` CSS pixels: for an uploaded image, the smallest stored
 * variant that is wide enough (or the widest); a pasted external URL is returned unchanged.
 */
export function productImageSrc(imageUrl: string, width: number = DEFAULT_PRODUCT_IMAGE_WIDTH) {
  const imageKey = mediaImageKey(imageUrl);
  if (!imageKey) return imageUrl;
  const chosen =
    PRODUCT_IMAGE_WIDTHS.find((candidate) => candidate >= width) ??
    PRODUCT_IMAGE_WIDTHS[PRODUCT_IMAGE_WIDTHS.length - 1];
  return mediaUrl(imageKey, chosen);
}

/** A `srcset` over every stored width for an uploaded image; undefined for a pasted external URL. */
export function productImageSrcSet(imageUrl: string | null | undefined) {
  const imageKey = mediaImageKey(imageUrl);
  if (!imageKey) return undefined;
  return PRODUCT_IMAGE_WIDTHS.map((width) => `${mediaUrl(imageKey, width)} ${width}w`).join(", ");
}
