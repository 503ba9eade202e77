/**
 * The finished markup of a listing card below the fold, as the server writes it (decision record
 * 025, cold render). On the server, `card-markup.server.tsx` provides it from a cache, so a page
 * renders each unchanged card once rather than on every cache miss; in the browser nothing is
 * provided and cards render as components.
 */
import type { CardProduct } from "./product-card-view.tsx";

type CardMarkup = (product: CardProduct) => string;

let provided: CardMarkup | null = null;

export function provideCardMarkup(render: CardMarkup) {
  provided = render;
}

/** The card's markup (the server's, cached), or null where there is none (the browser). */
export function cardMarkup(product: CardProduct): string | null {
  return provided ? provided(product) : null;
}
