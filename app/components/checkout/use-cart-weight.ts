/**
 * The cart's weight against the purchase limits in the browser (P-28). Weights and limits
 * come from /api/cart-prices when the cart panel or the checkout needs them, so the cached
 * catalogue pages and their first-load JavaScript carry neither.
 */
import { useEffect, useState } from "react";
import { CART_PRICES_PATH } from "#app/components/cart-context.tsx";
import type { CartLine, CurrentSizePrice } from "#app/features/cart/cart.ts";
import type { DeliveryState } from "#app/features/purchase-limits/purchase-limits.ts";
import {
  orderWeightMg,
  type PurchaseLimitProblem,
  type PurchaseLimits,
  purchaseLimitProblem,
} from "#app/features/purchase-limits/purchase-limits.ts";

/** Weights already fetched in this page's life: reopening the panel asks again only for new sizes. */
const knownWeights = new Map<string, number | null>();
/** Units on hand when last asked (record 026): the cart's + stops there; the server checks again. */
const knownStock = new Map<string, number>();
let knownLimits: PurchaseLimits | null = null;

async function fetchWeights(sizeIds: string[], signal: AbortSignal) {
  const params = new URLSearchParams();
  for (const id of sizeIds) params.append("size", id);
  const response = await fetch(`${CART_PRICES_PATH}?${params}`, {
    signal,
    headers: { accept: "application/json" },
  });
  if (!response.ok) throw new Error(`cart prices answered ${response.status}`);
  return (await response.json()) as { sizes: CurrentSizePrice[]; limits: PurchaseLimits };
}

export type CartWeight = {
  /** Null until every line's weight is known. */
  totalMg: number | null;
  /** Null until fetched (or `initialLimits` when given). */
  limits: PurchaseLimits | null;
  /** The first limit the cart breaks for a delivery state, once the weights are known. */
  problemFor: (state: DeliveryState) => PurchaseLimitProblem | null;
  /** Units on hand of a size, once fetched. */
  stockOf: (sizeId: string) => number | null;
};

export function useCartWeight(items: readonly CartLine[], initialLimits?: PurchaseLimits): CartWeight {
  const [limits, setLimits] = useState<PurchaseLimits | null>(initialLimits ?? knownLimits);
  const [, setVersion] = useState(0);
  const sizeKey = [...new Set(items.map((line) => line.sizeId))].sort().join(",");

  useEffect(() => {
    const ids = sizeKey ? sizeKey.split(",") : [];
    const unknown = ids.filter((id) => !knownWeights.has(id));
    if (unknown.length === 0 && knownLimits) return;
    const controller = new AbortController();
    fetchWeights(unknown.length ? unknown : ids.slice(0, 1), controller.signal)
      .then((body) => {
        for (const id of unknown) knownWeights.set(id, null);
        for (const size of body.sizes) {
          knownWeights.set(size.sizeId, size.flowerEquivalentMg ?? null);
          if (size.stock !== undefined) knownStock.set(size.sizeId, size.stock);
        }
        knownLimits = body.limits;
        setLimits(body.limits);
        setVersion((version) => version + 1);
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.error("Could not read the purchase limits", error);
      });
    return () => controller.abort();
  }, [sizeKey]);

  const weighed = items.map((line) => ({
    sizeId: line.sizeId,
    productName: line.productName,
    sizeLabel: line.sizeLabel,
    quantity: line.quantity,
    flowerEquivalentMg: knownWeights.get(line.sizeId) ?? null,
  }));
  const complete = items.every((line) => knownWeights.has(line.sizeId));
  return {
    totalMg: complete ? orderWeightMg(weighed) : null,
    limits,
    stockOf: (sizeId) => knownStock.get(sizeId) ?? null,
    problemFor: (state) => {
      if (!limits) return null;
      // Before the weights are in, only the per-size cap can be judged.
      const lines = complete ? weighed : weighed.map((line) => ({ ...line, flowerEquivalentMg: 0 }));
      return purchaseLimitProblem(lines, state, limits);
    },
  };
}
