/** Pieces shared by the shop, category and effect pages: search, category and effect rows, product grid. */
import { useEffect, useRef, useState } from "react";
import { Form, useFetcher, useLocation, useNavigation, useSubmit } from "react-router";
import { StoreLink } from "#app/components/store-link.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Icon, type IconName } from "#app/components/ui/icon.tsx";
import { cn } from "#app/utils/cn.ts";
import { ProductCardCell } from "./product-card-cell.tsx";
import type { CardProduct } from "./product-card-view.tsx";

/**
 * A GET search form (works without JavaScript); with JavaScript it also searches as the shopper types.
 * Other query parameters (category, effect) are kept; the page number is reset.
 */
export function SearchForm({
  placeholder,
  defaultValue,
  keep = {},
}: {
  placeholder: string;
  defaultValue: string;
  keep?: Record<string, string | null | undefined>;
}) {
  const submit = useSubmit();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => () => clearTimeout(timer.current), []);
  // Keep the box in step with the URL (back/forward, category links).
  useEffect(() => {
    if (inputRef.current && document.activeElement !== inputRef.current)
      inputRef.current.value = defaultValue;
  }, [defaultValue]);

  return (
    <Form method="get" role="search" className="relative" preventScrollReset>
      {Object.entries(keep).map(([name, value]) =>
        value ? <input key={name} type="hidden" name={name} value={value} /> : null,
      )}
      <label htmlFor="product-search" className="sr-only">
        {placeholder.replace(/\.\.\.$/, "")}
      </label>
      <Icon
        name="search"
        className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-muted-foreground"
      />
      <input
        ref={inputRef}
        id="product-search"
        type="search"
        name="q"
        defaultValue={defaultValue}
        placeholder={placeholder}
        autoComplete="off"
        enterKeyHint="search"
        onChange={(event) => {
          const form = event.currentTarget.form;
          clearTimeout(timer.current);
          timer.current = setTimeout(() => {
            if (form) submit(form, { replace: true, preventScrollReset: true });
          }, 300);
        }}
        className="block min-h-12 w-full rounded-full border border-input bg-card py-2 pr-14 pl-10 text-base shadow-card placeholder:text-muted-foreground focus-visible:outline-3 focus-visible:outline-ring sm:pr-24"
      />
      <button
        type="submit"
        className="absolute top-1/2 right-0.5 inline-flex size-11 -translate-y-1/2 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground hover:bg-primary-hover sm:w-auto sm:px-4"
      >
        <Icon name="arrow-right" className="size-4 sm:hidden" />
        <span className="sr-only sm:not-sr-only">Search</span>
      </button>
    </Form>
  );
}

export type ChipLink = { label: string; to: string; active: boolean; icon?: IconName };

/** A horizontally scrolling row of link chips (categories, effects). */
export function ChipRow({
  label,
  items,
  size = "md",
}: {
  label: string;
  items: ChipLink[];
  size?: "md" | "lg";
}) {
  return (
    <nav aria-label={label} className="-mx-4 overflow-x-auto px-4 [scrollbar-width:none]">
      <ul className="flex w-max gap-2 py-1">
        {items.map((item) => {
          return (
            <li key={item.label}>
              <StoreLink
                to={item.to}
                preventScrollReset
                aria-current={item.active ? "page" : undefined}
                className={cn(
                  "inline-flex items-center gap-2 rounded-full border text-sm font-medium whitespace-nowrap transition-colors",
                  size === "lg" ? "min-h-12 px-4" : "min-h-11 px-4",
                  item.active
                    ? "border-primary bg-primary text-primary-foreground"
                    : "border-border bg-card text-foreground hover:border-forest-300 hover:bg-secondary",
                )}
              >
                {item.icon ? <Icon name={item.icon} className="size-4" /> : null}
                {item.label}
              </StoreLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The "Filter by Effect" row of the shop and category pages: a heading and the effect chips. */
export function EffectFilters({ items }: { items: ChipLink[] }) {
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
      <h2 className="shrink-0 text-sm font-semibold text-muted-foreground">Filter by Effect</h2>
      <ChipRow label="Filter by Effect" items={items} />
    </div>
  );
}

/** True while a new version of the current page (other search, filter or page) is loading. */
export function useListingPending() {
  const navigation = useNavigation();
  const location = useLocation();
  return navigation.state === "loading" && navigation.location?.pathname === location.pathname;
}

export function ProductGridList({
  products,
  priorityCount = 0,
}: {
  products: CardProduct[];
  priorityCount?: number;
}) {
  return (
    <ul className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4">
      {products.map((product, index) => (
        <ProductCardCell key={product.id} product={product} priority={index < priorityCount} />
      ))}
    </ul>
  );
}

type GridListing = { products: CardProduct[]; total: number; page: number };

/**
 * The paginated product grid. The server renders the first `page * PAGE_SIZE` products; 'Load more'
 * is a plain link to the next `?page=` (works without JavaScript). With JavaScript the next page is
 * fetched on its own (`?page=N&only=1`, 24 products, never the whole range again) and appended, by
 * the button or by itself when the shopper scrolls near the end.
 */
export function PaginatedGrid({
  listing,
  loadingText,
  empty,
  priorityCount = 2,
}: {
  listing: GridListing;
  loadingText: string;
  empty: React.ReactNode;
  /** Cards whose photo loads eagerly and first: the grid's first row when it starts the page. */
  priorityCount?: number;
}) {
  const { products, total, page } = listing;
  const navigating = useListingPending();
  const location = useLocation();
  const fetcher = useFetcher<{ listing?: GridListing }>();
  const sentinel = useRef<HTMLDivElement>(null);
  const [appended, setAppended] = useState<{ base: CardProduct[]; pages: GridListing[] }>({
    base: products,
    pages: [],
  });
  // A new first range (other search, filter or page) starts over.
  const pages = appended.base === products ? appended.pages : [];
  const lastPage = pages.length > 0 ? (pages[pages.length - 1] as GridListing).page : page;
  const seen = new Set(products.map((product) => product.id));
  const shown = [...products];
  for (const more of pages) {
    for (const product of more.products) {
      if (!seen.has(product.id)) {
        seen.add(product.id);
        shown.push(product);
      }
    }
  }
  const latestTotal = pages.length > 0 ? (pages[pages.length - 1] as GridListing).total : total;
  const hasMore =
    shown.length < latestTotal &&
    (pages.length === 0 || (pages[pages.length - 1] as GridListing).products.length > 0);
  const loadingMore = fetcher.state !== "idle";
  const pending = navigating || loadingMore;

  const params = new URLSearchParams(location.search);
  params.set("page", String(lastPage + 1));
  const nextHref = `${location.pathname}?${params}`;
  params.set("only", "1");
  const fetchHref = `${location.pathname}?${params}`;

  useEffect(() => {
    const data = fetcher.data?.listing;
    if (fetcher.state !== "idle" || !data) return;
    setAppended((current) => {
      const base = current.base === products ? current : { base: products, pages: [] };
      if (base.pages.some((loaded) => loaded.page === data.page) || data.page <= page) return base;
      return { base: products, pages: [...base.pages, data] };
    });
  }, [fetcher.state, fetcher.data, products, page]);

  // A page fetched for this list but not appended yet must not be asked for again.
  const requestedFor = useRef<CardProduct[] | null>(null);
  const unapplied = requestedFor.current === products && (fetcher.data?.listing?.page ?? 0) > lastPage;
  const load = () => {
    requestedFor.current = products;
    fetcher.load(fetchHref);
  };
  const loadMore = () => {
    if (fetcher.state === "idle" && !navigating && !unapplied) load();
  };
  const latestLoad = useRef(load);
  latestLoad.current = load;
  const fetcherIdle = fetcher.state === "idle";

  useEffect(() => {
    const element = sentinel.current;
    if (!element || !hasMore || pending || unapplied || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && window.scrollY > 0 && fetcherIdle) {
          latestLoad.current();
        }
      },
      { rootMargin: "600px 0px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasMore, pending, unapplied, fetcherIdle]);

  return (
    <div aria-busy={pending}>
      <p
        role="status"
        aria-live="polite"
        className={cn("text-sm text-muted-foreground", !pending && "sr-only")}
      >
        {pending ? loadingText : ""}
      </p>
      {shown.length === 0 ? (
        navigating ? null : (
          empty
        )
      ) : (
        <div className={cn("transition-opacity", navigating && "opacity-60")}>
          <ProductGridList products={shown} priorityCount={priorityCount} />
        </div>
      )}
      {hasMore ? (
        <div ref={sentinel} className="mt-8 flex flex-col items-center gap-2">
          <p className="text-sm text-muted-foreground">{`Showing ${shown.length} of ${latestTotal}`}</p>
          <StoreLink
            to={nextHref}
            replace
            preventScrollReset
            onClick={(event) => {
              event.preventDefault();
              loadMore();
            }}
            className={buttonVariants({ variant: "outline", size: "lg" })}
            aria-disabled={pending || undefined}
          >
            {loadingMore ? loadingText : "Load more"}
          </StoreLink>
        </div>
      ) : null}
    </div>
  );
}

export function EmptyState({ title, hint, clearTo }: { title: string; hint?: string; clearTo?: string }) {
  return (
    <div className="rounded-lg border border-dashed border-paper-300 bg-card px-6 py-14 text-center">
      <p className="font-display text-xl font-semibold text-foreground">{title}</p>
      {hint ? <p className="mt-2 text-muted-foreground">{hint}</p> : null}
      {clearTo ? (
        <StoreLink to={clearTo} className={buttonVariants({ variant: "outline", className: "mt-5" })}>
          Clear search and filters
        </StoreLink>
      ) : null}
    </div>
  );
}
