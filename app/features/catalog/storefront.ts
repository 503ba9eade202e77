/** Storefront vocabulary and rules shared by loaders and components (K-2, K-3). No React, no DB. */
import { CATEGORIES, CATEGORY_SLUGS, type Category, type Strain } from "./catalog.ts";

export const PAGE_SIZE = 24;

export const EFFECTS = ["Uplifted", "Relaxed", "Energetic", "Calm", "Balanced"] as const;
export type Effect = (typeof EFFECTS)[number];

export const EFFECT_SLUGS: Record<Effect, string> = {
  Uplifted: "uplifted",
  Relaxed: "relaxed",
  Energetic: "energetic",
  Calm: "calm",
  Balanced: "balanced",
};

/**
 * K-3: on category pages Sativa gives Uplifted, Indica gives Relaxed, Hybrid gives Balanced.
 * Sativa is also listed for Energetic and Indica for Calm, but the first match wins.
 */
const EFFECT_STRAINS: ReadonlyArray<[Effect, Strain]> = [
  ["Uplifted", "Sativa"],
  ["Relaxed", "Indica"],
  ["Energetic", "Sativa"],
  ["Calm", "Indica"],
  ["Balanced", "Hybrid"],
];

export function strainEffect(strain: string | null | undefined): Effect | null {
  return EFFECT_STRAINS.find(([, s]) => s === strain)?.[0] ?? null;
}

/** The strain a category-page effect filter selects (null: no strain gives that effect). */
export function strainForEffectFilter(effect: Effect): Strain | null {
  for (const [, strain] of EFFECT_STRAINS) {
    if (strainEffect(strain) === effect) return strain;
  }
  return null;
}

/** Effects a category-page filter can actually select: Uplifted, Relaxed, Balanced (no dead buttons). */
export const CATEGORY_EFFECT_FILTERS: readonly Effect[] = EFFECTS.filter(
  (effect) => strainForEffectFilter(effect) !== null,
);

export function parseEffect(value: string | null | undefined): Effect | null {
  return EFFECTS.find((effect) => effect.toLowerCase() === (value ?? "").toLowerCase()) ?? null;
}

/** Effect pages (K-2 table). */
export type EffectPage = {
  effect: Effect;
  slug: string;
  subtitle: string;
  strains: readonly Strain[];
  heading: string;
  loadingText: string;
  searchPlaceholder: string;
  emptyText: string;
  description: string;
};

export const EFFECT_PAGES: Record<string, EffectPage> = {
  uplifted: {
    effect: "Uplifted",
    slug: "uplifted",
    subtitle: "Energizing Sativa strains to lift your mood",
    strains: ["Sativa"],
    heading: "Uplifting Sativa Products",
    loadingText: "Loading uplifting products...",
    searchPlaceholder: "Search uplifting products...",
    emptyText: "No uplifting products found",
    description:
      "Uplifting Sativa flower, pre-rolls and more, delivered same day in Washington DC and Northern Virginia.",
  },
  relaxed: {
    effect: "Relaxed",
    slug: "relaxed",
    subtitle: "Calming Indica and Hybrid strains for relaxation",
    strains: ["Indica", "Hybrid"],
    heading: "Relaxing Products",
    loadingText: "Loading relaxing products...",
    searchPlaceholder: "Search relaxing products...",
    emptyText: "No relaxing products found.",
    description:
      "Relaxing Indica and Hybrid products, delivered same day in Washington DC and Northern Virginia.",
  },
  energetic: {
    effect: "Energetic",
    slug: "energetic",
    subtitle: "High-energy Sativa strains for an active lifestyle",
    strains: ["Sativa"],
    heading: "Energetic Sativa Products",
    loadingText: "Loading energetic products...",
    searchPlaceholder: "Search energetic products...",
    emptyText: "No energetic products found.",
    description:
      "High-energy Sativa products for an active day, delivered same day in Washington DC and Northern Virginia.",
  },
  calm: {
    effect: "Calm",
    slug: "calm",
    subtitle: "Balanced Hybrid strains for peaceful tranquility",
    strains: ["Hybrid"],
    heading: "Calming Hybrid Products",
    loadingText: "Loading calming products...",
    searchPlaceholder: "Search calming products...",
    emptyText: "No calming products found.",
    description:
      "Calming Hybrid products for peaceful evenings, delivered same day in Washington DC and Northern Virginia.",
  },
  balanced: {
    effect: "Balanced",
    slug: "balanced",
    subtitle: "Well-balanced Hybrid strains for versatile effects",
    strains: ["Hybrid"],
    heading: "Balanced Hybrid Products",
    loadingText: "Loading balanced products...",
    searchPlaceholder: "Search balanced products...",
    emptyText: "No balanced products found.",
    description:
      "Well-balanced Hybrid products for versatile effects, delivered same day in Washington DC and Northern Virginia.",
  },
};

/** Strain effect presets shown on the product page (K-3). */
export const STRAIN_EFFECTS: Record<Strain, { effects: readonly string[]; summary: string }> = {
  Sativa: {
    effects: ["Uplifting", "Energetic", "Creative", "Focus"],
    summary: "Energizing daytime effects.",
  },
  Indica: {
    effects: ["Relaxing", "Calming", "Sleepy", "Pain Relief"],
    summary: "Ideal for evening use and stress relief.",
  },
  Hybrid: {
    effects: ["Balanced", "Versatile", "Mood Enhancement", "Moderate"],
    summary: "A balance of both Sativa and Indica effects.",
  },
};

/** Category pages: the six categories and Deals (P-14). */
export type CategoryPage = { name: Category | "Deals"; slug: string; dealsOnly: boolean };

export const CATEGORY_PAGES: readonly CategoryPage[] = [
  ...CATEGORIES.map((name) => ({ name, slug: CATEGORY_SLUGS[name], dealsOnly: false })),
  { name: "Deals", slug: "deals", dealsOnly: true },
];

export function categoryPageBySlug(slug: string) {
  return CATEGORY_PAGES.find((page) => page.slug === slug);
}

/** The 1-based page number from `?page=`, clamped to something sane. */
export function parsePage(value: string | null) {
  const page = Number.parseInt(value ?? "1", 10);
  return Number.isFinite(page) && page >= 1 ? Math.min(page, 100) : 1;
}

/** `?only=1`: the grid asks for one more page to append, not the whole range. */
export function parseOnly(value: string | null) {
  return value === "1";
}

/** A search term from `?q=`, trimmed and bounded. */
/**
 * The search box's text as the query uses it: control characters (NUL, which PostgreSQL refuses in
 * text, line breaks, escapes) become spaces, runs of spaces one, at most 100 characters.
 */
export function parseSearch(value: string | null) {
  return (value ?? "")
    .replace(/[\p{Cc}\p{Cs}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 100);
}

/**
 * The slug of a category or effect page from the route it matched ("flower" for the route
 * "/flower", a loader's `pattern`): the route config declares the page, the URL is not parsed.
 */
export function pageSlug(routePattern: string) {
  return routePattern.replace(/^\/+|\/+$/g, "");
}

/** "24 products available" as one string (one text node, the same on the server and in tests). */
export function productsAvailable(total: number) {
  return `${total} ${total === 1 ? "product" : "products"} available`;
}
