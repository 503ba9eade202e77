import { cn } from "#app/utils/cn.ts";

export type ImageSource = { imageUrl: string; imageKey?: string | null; name: string };

/** Widths of the WebP variants the layout asks for (cards ~180–320 px, detail up to 640 px, 2x screens). */
export const PRODUCT_IMAGE_WIDTHS = [320, 640, 960] as const;

/** srcset of an uploaded image's WebP variants (`/media/<key>-<width>.webp`); none for pasted URLs. */
export function productImageSrcSet(imageKey: string | null | undefined) {
  if (!imageKey) return undefined;
  return PRODUCT_IMAGE_WIDTHS.map((width) => `/media/${imageKey}-${width}.webp ${width}w`).join(", ");
}

/**
 * A product photo with width and height set (no layout shift), a srcset for uploaded images and lazy
 * loading unless it is above the fold (`priority`).
 */
export function ProductImage({
  product,
  sizes,
  priority = false,
  className,
  width = 640,
  height = 640,
}: {
  product: ImageSource;
  sizes: string;
  priority?: boolean;
  className?: string;
  width?: number;
  height?: number;
}) {
  if (!product.imageUrl) {
    return (
      <div
        role="img"
        aria-label={product.name}
        className={cn(
          "flex aspect-square items-center justify-center bg-muted text-muted-foreground",
          className,
        )}
      >
        <span className="font-display text-3xl text-paper-400" aria-hidden>
          {product.name.slice(0, 1)}
        </span>
      </div>
    );
  }
  return (
    <img
      src={product.imageUrl}
      srcSet={productImageSrcSet(product.imageKey)}
      sizes={product.imageKey ? sizes : undefined}
      alt={product.name}
      width={width}
      height={height}
      loading={priority ? "eager" : "lazy"}
      fetchPriority={priority ? "high" : undefined}
      decoding="async"
      className={cn("aspect-square w-full bg-muted object-cover", className)}
    />
  );
}
