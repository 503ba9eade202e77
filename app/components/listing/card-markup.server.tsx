/**
 * Cards below the fold rendered to markup once per product state (record 025, cold
 * render): a listing page re-rendered every card on each render, though a card's markup depends on
 * its product alone, and rendering 32 of them was most of what /shop costs beyond a bare page with
 * the same data. The key is the product's whole data (JSON), so any change of it renders anew; no
 * invalidation is needed. The cache is bounded: past its size the oldest entries go.
 *
 * `renderToString` is the legacy server renderer: a bundle of its own with its own state, so it can
 * run while the page's stream render is rendering the cell (React saves and restores the shared
 * dispatchers around each render). Its markup is what the cell's own root hydrates in the browser.
 */
import { renderToString } from "react-dom/server";
import { provideCardMarkup } from "./card-markup.ts";
import { type CardProduct, ProductCardView } from "./product-card-view.tsx";

/** About 2 KB each: at most a few megabytes, more than a 500-product catalogue's cards. */
const MAX_ENTRIES = 2_000;
const cache = new Map<string, string>();

function ignore() {}

export function renderCardMarkup(product: CardProduct): string {
  const key = JSON.stringify(product);
  let markup = cache.get(key);
  if (markup === undefined) {
    markup = renderToString(
      <ProductCardView product={product} priority={false} addItem={ignore} navigate={ignore} />,
    );
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(key, markup);
  }
  return markup;
}

provideCardMarkup(renderCardMarkup);
