import { currentSizePrices } from "#app/features/catalog/catalog.server.ts";
import type { Route } from "./+types/cart-prices";

/** Current prices and stock of the sizes in a stored cart (decision 20): GET ?size=<id>&size=<id>. */
export async function loader({ request }: Route.LoaderArgs) {
  const sizeIds = new URL(request.url).searchParams.getAll("size");
  const sizes = await currentSizePrices(sizeIds);
  return Response.json({ sizes }, { headers: { "Cache-Control": "no-store" } });
}
