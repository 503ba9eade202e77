import { describe, expect, it } from "vitest";
import {
  mediaImageKey,
  mediaUrl,
  PRODUCT_IMAGE_WIDTHS,
  parseMediaFileName,
  productImageSrc,
  productImageSrcSet,
} from "./image-urls.ts";

const key = "0123456789abcdef";
const url = `/media/${key}-640.webp`;

describe("product image URLs", () => {
  it("builds a srcset over every stored width for an uploaded image", () => {
    expect(PRODUCT_IMAGE_WIDTHS).toEqual([160, 320, 480, 640, 960]);
    expect(productImageSrcSet(url)).toBe(
      `/media/${key}-160.webp 160w, /media/${key}-320.webp 320w, /media/${key}-480.webp 480w, /media/${key}-640.webp 640w, /media/${key}-960.webp 960w`,
    );
    expect(productImageSrcSet(`/media/${key}-160.webp`)).toBe(productImageSrcSet(url));
  });

  it("leaves pasted external URLs alone", () => {
    const external = "https://example.com/media/0123456789abcdef-640.webp";
    expect(productImageSrcSet(external)).toBeUndefined();
    expect(productImageSrcSet("")).toBeUndefined();
    expect(productImageSrcSet(null)).toBeUndefined();
    expect(productImageSrc(external, 320)).toBe(external);
    expect(mediaImageKey(external)).toBeUndefined();
  });

  it("picks the smallest variant that is wide enough", () => {
    expect(productImageSrc(url, 100)).toBe(`/media/${key}-160.webp`);
    expect(productImageSrc(url, 320)).toBe(`/media/${key}-320.webp`);
    expect(productImageSrc(url, 500)).toBe(`/media/${key}-640.webp`);
    expect(productImageSrc(url, 2000)).toBe(`/media/${key}-960.webp`);
    expect(productImageSrc(url)).toBe(url);
    expect(mediaUrl(key)).toBe(url);
  });

  it("parses only well-formed media file names", () => {
    expect(parseMediaFileName(`${key}-480.webp`)).toEqual({ imageKey: key, width: 480 });
    for (const bad of [
      `${key}-500.webp`,
      `${key}-480.png`,
      `${key.toUpperCase()}-480.webp`,
      `../${key}-480.webp`,
      `${key}0-480.webp`,
      `${key}-480.webp?x=1`,
      "",
    ]) {
      expect(parseMediaFileName(bad)).toBeUndefined();
    }
  });
});
