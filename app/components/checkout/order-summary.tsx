import { useState } from "react";
import { StockShortfallNotice } from "#app/components/stock-shortfall-notice.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { type CartLine, lineTotalCents } from "#app/features/cart/cart.ts";
import {
  type DeliveryState,
  type PurchaseLimitProblem,
  type PurchaseLimits,
  STATE_NAMES,
} from "#app/features/purchase-limits/purchase-limits.ts";
import { formatCents } from "#app/utils/money.ts";
import { PurchaseLimitMeter } from "./purchase-limit-meter.tsx";
import type { CartWeight } from "./use-cart-weight.ts";

/** The cart's lines, the total, the purchase-limit meter and what stands in the order's way. */
export function OrderSummary({
  headingId,
  items,
  totalCents,
  weight,
  limits,
  state,
  limitProblem,
}: {
  headingId: string;
  items: CartLine[];
  totalCents: number;
  weight: CartWeight;
  limits: PurchaseLimits;
  state: DeliveryState;
  limitProblem: PurchaseLimitProblem | null;
}) {
  return (
    <aside aria-labelledby={headingId} className="lg:sticky lg:top-24 lg:order-2">
      <Card className="p-5 sm:p-6">
        <h2 id={headingId} className="font-display text-xl font-semibold">
          Order Summary
        </h2>
        <ul className="mt-4 divide-y divide-border">
          {items.map((line) => (
            <li key={`${line.productId}:${line.sizeId}`} className="flex gap-3 py-3">
              <SummaryImage src={line.imageUrl} />
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium">{line.productName}</p>
                <p className="text-sm text-muted-foreground">
                  {line.sizeLabel} · Qty {line.quantity}
                </p>
              </div>
              <p className="font-semibold tabular-nums">{formatCents(lineTotalCents(line))}</p>
            </li>
          ))}
        </ul>
        <dl className="mt-2 space-y-2 border-t border-border pt-4 text-sm">
          <div className="flex justify-between">
            <dt className="text-muted-foreground">Delivery</dt>
            <dd className="font-medium">Free</dd>
          </div>
          <div className="flex justify-between text-base">
            <dt className="font-semibold">Total</dt>
            <dd className="font-semibold tabular-nums" data-testid="checkout-total">
              {formatCents(totalCents)}
            </dd>
          </div>
        </dl>
        {weight.totalMg !== null ? (
          <div className="mt-4">
            <PurchaseLimitMeter
              label={`Flower equivalent, ${STATE_NAMES[state]}`}
              totalMg={weight.totalMg}
              limitMg={(weight.limits ?? limits).stateLimitsMg[state]}
            />
          </div>
        ) : null}
        <StockShortfallNotice className="mt-4" />
        {limitProblem ? (
          <p className="mt-4 rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive" role="alert">
            {limitProblem.message}
          </p>
        ) : null}
      </Card>
    </aside>
  );
}

/** A line's thumbnail; a plain tile when there is none or it fails to load. */
function SummaryImage({ src }: { src: string }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <div
        className="flex size-14 shrink-0 items-center justify-center rounded-md bg-secondary"
        aria-hidden="true"
      >
        <Icon name="leaf" className="size-5 text-forest-400" />
      </div>
    );
  }
  return (
    <img
      src={src}
      alt=""
      width={56}
      height={56}
      loading="lazy"
      onError={() => setFailed(true)}
      className="size-14 shrink-0 rounded-md bg-muted object-cover"
    />
  );
}
