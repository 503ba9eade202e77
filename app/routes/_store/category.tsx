import { data } from "react-router";
import { CATEGORY_ICONS } from "#app/components/category-icons.ts";
import {
  ChipRow,
  EffectFilters,
  EmptyState,
  PaginatedGrid,
  SearchForm,
} from "#app/components/listing/listing.tsx";
import { LoadErrorNotice, useLoadErrorToast } from "#app/components/load-error.tsx";
import { listingQuery, loadListing } from "#app/features/catalog/listing.server.ts";
import { seoMeta, storeFromMatches } from "#app/features/catalog/seo.ts";
import {
  CATEGORY_EFFECT_FILTERS,
  CATEGORY_PAGES,
  categoryPageBySlug,
  pageSlug,
  parseEffect,
  productsAvailable,
  strainForEffectFilter,
} from "#app/features/catalog/storefront.ts";
import { cataloguePage } from "#app/utils/catalogue-pages.ts";
import { requestInfoContext } from "#app/utils/request-context.ts";
import type { Route } from "./+types/category";

export const handle = cataloguePage(["q", "page", "only", "effect"]);

const CATEGORY_DESCRIPTIONS: Record<string, string> = {
  Flower: "Top-shelf, lab-tested cannabis flower",
  Edibles: "Gummies, chocolates and other cannabis edibles",
  "Pre Rolls": "Ready-to-enjoy pre rolls and house joints",
  Cartridges: "Vape cartridges in classic and exotic strains",
  Concentrates: "Wax, shatter, live resin and other concentrates",
  Mushrooms: "Mushroom products",
  Deals: "Today's best deals",
};

export async function loader({ url, pattern, context }: Route.LoaderArgs) {
  const page = categoryPageBySlug(pageSlug(pattern));
  if (!page) throw data(null, { status: 404 });
  const query = await listingQuery(url.searchParams, context.get(requestInfoContext).clientAddress);
  const { search } = query;
  const effect = parseEffect(url.searchParams.get("effect"));
  const strain = effect ? strainForEffectFilter(effect) : null;
  const listing = await loadListing(
    {
      category: page.dealsOnly ? null : page.name,
      dealsOnly: page.dealsOnly,
      strains: effect ? (strain ? [strain] : []) : null,
      search,
    },
    query.page,
    query.only,
  );
  return { name: page.name, slug: page.slug, search, effect, listing };
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  const name = loaderData?.name ?? "Products";
  const lead = CATEGORY_DESCRIPTIONS[name] ?? name;
  return seoMeta({
    store: storeFromMatches(matches),
    title: name === "Deals" ? "Cannabis Deals" : `${name} Delivery`,
    description: `${lead}, delivered same day in Washington DC and Northern Virginia. Cash on delivery, ID checked at the door.`,
    path: `/${loaderData?.slug ?? ""}`,
  });
}

export default function CategoryPage({ loaderData }: Route.ComponentProps) {
  const { name, slug, search, effect, listing } = loaderData;
  useLoadErrorToast(listing.failed, "Failed to load products. Please try again.");
  const filtered = search !== "" || effect !== null;
  const effectHref = (value: string | null) => {
    const params = new URLSearchParams();
    if (search) params.set("q", search);
    if (value) params.set("effect", value);
    const query = params.toString();
    return query ? `/${slug}?${query}` : `/${slug}`;
  };

  return (
    <div className="mx-auto max-w-7xl space-y-6 px-4 py-8 md:py-12">
      <ChipRow
        label="Categories"
        size="lg"
        items={[
          { label: "All", to: "/shop", active: false, icon: CATEGORY_ICONS.All },
          ...CATEGORY_PAGES.map((page) => ({
            label: page.name,
            to: `/${page.slug}`,
            active: page.slug === slug,
            icon: CATEGORY_ICONS[page.name],
          })),
        ]}
      />
      <header className="space-y-1">
        <h1 className="font-display text-3xl font-semibold text-primary md:text-4xl">{name}</h1>
        <p className="text-muted-foreground" data-testid="product-count">
          {productsAvailable(listing.total)}
        </p>
      </header>
      <SearchForm placeholder={`Search ${name}...`} defaultValue={search} keep={{ effect }} />
      <EffectFilters
        items={CATEGORY_EFFECT_FILTERS.map((value) => ({
          label: value,
          // A toggle: choosing the active effect clears it (K-4).
          to: effectHref(effect === value ? null : value),
          active: effect === value,
        }))}
      />
      <LoadErrorNotice failed={listing.failed} text="Failed to load products. Please try again." />
      <PaginatedGrid
        listing={listing}
        loadingText={`Loading ${name} products...`}
        empty={
          listing.failed ? null : (
            <EmptyState
              title="No products found"
              hint={
                filtered
                  ? "Try adjusting your search or filters"
                  : `No ${name} products are currently available`
              }
            />
          )
        }
      />
    </div>
  );
}
