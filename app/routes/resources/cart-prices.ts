import { cartPriceChecksRefusal } from "#app/features/abuse/rate-limits.server.ts";
import { currentSizePrices } from "#app/features/cart/cart.server.ts";
import { getPurchaseLimitSettings } from "#app/features/purchase-limits/purchase-limits.server.ts";
import { requestInfoContext } from "#app/utils/request-context.ts";
import type { Route } from "./+types/cart-prices";

/**
 * Current prices, stock and weights of the sizes in a stored cart (P-20, P-28), with the
 * purchase limits: GET ?size=<id>&size=<id>. The cart panel and checkout show the running weight
 * from this, so the cached catalogue pages carry neither weights nor limits.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const refusal = await cartPriceChecksRefusal(context.get(requestInfoContext).clientAddress);
  if (refusal) return refusal;
  const sizeIds = new URL(request.url).searchParams.getAll("size");
  const [sizes, settings] = await Promise.all([currentSizePrices(sizeIds), getPurchaseLimitSettings()]);
  const limits = { stateLimitsMg: settings.stateLimitsMg, maxQuantityPerSize: settings.maxQuantityPerSize };
  return Response.json({ sizes, limits }, { headers: { "Cache-Control": "no-store" } });
}
