import { cartPriceChecksRefusal } from "#app/features/abuse/rate-limits.server.ts";
import { listSuggestionCandidates } from "#app/features/cart/cart.server.ts";
import { pickSuggestions } from "#app/features/cart/minimum-suggestions.ts";
import { requestInfoContext } from "#app/utils/request-context.ts";
import type { Route } from "./+types/minimum-suggestions";

/**
 * A few items from the cart's categories for a checkout under the minimum order:
 * GET ?category=…&exclude=<productId>&missing=<cents>. Counted with the cart's price checks.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const refusal = await cartPriceChecksRefusal(context.get(requestInfoContext).clientAddress);
  if (refusal) return refusal;
  const params = new URL(request.url).searchParams;
  const missing = Math.max(0, Math.min(1_000_000, Number.parseInt(params.get("missing") ?? "0", 10) || 0));
  const candidates = await listSuggestionCandidates(params.getAll("category"), params.getAll("exclude"));
  return Response.json(
    { items: pickSuggestions(candidates, missing) },
    { headers: { "Cache-Control": "no-store" } },
  );
}
