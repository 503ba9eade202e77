/** Storefront listing loads: one page range of products in SQL, failures turned into an empty grid. */
import { requireSearchBudget } from "#app/features/abuse/rate-limits.server.ts";
import { log } from "#app/utils/logger.server.ts";
import { findProducts, type ProductFilter, type ProductView } from "./catalog.server.ts";
import type { ListedProductFields } from "./catalog.ts";
import { PAGE_SIZE, parseOnly, parsePage, parseSearch } from "./storefront.ts";

/** What a product card renders: the page's data carries nothing else (it is serialised into the HTML). */
export type ListedProduct = ListedProductFields & Pick<ProductView, "sizes">;

export type Listing = { products: ListedProduct[]; total: number; page: number; failed: boolean };

function toListedProduct(product: ProductView): ListedProduct {
  const { isDeal: _isDeal, imageKey: _imageKey, createdAt: _createdAt, ...listed } = product;
  return listed;
}

/**
 * Products matching the filter (K-4: a failed load gives an empty grid): the first
 * `page * PAGE_SIZE` for a page view (so a shared ?page=3 link shows what the shopper saw), or with
 * `only` just that page, which the grid appends when the shopper scrolls on.
 */
export async function loadListing(filter: ProductFilter, page: number, only = false): Promise<Listing> {
  try {
    const { products, total } = await findProducts(
      filter,
      only ? { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE } : { limit: page * PAGE_SIZE },
    );
    return { products: products.map(toListedProduct), total, page, failed: false };
  } catch (error) {
    log.error("Failed to load products", { error: String(error), filter: JSON.stringify(filter) });
    return { products: [], total: 0, page, failed: true };
  }
}

/** A short highlight row (Deals, Featured, On Sale); an empty row when the load fails. */
export async function loadHighlight(filter: ProductFilter, limit: number): Promise<ListedProduct[]> {
  try {
    return (await findProducts(filter, { limit })).products.map(toListedProduct);
  } catch (error) {
    log.error("Failed to load products", { error: String(error), filter: JSON.stringify(filter) });
    return [];
  }
}

/**
 * What a listing page's query string asks for: the search (spent from the shopper's search budget,
 * P-29, when there is one), the page, and whether only that page is wanted (the grid's "Load
 * more"). Shop, category and effect pages read it the same way.
 */
export async function listingQuery(params: URLSearchParams, clientAddress: string) {
  const search = parseSearch(params.get("q"));
  await requireSearchBudget(search, clientAddress);
  return { search, page: parsePage(params.get("page")), only: parseOnly(params.get("only")) };
}
