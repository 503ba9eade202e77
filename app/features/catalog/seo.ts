/** Titles, descriptions, canonical URLs, Open Graph and JSON-LD for public pages. Pure: no React, no DB. */
import { productPath, unitPriceCents } from "./catalog.ts";

export type SeoStore = { name: string; phone: string; email: string; address: string; publicUrl: string };

type MetaDescriptor = Record<string, unknown>;

/** The store info loaded by the storefront layout, found among a meta function's matches. */
export function storeFromMatches(
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>,
): SeoStore {
  const layout = matches.find((match) => match?.id === "routes/_store/layout");
  const data = layout?.loaderData as { store?: SeoStore } | undefined;
  return (
    data?.store ?? {
      name: "Capital Grown",
      phone: "",
      email: "",
      address: "Washington, DC",
      publicUrl: "",
    }
  );
}

export function absoluteUrl(store: SeoStore, path: string) {
  if (/^https?:\/\//.test(path)) return path;
  return `${store.publicUrl}${path.startsWith("/") ? path : `/${path}`}`;
}

/** The meta of a plain store page: its title, a description naming the store, and its path. */
export function storePageMeta(
  matches: Parameters<typeof storeFromMatches>[0],
  page: { title: string; description: (storeName: string) => string; path: string },
) {
  const store = storeFromMatches(matches);
  return seoMeta({ store, title: page.title, description: page.description(store.name), path: page.path });
}

/** The meta of a page no search engine should list (checkout, an order, the account): title and noindex. */
export function privatePageMeta(matches: Parameters<typeof storeFromMatches>[0], title: string) {
  return [{ title: `${title} | ${storeFromMatches(matches).name}` }, { name: "robots", content: "noindex" }];
}

export function seoMeta({
  store,
  title,
  description,
  path,
  image,
  type = "website",
  jsonLd,
  noindex = false,
}: {
  store: SeoStore;
  /** Page title without the store name; omit for the home page. */
  title?: string;
  description: string;
  path: string;
  image?: string;
  type?: "website" | "product" | "article";
  jsonLd?: Record<string, unknown> | Record<string, unknown>[];
  noindex?: boolean;
}): MetaDescriptor[] {
  const fullTitle = title
    ? `${title} | ${store.name}`
    : `${store.name} | Same-Day Cannabis Delivery in Washington DC`;
  const url = absoluteUrl(store, path);
  const tags: MetaDescriptor[] = [
    { title: fullTitle },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: store.name },
    { property: "og:type", content: type === "product" ? "product" : type },
    { property: "og:title", content: fullTitle },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
  ];
  if (image) tags.push({ property: "og:image", content: absoluteUrl(store, image) });
  if (noindex) tags.push({ name: "robots", content: "noindex" });
  if (jsonLd) tags.push({ "script:ld+json": jsonLd });
  return tags;
}

const OPENING_HOURS = [
  {
    dayOfWeek: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"],
    opens: "10:00",
    closes: "20:00",
  },
  { dayOfWeek: ["Sunday"], opens: "11:00", closes: "18:00" },
];

/** LocalBusiness/Store for the home page and the local landing page. */
export function storeJsonLd(store: SeoStore, path = "/") {
  return {
    "@context": "https://schema.org",
    "@type": "Store",
    name: store.name,
    url: absoluteUrl(store, path),
    telephone: store.phone,
    email: store.email,
    slogan: `${store.name}. Capital Delivered.`,
    address: {
      "@type": "PostalAddress",
      streetAddress: store.address,
      addressRegion: "DC",
      addressCountry: "US",
    },
    areaServed: ["Washington, DC", "Northern Virginia"],
    paymentAccepted: "Cash",
    currenciesAccepted: "USD",
    openingHoursSpecification: OPENING_HOURS.map((hours) => ({
      "@type": "OpeningHoursSpecification",
      ...hours,
    })),
  };
}

type JsonLdProduct = {
  slug: string;
  name: string;
  description: string;
  category: string;
  imageUrl: string;
  sizes: { size: string; priceCents: number; salePriceCents: number | null; inStock: boolean }[];
};

/** Product with an Offer per size for the product page. */
export function productJsonLd(store: SeoStore, product: JsonLdProduct) {
  const url = absoluteUrl(store, productPath(product));
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: product.name,
    description: product.description,
    category: product.category,
    url,
    ...(product.imageUrl ? { image: absoluteUrl(store, product.imageUrl) } : {}),
    brand: { "@type": "Brand", name: store.name },
    offers: product.sizes.map((size) => ({
      "@type": "Offer",
      name: size.size,
      url,
      priceCurrency: "USD",
      price: (unitPriceCents(size) / 100).toFixed(2),
      availability: size.inStock ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
      seller: { "@type": "Organization", name: store.name },
    })),
  };
}
