import { useState } from "react";
import type { NavigateFunction } from "react-router";
import type { CartActions } from "#app/components/cart-context.tsx";
import { followInApp } from "#app/components/link-clicks.ts";
import { Price } from "#app/components/price.tsx";
import { ProductImage } from "#app/components/product-image.tsx";
import { Badge, strainBadgeVariant } from "#app/components/ui/badge.tsx";
import { NativeSelect } from "#app/components/ui/input.tsx";
import { cartItemOf } from "#app/features/cart/cart.ts";
import type { ProductSizeView } from "#app/features/catalog/catalog.server.ts";
import {
  isOnSale,
  type ListedProductFields,
  onlyLeftText,
  showsThcPercentage,
} from "#app/features/catalog/catalog.ts";
import { formatCents } from "#app/utils/money.ts";
import { toast } from "#app/utils/toast-client.ts";

/** What a product card needs (a ProductView from the loader). */
export type CardProduct = ListedProductFields & {
  sizes: ProductSizeView[];
};

export const CARD_IMAGE_SIZES =
  "(min-width: 1280px) 300px, (min-width: 1024px) 23vw, (min-width: 768px) 31vw, 47vw";

export function thcLine(product: Pick<CardProduct, "category" | "thcPercentage" | "thcMg">) {
  if (showsThcPercentage(product.category)) {
    return product.thcPercentage === null ? null : `THC: ${formatNumber(product.thcPercentage)}%`;
  }
  return product.thcMg === null ? null : `THC: ${formatNumber(product.thcMg)}mg`;
}

function formatNumber(value: number) {
  return Number.isInteger(value) ? String(value) : value.toFixed(1).replace(/\.0$/, "");
}

export function sizeOptionLabel(size: ProductSizeView) {
  if (!size.inStock) return `${size.size} - Sold out`;
  return `${size.size} - ${formatCents(isOnSale(size) ? (size.salePriceCents as number) : size.priceCents)}`;
}

/** The first size that can be bought, else the first size (K-4: defaults to the first size). */
export function defaultSizeId(sizes: ProductSizeView[]) {
  return (sizes.find((size) => size.inStock) ?? sizes[0])?.id ?? "";
}

export type ProductCardViewProps = {
  product: CardProduct;
  priority: boolean;
  addItem: CartActions["addItem"];
  navigate: NavigateFunction;
  /** The size shown first, when not the default (a choice made on the server's markup before hydration). */
  initialSizeId?: string;
};

/**
 * The K-2 product card itself, with what it does passed in rather than read from the cart's and the
 * router's contexts: a card below the fold hydrates in a React root of its own (`ProductCardCell`),
 * where those contexts do not reach, and its server markup is cached by product (README.md here).
 */
export function ProductCardView({
  product,
  priority,
  addItem,
  navigate,
  initialSizeId,
}: ProductCardViewProps) {
  const [sizeId, setSizeId] = useState(() => initialSizeId ?? defaultSizeId(product.sizes));
  const sizeIndex = product.sizes.findIndex((candidate) => candidate.id === sizeId);
  const size = product.sizes[sizeIndex];
  const onSale = product.sizes.some(isOnSale);
  const thc = thcLine(product);
  const href = `/product/${product.slug}`;
  const soldOut = size ? !size.inStock : product.sizes.length > 0 && product.sizes.every((s) => !s.inStock);
  const onlyLeft = onlyLeftText(size?.left);

  // The card's three links to its page are plain <a> elements that navigate like <Link>: React
  // Router's Link costs far more to render and to hydrate than an <a>. The name link carries
  // `data-discover`, as a <Link> would, so the router still learns the product route ahead of a tap
  // (its route discovery reads that attribute from the document).
  function openProduct(event: React.MouseEvent<HTMLAnchorElement>) {
    followInApp(event, navigate, href);
  }

  function add() {
    if (!size?.inStock) return;
    addItem(cartItemOf(product, size));
    toast.success("Added to cart", {
      description: `${product.name} (${size.size}) has been added to your cart.`,
    });
  }

  return (
    <article className="product-card group">
      {/* biome-ignore lint/a11y/useAnchorContent: a pointer shortcut to the product; its name link is the one for keyboards and screen readers */}
      <a
        href={href}
        onClick={openProduct}
        className="relative block overflow-hidden"
        tabIndex={-1}
        aria-hidden
      >
        <ProductImage
          product={product}
          sizes={CARD_IMAGE_SIZES}
          priority={priority}
          className="product-card-image"
        />
        {onSale || product.isFeatured ? (
          <span className="product-card-flags">
            {onSale ? <Badge variant="sale">Sale</Badge> : null}
            {product.isFeatured ? <Badge variant="accent">Featured</Badge> : null}
          </span>
        ) : null}
        <Badge variant="overlay" className="absolute right-2 bottom-2">
          {product.category}
        </Badge>
      </a>
      <div className="product-card-body">
        <a href={href} onClick={openProduct} className="product-card-meta" tabIndex={-1}>
          <span className="font-medium uppercase tracking-wide">{product.category}</span>
          {product.strain ? (
            <Badge variant={strainBadgeVariant(product.strain)}>{product.strain}</Badge>
          ) : null}
        </a>
        <h3 className="product-card-title">
          <a href={href} onClick={openProduct} data-discover="true">
            {product.name}
          </a>
        </h3>
        {thc ? <p className="text-sm text-muted-foreground">{thc}</p> : null}
        {product.sizes.length > 1 ? (
          <NativeSelect
            aria-label={`Select size for ${product.name}`}
            // Options are numbered by position, not by size id: 36 bytes less per option on the page.
            value={sizeIndex < 0 ? "" : String(sizeIndex)}
            onChange={(event) => setSizeId(product.sizes[Number(event.target.value)]?.id ?? "")}
            compact
          >
            <option value="" disabled>
              Select size
            </option>
            {product.sizes.map((option, index) => (
              <option key={option.id} value={index} disabled={!option.inStock}>
                {option.inStock ? option.size : `${option.size} - Sold out`}
              </option>
            ))}
          </NativeSelect>
        ) : null}
        {product.description ? (
          <details>
            <summary className="product-card-toggle">Description</summary>
            <p className="product-card-description">{product.description}</p>
          </details>
        ) : null}
        {onlyLeft ? <p className="font-medium text-sm text-warning">{onlyLeft}</p> : null}
        <div className="product-card-footer">
          {size ? (
            size.inStock ? (
              <Price size={size} className="min-w-0" />
            ) : (
              <p className="font-semibold text-muted-foreground">Sold out</p>
            )
          ) : soldOut ? (
            <p className="font-semibold text-muted-foreground">Sold out</p>
          ) : (
            <span />
          )}
          <button
            type="button"
            onClick={add}
            disabled={!size?.inStock}
            aria-label={soldOut ? `${product.name} is sold out` : `Add ${product.name} to cart`}
            className="product-card-add"
          />
        </div>
      </div>
    </article>
  );
}
