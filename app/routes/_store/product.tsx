import { useEffect, useId, useState } from "react";
import { data, redirect, useNavigate } from "react-router";
import { useCartActions } from "#app/components/cart-context.tsx";
import { defaultSizeId, sizeOptionLabel } from "#app/components/listing/product-card-view.tsx";
import { Price } from "#app/components/price.tsx";
import { ProductImage } from "#app/components/product-image.tsx";
import { StoreLink } from "#app/components/store-link.tsx";
import { Badge, strainBadgeVariant } from "#app/components/ui/badge.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { Label, NativeSelect } from "#app/components/ui/input.tsx";
import { cartItemOf } from "#app/features/cart/cart.ts";
import { findProductPage } from "#app/features/catalog/catalog.server.ts";
import {
  isKnownStrain,
  isOnSale,
  onlyLeftText,
  productPath,
  showsThcPercentage,
} from "#app/features/catalog/catalog.ts";
import { productJsonLd, seoMeta, storeFromMatches } from "#app/features/catalog/seo.ts";
import { STRAIN_EFFECTS } from "#app/features/catalog/storefront.ts";
import { getPurchaseLimitSettings } from "#app/features/purchase-limits/purchase-limits.server.ts";
import { CATALOGUE_PAGE } from "#app/utils/catalogue-pages.ts";
import { log } from "#app/utils/logger.server.ts";
import { toast } from "#app/utils/toast-client.ts";
import type { Route } from "./+types/product";

export const handle = CATALOGUE_PAGE;

export async function loader({ params, request }: Route.LoaderArgs) {
  let found: Awaited<ReturnType<typeof findProductPage>>;
  let limits: Awaited<ReturnType<typeof getPurchaseLimitSettings>>;
  try {
    [found, limits] = await Promise.all([findProductPage(params.slug), getPurchaseLimitSettings()]);
  } catch (error) {
    log.error("Failed to load product", { slug: params.slug, error: String(error) });
    return data({ product: null, failed: true }, { status: 500 });
  }
  // An old UUID link or a renamed product's earlier slug: moved for good to the current slug.
  if (found && "redirectTo" in found) throw redirect(found.redirectTo + new URL(request.url).search, 301);
  const product = found?.product;
  if (!product) return data({ product: null, failed: false }, { status: 404 });
  // The stepper stops at the per-size cap; saving a new cap marks the cached page stale.
  return { product, failed: false, maxQuantity: limits.maxQuantityPerSize };
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  const store = storeFromMatches(matches);
  const product = loaderData?.product;
  if (!product) {
    return [{ title: `Product not found | ${store.name}` }, { name: "robots", content: "noindex" }];
  }
  const description =
    (product.description || `${product.name}, ${product.category}`).slice(0, 150) +
    (product.description.length > 150 ? "…" : "") +
    " Same-day delivery in Washington DC.";
  return seoMeta({
    store,
    title: `${product.name} (${product.category})`,
    description,
    path: productPath(product),
    image: product.imageUrl || undefined,
    type: "product",
    jsonLd: productJsonLd(store, product),
  });
}

function BackButton() {
  const navigate = useNavigate();
  return (
    <StoreLink
      to="/shop"
      onClick={(event) => {
        if (window.history.state && window.history.state.idx > 0) {
          event.preventDefault();
          navigate(-1);
        }
      }}
      className={buttonVariants({ variant: "ghost", className: "-ml-3" })}
    >
      <Icon name="arrow-left" />
      Back
    </StoreLink>
  );
}

function NotFound() {
  const navigate = useNavigate();
  // K-2: a missing product sends the shopper to /shop.
  useEffect(() => {
    const timer = setTimeout(() => navigate("/shop", { replace: true }), 2500);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
      <h1 className="font-display text-3xl font-semibold text-primary">Product not found</h1>
      <p className="text-muted-foreground">Taking you back to the shop…</p>
      <StoreLink to="/shop" className={buttonVariants()}>
        Go to the shop
      </StoreLink>
    </div>
  );
}

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  const { product } = loaderData;
  const perSizeLimit = "maxQuantity" in loaderData ? loaderData.maxQuantity : 10;
  const { addItem } = useCartActions();
  const [sizeId, setSizeId] = useState(() => (product ? defaultSizeId(product.sizes) : ""));
  const [quantity, setQuantity] = useState(1);
  const sizeSelectId = useId();
  const quantityId = useId();
  if (!product) return <NotFound />;

  const size = product.sizes.find((candidate) => candidate.id === sizeId);
  // At most the stock on hand when the page knows it (record 026), and never below 1.
  const maxQuantity = Math.max(1, Math.min(perSizeLimit, size?.left ?? perSizeLimit));
  const onlyLeft = onlyLeftText(size?.left);
  const onSale = product.sizes.some(isOnSale);
  const strain = isKnownStrain(product.strain) ? product.strain : null;
  const effects = strain ? STRAIN_EFFECTS[strain] : null;
  const thcPercent = product.thcPercentage !== null ? `THC: ${product.thcPercentage}%` : null;
  const thcMg = product.thcMg !== null ? `THC: ${product.thcMg}mg` : null;
  const thcLines = (showsThcPercentage(product.category) ? [thcPercent, thcMg] : [thcMg, thcPercent]).filter(
    (line): line is string => line !== null,
  );

  function add() {
    if (!product || !size?.inStock) return;
    addItem(cartItemOf(product, size), Math.min(quantity, maxQuantity));
    toast.success("Added to cart", { description: `${quantity}x ${product.name} added to your cart` });
  }

  return (
    <div className="mx-auto max-w-6xl px-4 py-6 md:py-10">
      <BackButton />
      <div className="mt-4 grid gap-8 md:grid-cols-2 md:gap-12">
        <div className="self-start overflow-hidden rounded-xl border border-border bg-card md:sticky md:top-24">
          <ProductImage product={product} sizes="(min-width: 768px) 560px, 100vw" priority />
        </div>
        <div className="space-y-5">
          <div className="flex flex-wrap gap-2">
            {onSale ? <Badge variant="sale">Sale</Badge> : null}
            {product.isFeatured ? <Badge variant="accent">Featured</Badge> : null}
            <Badge variant="outline">{product.category}</Badge>
            {product.strain ? (
              <Badge variant={strainBadgeVariant(product.strain)}>{product.strain}</Badge>
            ) : null}
          </div>
          <h1 className="font-display text-3xl font-semibold text-foreground md:text-4xl">{product.name}</h1>
          {thcLines.length > 0 ? (
            <p className="flex flex-wrap gap-x-4 text-muted-foreground">
              {thcLines.map((line) => (
                <span key={line}>{line}</span>
              ))}
            </p>
          ) : null}
          {size ? (
            size.inStock ? (
              <div>
                <Price size={size} className="text-2xl" />
                {onlyLeft ? <p className="mt-1 font-medium text-warning">{onlyLeft}</p> : null}
              </div>
            ) : (
              <p className="text-2xl font-semibold text-muted-foreground">Sold out</p>
            )
          ) : null}
          {product.sizes.length > 1 ? (
            <div className="space-y-1.5">
              <Label htmlFor={sizeSelectId}>Size</Label>
              <NativeSelect
                id={sizeSelectId}
                value={sizeId}
                onChange={(event) => {
                  setSizeId(event.target.value);
                  const left = product.sizes.find((option) => option.id === event.target.value)?.left;
                  if (left !== undefined) setQuantity((value) => Math.max(1, Math.min(value, left)));
                }}
              >
                <option value="" disabled>
                  Select size
                </option>
                {product.sizes.map((option) => (
                  <option key={option.id} value={option.id} disabled={!option.inStock}>
                    {sizeOptionLabel(option)}
                  </option>
                ))}
              </NativeSelect>
            </div>
          ) : product.sizes[0] ? (
            <p className="text-sm text-muted-foreground">Size: {product.sizes[0].size}</p>
          ) : null}
          <div className="space-y-1.5">
            <Label htmlFor={quantityId}>Quantity</Label>
            <div className="flex w-fit items-center rounded-md border border-input bg-card">
              <button
                type="button"
                onClick={() => setQuantity((value) => Math.max(1, value - 1))}
                disabled={quantity <= 1}
                aria-label="Decrease quantity"
                className="inline-flex size-12 items-center justify-center hover:bg-muted disabled:opacity-40"
              >
                <Icon name="minus" className="size-4" />
              </button>
              <input
                id={quantityId}
                type="number"
                inputMode="numeric"
                min={1}
                max={maxQuantity}
                value={quantity}
                onChange={(event) => {
                  const value = Number.parseInt(event.target.value, 10);
                  setQuantity(Number.isFinite(value) && value >= 1 ? Math.min(value, maxQuantity) : 1);
                }}
                className="h-12 w-16 border-x border-input bg-transparent text-center text-base font-semibold tabular-nums [appearance:textfield] [&::-webkit-inner-spin-button]:appearance-none"
              />
              <button
                type="button"
                onClick={() => setQuantity((value) => Math.min(maxQuantity, value + 1))}
                disabled={quantity >= maxQuantity}
                aria-label="Increase quantity"
                className="inline-flex size-12 items-center justify-center hover:bg-muted disabled:opacity-40"
              >
                <Icon name="plus" className="size-4" />
              </button>
            </div>
          </div>
          <Button size="lg" className="w-full sm:w-auto sm:min-w-64" onClick={add} disabled={!size?.inStock}>
            <Icon name="shopping-cart" />
            {size && !size.inStock ? "Sold out" : "Add to Cart"}
          </Button>
          {effects && strain ? (
            <Card className="p-5">
              <h2 className="flex items-center gap-2 font-display text-lg font-semibold text-primary">
                <Icon name="sparkles" className="size-5" />
                Effects
              </h2>
              <ul className="mt-3 flex flex-wrap gap-2">
                {effects.effects.map((effect) => (
                  <li key={effect}>
                    <Badge variant={strainBadgeVariant(strain)}>{effect}</Badge>
                  </li>
                ))}
              </ul>
              <p className="mt-3 text-sm text-muted-foreground">
                {strain}: {effects.summary}
              </p>
            </Card>
          ) : null}
          <Card className="p-5">
            <h2 className="font-display text-lg font-semibold text-primary">Description</h2>
            <p className="mt-2 leading-relaxed whitespace-pre-line text-foreground/90">
              {product.description || "No description yet."}
            </p>
          </Card>
        </div>
      </div>
    </div>
  );
}
