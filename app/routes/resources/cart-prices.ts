import { consumeBudget, retryAfterHeaders } from "#app/features/abuse/rate-limits.server.ts";
import { currentSizePrices } from "#app/features/catalog/catalog.server.ts";
import { requestInfoContext } from "#app/utils/request-context.ts";
import type { Route } from "./+types/cart-prices";

/** Current prices and stock of the sizes in a stored cart (decision 20): GET ?size=<id>&size=<id>. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const budget = await consumeBudget("cartPrices", context.get(requestInfoContext).clientAddress);
  if (!budget.ok) {
    return Response.json(
      { error: "Too many requests. Please try again shortly." },
      { status: 429, headers: retryAfterHeaders(budget.retryAfterSeconds) },
    );
  }
  const sizeIds = new URL(request.url).searchParams.getAll("size");
  const sizes = await currentSizePrices(sizeIds);
  return Response.json({ sizes }, { headers: { "Cache-Control": "no-store" } });
}
