import { useEffect, useState } from "react";
import { useCartActions } from "#app/components/cart-context.tsx";
import { Price } from "#app/components/price.tsx";
import { StoreLink } from "#app/components/store-link.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import type { CartItemInput, CartLine } from "#app/features/cart/cart.ts";
import { MINIMUM_SUGGESTIONS_PATH } from "#app/features/cart/minimum-suggestions.ts";
import { minimumOrderLines } from "#app/features/checkout/checkout.schema.ts";

/**
 * Above the form while the cart is under the minimum order (the $80.00 floor or the ZIP's zone's
 * own): the minimum, what is missing, and a few items from the cart's categories to add here.
 */
export function MinimumOrderNotice({
  items,
  totalCents,
  minimumCents,
}: {
  items: CartLine[];
  totalCents: number;
  minimumCents: number;
}) {
  const lines = minimumOrderLines(totalCents, minimumCents);
  const missingCents = Math.max(0, minimumCents - totalCents);
  const suggestions = useSuggestions(items, lines ? missingCents : null);
  const { addItem } = useCartActions();
  if (!lines) return null;
  return (
    <section
      className="rounded-lg border border-warning bg-card p-5 text-card-foreground shadow-card sm:p-6 lg:col-span-2"
      aria-label="Minimum order"
    >
      <div className="flex items-start gap-3" role="status">
        <Icon name="shopping-bag" className="mt-0.5 size-5 shrink-0 text-warning" />
        <div>
          <p className="font-semibold">{lines.required}</p>
          <p className="text-sm">{lines.missing}</p>
        </div>
      </div>
      {suggestions.length > 0 ? (
        <>
          <h2 className="mt-4 text-sm font-semibold">Suggested from your cart's categories</h2>
          <ul className="mt-2 grid grid-cols-1 gap-3 sm:grid-cols-3">
            {suggestions.map((item) => (
              <li
                key={item.sizeId}
                className="flex min-w-0 items-center gap-3 rounded-md border border-border p-2"
              >
                {item.imageUrl ? (
                  <img
                    src={item.imageUrl}
                    alt=""
                    width={48}
                    height={48}
                    loading="lazy"
                    className="size-12 shrink-0 rounded-md bg-muted object-cover"
                  />
                ) : null}
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium">{item.productName}</p>
                  <div className="flex items-baseline gap-2 text-sm">
                    <span className="text-muted-foreground">{item.sizeLabel}</span>
                    <Price size={item} />
                  </div>
                </div>
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  aria-label={`Add ${item.productName} (${item.sizeLabel})`}
                  onClick={() => addItem(item)}
                >
                  <Icon name="plus" />
                  Add
                </Button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <StoreLink
        to="/shop"
        className={buttonVariants({
          variant: "link",
          size: "bare",
          className: "mt-4 inline-flex min-h-11 items-center",
        })}
      >
        Continue Shopping
      </StoreLink>
      <p className="mt-1 text-sm text-muted-foreground">What you type below is kept while you shop.</p>
    </section>
  );
}

/** The suggestions for the cart as it is; none while `missingCents` is null or the request fails. */
function useSuggestions(items: CartLine[], missingCents: number | null) {
  const [suggestions, setSuggestions] = useState<CartItemInput[]>([]);
  const params = new URLSearchParams();
  for (const category of new Set(items.map((line) => line.category))) params.append("category", category);
  for (const productId of new Set(items.map((line) => line.productId))) params.append("exclude", productId);
  params.set("missing", String(missingCents ?? 0));
  const query = missingCents === null ? null : params.toString();

  useEffect(() => {
    if (query === null) {
      setSuggestions([]);
      return;
    }
    const controller = new AbortController();
    fetch(`${MINIMUM_SUGGESTIONS_PATH}?${query}`, {
      signal: controller.signal,
      headers: { accept: "application/json" },
    })
      .then(async (response) =>
        response.ok ? ((await response.json()) as { items: CartItemInput[] }).items : [],
      )
      .then((items) => setSuggestions(items))
      .catch(() => {});
    return () => controller.abort();
  }, [query]);
  return suggestions;
}
