import { productImageSrc, productImageSrcSet } from "#app/features/media/image-urls.ts";
import { cn } from "#app/utils/cn.ts";

export type ImageSource = { imageUrl: string; name: string };

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
  fallbackWidth = 480,
}: {
  product: ImageSource;
  sizes: string;
  priority?: boolean;
  className?: string;
  width?: number;
  height?: number;
  /** The variant used as `src` by browsers without srcset support. */
  fallbackWidth?: number;
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
  const srcSet = productImageSrcSet(product.imageUrl);
  return (
    <img
      src={productImageSrc(product.imageUrl, fallbackWidth)}
      srcSet={srcSet}
      sizes={srcSet ? sizes : undefined}
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
