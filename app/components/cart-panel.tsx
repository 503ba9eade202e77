import { useCart } from "#app/components/cart-context.tsx";
import { PurchaseLimitMeter } from "#app/components/checkout/purchase-limit-meter.tsx";
import { useCartWeight } from "#app/components/checkout/use-cart-weight.ts";
import { StockShortfallNotice } from "#app/components/stock-shortfall-notice.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "#app/components/ui/sheet.tsx";
import { amountToMinimumCents, lineTotalCents, MIN_ORDER_TEXT } from "#app/features/cart/cart.ts";
import { productImageSrc } from "#app/features/media/image-urls.ts";
import { STATE_NAMES, weightLimitMessage } from "#app/features/purchase-limits/purchase-limits.ts";
import { cn } from "#app/utils/cn.ts";
import { formatCents } from "#app/utils/money.ts";
import { StoreLink } from "./store-link.tsx";

/** K-2 cart panel and K-5 minimum order. A Radix dialog: focus trap, Escape, labelled. */
export function CartPanel({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { items, totalCents, itemCount, removeItem, updateQuantity } = useCart();
  const missing = amountToMinimumCents(totalCents);
  const weight = useCartWeight(items);
  const { limits, totalMg } = weight;
  // The delivery state is chosen at checkout: the cart is blocked only when no state would take it.
  const states = limits ? (Object.keys(limits.stateLimitsMg) as (keyof typeof STATE_NAMES)[]) : [];
  const firstProblem = weight.problemFor("DC");
  const capProblem = firstProblem?.kind === "quantity" ? firstProblem : null;
  const overEveryState =
    totalMg !== null && limits !== null && states.every((state) => totalMg > limits.stateLimitsMg[state]);
  const highest = limits
    ? states.toSorted((a, b) => limits.stateLimitsMg[b] - limits.stateLimitsMg[a])[0]
    : null;
  const canCheckout = items.length > 0 && missing === 0 && !capProblem && !overEveryState;

  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent aria-describedby={undefined}>
        <div className="border-b border-border px-5 py-4 pr-16">
          <SheetTitle className="font-display text-xl font-semibold text-primary">
            Your Cart ({itemCount} {itemCount === 1 ? "item" : "items"})
          </SheetTitle>
        </div>
        {items.length === 0 ? (
          <div className="flex flex-1 flex-col items-center justify-center gap-4 px-6 text-center">
            <Icon name="shopping-bag" className="size-12 text-paper-400" />
            <SheetDescription className="text-lg text-muted-foreground">Your cart is empty</SheetDescription>
            <StoreLink
              to="/shop"
              onClick={() => onOpenChange(false)}
              className={buttonVariants({ variant: "outline" })}
            >
              Browse the shop
            </StoreLink>
          </div>
        ) : (
          <>
            <ul
              className="flex-1 divide-y divide-border overflow-y-auto px-5"
              aria-label="Items in your cart"
            >
              {items.map((line) => (
                <li key={`${line.productId}:${line.sizeId}`} className="flex gap-3 py-4">
                  {line.imageUrl ? (
                    <img
                      src={productImageSrc(line.imageUrl, 160)}
                      alt=""
                      width={72}
                      height={72}
                      loading="lazy"
                      className="size-18 shrink-0 rounded-md bg-muted object-cover"
                    />
                  ) : (
                    <div className="size-18 shrink-0 rounded-md bg-muted" />
                  )}
                  <div className="flex min-w-0 flex-1 flex-col gap-1">
                    <div className="flex items-start justify-between gap-2">
                      <div className="min-w-0">
                        <StoreLink
                          to={`/product/${line.productSlug ?? line.productId}`}
                          onClick={() => onOpenChange(false)}
                          className="block truncate font-semibold hover:underline"
                        >
                          {line.productName}
                        </StoreLink>
                        <p className="text-sm text-muted-foreground">{line.sizeLabel}</p>
                      </div>
                      <button
                        type="button"
                        onClick={() => removeItem(line.productId, line.sizeId)}
                        aria-label={`Remove ${line.productName} (${line.sizeLabel}) from cart`}
                        className="-mt-2 -mr-2 inline-flex size-11 shrink-0 items-center justify-center rounded-md text-muted-foreground hover:bg-muted hover:text-destructive"
                      >
                        <Icon name="trash" className="size-4" />
                      </button>
                    </div>
                    <div className="flex items-center justify-between gap-2">
                      <div className="flex items-center rounded-md border border-border">
                        <button
                          type="button"
                          onClick={() => updateQuantity(line.productId, line.sizeId, line.quantity - 1)}
                          aria-label={`Decrease quantity of ${line.productName} (${line.sizeLabel})`}
                          className="inline-flex size-11 items-center justify-center hover:bg-muted"
                        >
                          <Icon name="minus" className="size-4" />
                        </button>
                        <span className="min-w-8 text-center font-medium tabular-nums" aria-live="polite">
                          <span className="sr-only">Quantity </span>
                          {line.quantity}
                        </span>
                        <button
                          type="button"
                          onClick={() => updateQuantity(line.productId, line.sizeId, line.quantity + 1)}
                          disabled={
                            (limits !== null && line.quantity >= limits.maxQuantityPerSize) ||
                            line.quantity >= (weight.stockOf(line.sizeId) ?? Number.POSITIVE_INFINITY)
                          }
                          aria-label={`Increase quantity of ${line.productName} (${line.sizeLabel})`}
                          className="inline-flex size-11 items-center justify-center hover:bg-muted disabled:opacity-40"
                        >
                          <Icon name="plus" className="size-4" />
                        </button>
                      </div>
                      <p className="font-semibold tabular-nums">{formatCents(lineTotalCents(line))}</p>
                    </div>
                  </div>
                </li>
              ))}
            </ul>
            <div className="space-y-3 border-t border-border bg-card px-5 py-4">
              <div className="flex items-center justify-between text-lg font-semibold">
                <span>Total</span>
                <span className="tabular-nums" data-testid="cart-total">
                  {formatCents(totalCents)}
                </span>
              </div>
              {limits && totalMg !== null ? (
                <div className="space-y-2">
                  {states.map((state) => (
                    <PurchaseLimitMeter
                      key={state}
                      label={`Flower equivalent, ${STATE_NAMES[state]}`}
                      totalMg={totalMg}
                      limitMg={limits.stateLimitsMg[state]}
                    />
                  ))}
                </div>
              ) : null}
              <StockShortfallNotice />
              {capProblem ? (
                <p className="rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive" role="alert">
                  {capProblem.message}
                </p>
              ) : overEveryState && highest && limits && totalMg !== null ? (
                <p className="rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive" role="alert">
                  {weightLimitMessage(totalMg, highest, limits.stateLimitsMg[highest])}
                </p>
              ) : null}
              {canCheckout ? (
                <StoreLink
                  to="/checkout"
                  onClick={() => onOpenChange(false)}
                  className={cn(buttonVariants({ size: "lg" }), "w-full")}
                >
                  Checkout
                </StoreLink>
              ) : capProblem || overEveryState ? (
                <button type="button" disabled className={cn(buttonVariants({ size: "lg" }), "w-full")}>
                  Over the purchase limit
                </button>
              ) : (
                <>
                  <div className="rounded-md bg-warning-muted px-3 py-2 text-sm text-warning" role="status">
                    <p className="font-semibold">{`Minimum order required: ${MIN_ORDER_TEXT}`}</p>
                    <p>Add {formatCents(missing)} more to reach minimum order</p>
                  </div>
                  <button type="button" disabled className={cn(buttonVariants({ size: "lg" }), "w-full")}>
                    {`Minimum ${MIN_ORDER_TEXT} Required`}
                  </button>
                </>
              )}
            </div>
          </>
        )}
      </SheetContent>
    </Sheet>
  );
}
