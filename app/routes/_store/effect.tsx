import { data } from "react-router";
import { EmptyState, PaginatedGrid, SearchForm } from "#app/components/listing/listing.tsx";
import { LoadErrorNotice, useLoadErrorToast } from "#app/components/load-error.tsx";
import { listingQuery, loadListing } from "#app/features/catalog/listing.server.ts";
import { seoMeta, storeFromMatches } from "#app/features/catalog/seo.ts";
import { EFFECT_PAGES, pageSlug, productsAvailable } from "#app/features/catalog/storefront.ts";
import { cataloguePage } from "#app/utils/catalogue-pages.ts";
import { requestInfoContext } from "#app/utils/request-context.ts";
import type { Route } from "./+types/effect";

export const handle = cataloguePage(["q", "page", "only"]);

export async function loader({ url, pattern, context }: Route.LoaderArgs) {
  const slug = pageSlug(pattern);
  const page = EFFECT_PAGES[slug];
  if (!page) throw data(null, { status: 404 });
  const query = await listingQuery(url.searchParams, context.get(requestInfoContext).clientAddress);
  const { search } = query;
  const listing = await loadListing({ strains: page.strains, search }, query.page, query.only);
  return { slug, search, listing };
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  const page = EFFECT_PAGES[loaderData?.slug ?? ""];
  return seoMeta({
    store: storeFromMatches(matches),
    title: page ? `${page.effect} | ${page.heading}` : "Shop by Effect",
    description: page?.description ?? "Shop cannabis by effect.",
    path: `/${loaderData?.slug ?? ""}`,
  });
}

export default function EffectPage({ loaderData }: Route.ComponentProps) {
  const { slug, search, listing } = loaderData;
  const page = EFFECT_PAGES[slug];
  useLoadErrorToast(listing.failed, "Failed to load products. Please try again.");
  if (!page) return null;
  return (
    <div className="mx-auto max-w-7xl space-y-6 px-4 py-8 md:py-12">
      <header className="space-y-2 rounded-xl bg-secondary px-5 py-8 md:px-8">
        <h1 className="font-display text-3xl font-semibold text-primary md:text-4xl">{page.effect}</h1>
        <p className="text-lg text-forest-700">{page.subtitle}</p>
      </header>
      <SearchForm placeholder={page.searchPlaceholder} defaultValue={search} />
      <section aria-labelledby="effect-heading" className="space-y-4">
        <div>
          <h2 id="effect-heading" className="font-display text-2xl font-semibold text-primary">
            {page.heading}
          </h2>
          <p className="text-sm text-muted-foreground">{productsAvailable(listing.total)}</p>
        </div>
        <LoadErrorNotice failed={listing.failed} text="Failed to load products. Please try again." />
        <PaginatedGrid
          listing={listing}
          loadingText={page.loadingText}
          empty={
            listing.failed ? null : (
              <EmptyState title={page.emptyText} clearTo={search ? `/${slug}` : undefined} />
            )
          }
        />
      </section>
    </div>
  );
}
