import { CATEGORY_ICONS } from "#app/components/category-icons.ts";
import {
  ChipRow,
  EffectFilters,
  EmptyState,
  PaginatedGrid,
  ProductGridList,
  SearchForm,
} from "#app/components/listing/listing.tsx";
import { LoadErrorNotice, useLoadErrorToast } from "#app/components/load-error.tsx";
import { StoreLink } from "#app/components/store-link.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { CATEGORIES, isKnownCategory } from "#app/features/catalog/catalog.ts";
import { listingQuery, loadHighlight, loadListing } from "#app/features/catalog/listing.server.ts";
import { seoMeta, storeFromMatches } from "#app/features/catalog/seo.ts";
import { EFFECT_SLUGS, EFFECTS, productsAvailable } from "#app/features/catalog/storefront.ts";
import { cataloguePage } from "#app/utils/catalogue-pages.ts";
import { requestInfoContext } from "#app/utils/request-context.ts";
import type { Route } from "./+types/shop";

export const handle = cataloguePage(["q", "page", "only", "category"]);

const HIGHLIGHT_LIMIT = 4;

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const { search, page, only } = await listingQuery(params, context.get(requestInfoContext).clientAddress);
  const requested = params.get("category") ?? "";
  const category = isKnownCategory(requested) ? requested : null;
  const base = { category, search };
  if (only) {
    // The grid appending one more page: nothing else is needed.
    return {
      search,
      category,
      deals: [],
      featured: [],
      onSale: [],
      listing: await loadListing(base, page, true),
    };
  }
  const [deals, featured, onSale, listing] = await Promise.all([
    loadHighlight({ ...base, dealsOnly: true }, HIGHLIGHT_LIMIT),
    loadHighlight({ ...base, featuredOnly: true }, HIGHLIGHT_LIMIT),
    loadHighlight({ ...base, onSaleOnly: true }, HIGHLIGHT_LIMIT),
    loadListing(base, page),
  ]);
  return { search, category, deals, featured, onSale, listing };
}

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta({
    store: storeFromMatches(matches),
    title: "Shop All Products",
    description:
      "Browse lab-tested flower, edibles, pre rolls, cartridges, concentrates and mushrooms. Same-day delivery in Washington DC and Northern Virginia, cash on delivery.",
    path: "/shop",
  });
}

function Section({ title, children, id }: { title: string; children: React.ReactNode; id: string }) {
  return (
    <section aria-labelledby={id} className="space-y-4">
      <h2 id={id} className="font-display text-2xl font-semibold text-primary">
        {title}
      </h2>
      {children}
    </section>
  );
}

export default function Shop({ loaderData }: Route.ComponentProps) {
  const { search, category, deals, featured, onSale, listing: all } = loaderData;
  useLoadErrorToast(all.failed, "Failed to load products. Please try again.");
  const nothing =
    all.products.length === 0 && deals.length === 0 && featured.length === 0 && onSale.length === 0;
  const highlights = deals.length > 0 || featured.length > 0 || onSale.length > 0;
  const categoryParam = (name: string) => {
    const params = new URLSearchParams();
    if (search) params.set("q", search);
    if (name !== "All") params.set("category", name);
    const query = params.toString();
    return query ? `/shop?${query}` : "/shop";
  };

  return (
    <div className="mx-auto max-w-7xl space-y-8 px-4 py-8 md:py-12">
      <header className="space-y-2">
        <h1 className="font-display text-3xl font-semibold text-primary md:text-4xl">Shop</h1>
        <p className="text-muted-foreground">
          Lab-tested, top-shelf products delivered same day. No medical card needed.
        </p>
      </header>
      <div className="space-y-4">
        <SearchForm placeholder="Search products..." defaultValue={search} keep={{ category }} />
        <ChipRow
          label="Categories"
          size="lg"
          items={["All", ...CATEGORIES].map((name) => ({
            label: name,
            to: categoryParam(name),
            active: name === "All" ? category === null : category === name,
            icon: CATEGORY_ICONS[name],
          }))}
        />
        <EffectFilters
          items={EFFECTS.map((effect) => ({
            label: effect,
            to: `/${EFFECT_SLUGS[effect]}`,
            active: false,
          }))}
        />
      </div>
      <LoadErrorNotice failed={all.failed} text="Failed to load products. Please try again." />
      {nothing && !all.failed ? (
        <EmptyState
          title="No products found matching your filters"
          clearTo={search || category ? "/shop" : undefined}
        />
      ) : (
        <>
          {deals.length > 0 ? (
            <Section title="Deals" id="deals-heading">
              <ProductGridList products={deals} priorityCount={2} />
              <StoreLink
                to="/deals"
                className="inline-flex min-h-11 items-center gap-1 font-semibold text-primary underline-offset-4 hover:underline"
              >
                View all deals <Icon name="arrow-right" className="size-4" />
              </StoreLink>
            </Section>
          ) : null}
          {featured.length > 0 ? (
            <Section title="Featured Products" id="featured-heading">
              <ProductGridList products={featured} priorityCount={deals.length > 0 ? 0 : 2} />
            </Section>
          ) : null}
          {onSale.length > 0 ? (
            <Section title="On Sale" id="sale-heading">
              <ProductGridList products={onSale} />
            </Section>
          ) : null}
          <Section title={category ?? "All Products"} id="all-heading">
            <p className="-mt-2 text-sm text-muted-foreground">{productsAvailable(all.total)}</p>
            <PaginatedGrid
              listing={all}
              // Below the highlight rows its photos must not compete with the first row's
              // (the largest contentful paint); they load lazily (record 025).
              priorityCount={highlights ? 0 : 2}
              loadingText="Loading products..."
              empty={
                <EmptyState
                  title="No products found matching your filters"
                  clearTo={search || category ? "/shop" : undefined}
                />
              }
            />
          </Section>
        </>
      )}
    </div>
  );
}
