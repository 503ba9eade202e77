import { Carousel } from "#app/components/carousel.tsx";
import { CATEGORY_ICONS } from "#app/components/category-icons.ts";
import { ProductCard } from "#app/components/listing/product-card.tsx";
import { useLoadErrorToast } from "#app/components/load-error.tsx";
import { type Feature, FeatureList, PageSection, SectionHeading } from "#app/components/page-section.tsx";
import { StoreLink } from "#app/components/store-link.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import type { IconName } from "#app/components/ui/icon-names.ts";
import { MIN_ORDER_TEXT } from "#app/features/cart/cart.ts";
import { findProducts } from "#app/features/catalog/catalog.server.ts";
import { seoMeta, storeFromMatches, storeJsonLd } from "#app/features/catalog/seo.ts";
import { CATEGORY_PAGES, EFFECT_PAGES, type EffectPage } from "#app/features/catalog/storefront.ts";
import { CATALOGUE_PAGE } from "#app/utils/catalogue-pages.ts";
import { log } from "#app/utils/logger.server.ts";
import type { Route } from "./+types/home";

export const handle = CATALOGUE_PAGE;

/** K-9: featured limit 8 (4 s), Flower limit 10 (3 s). */
const FEATURED_LIMIT = 8;
const FLOWER_LIMIT = 10;

export async function loader() {
  const [featured, flower] = await Promise.all([
    findProducts({ featuredOnly: true }, { limit: FEATURED_LIMIT })
      .then((result) => ({ products: result.products, failed: false }))
      .catch((error: unknown) => {
        log.error("Failed to load featured products", { error: String(error) });
        return { products: [], failed: true };
      }),
    // K-8: a failed Flower carousel load is logged only.
    findProducts({ category: "Flower", featuredOnly: true }, { limit: FLOWER_LIMIT })
      .then((result) => result.products)
      .catch((error: unknown) => {
        log.error("Failed to load the Flower carousel", { error: String(error) });
        return [];
      }),
  ]);
  return { featured, flower };
}

export function meta({ matches }: Route.MetaArgs) {
  const store = storeFromMatches(matches);
  return seoMeta({
    store,
    description: `${store.name} is Washington DC's number-one weed delivery service: lab-tested, top-shelf flower, edibles, pre rolls, cartridges and concentrates delivered the same day to DC and Northern Virginia. Cash on delivery, 21+ with ID.`,
    path: "/",
    jsonLd: storeJsonLd(store, "/"),
  });
}

const FEATURE_TILES = [
  { icon: "truck", title: "Same-Day Delivery", text: "Order by 7 PM Mon–Sat or 4 PM Sun and get it today." },
  { icon: "badge-check", title: "Premium Quality", text: "Lab-tested, top-shelf products only." },
  { icon: "lock", title: "Discreet Service", text: "Unmarked, discreet and confidential delivery." },
] as const;

/** A tile linking to an effect page, its strains ("Indica and Hybrid") from the page's declaration. */
function effectTile(slug: string, title: string, icon: IconName, text: (strains: string) => string) {
  const page = EFFECT_PAGES[slug] as EffectPage;
  return { title, icon, to: `/${page.slug}`, text: text(page.strains.join(" and ")) };
}

const EFFECT_TILES = [
  effectTile("energetic", "Energizing", "zap", (strains) => `${strains} strains for an active day`),
  effectTile("relaxed", "Relaxing", "moon", (strains) => `${strains} strains to unwind`),
  effectTile("uplifted", "Uplifting", "sun", (strains) => `${strains} strains to lift your mood`),
  effectTile("balanced", "Euphoric", "sparkles", (strains) => `Well-balanced ${strains} strains`),
];

const TESTIMONIALS = [
  {
    quote:
      "Ordered before lunch and it was at my door in about half an hour. Friendly driver, quick ID check, no fuss.",
    name: "Marcus T.",
    place: "Capitol Hill",
  },
  {
    quote: "The flower is genuinely top-shelf and the menu is huge. This is my go-to delivery in DC now.",
    name: "Jenna R.",
    place: "Dupont Circle",
  },
  {
    quote:
      "Discreet packaging and they called to confirm the time. Exactly what I want from a delivery service.",
    name: "David L.",
    place: "Arlington, VA",
  },
  {
    quote: "No medical card needed and paying cash at the door is easy. The edibles were great.",
    name: "Priya S.",
    place: "Adams Morgan",
  },
];

const STATS = [
  { value: "500+", label: "Happy Customers" },
  { value: "4.9", label: "Average Rating" },
  { value: "30min", label: "Average Delivery" },
];

const STEPS = [
  {
    icon: "map-pin",
    title: "Explore Our Menu",
    text: "Browse flower, edibles, pre rolls, cartridges and more.",
  },
  {
    icon: "id-card",
    title: "Submit ID & Order",
    text: "Pick a delivery slot, upload a photo of your ID and place your order.",
  },
  {
    icon: "package-check",
    title: "Get Your Delivery",
    text: "We check your ID at the door. Pay cash on delivery.",
  },
] as const;

const HOME_FEATURES = [
  {
    icon: "clock",
    title: "Same-Day Delivery",
    text: "Most orders arrive in 2–4 hours, many in about 30 minutes.",
  },
  {
    icon: "flask-conical",
    title: "Premium Lab-Tested Quality",
    text: "Every product is lab-tested and top shelf.",
  },
  {
    icon: "lock",
    title: "Discreet Service",
    text: "Discreet and confidential, with an ID check at the door.",
  },
] as const satisfies readonly Feature[];

export default function Home({ loaderData, matches }: Route.ComponentProps) {
  const { featured, flower } = loaderData;
  // P-17: the configured store name; the tagline stays the first shop's words.
  const storeName = storeFromMatches(matches).name;
  useLoadErrorToast(featured.failed, "Failed to load featured products.");

  return (
    <div className="space-y-16 pb-16 md:space-y-24">
      {/* Hero */}
      <section
        aria-labelledby="hero-heading"
        className="relative overflow-hidden bg-forest-900 text-paper-50"
      >
        <div
          aria-hidden
          className="absolute inset-0 bg-[radial-gradient(circle_at_80%_20%,var(--color-forest-600),transparent_55%),radial-gradient(circle_at_10%_90%,var(--color-forest-700),transparent_50%)] opacity-80"
        />
        <div className="relative mx-auto max-w-7xl px-4 py-14 md:py-24">
          <p className="inline-flex items-center gap-2 rounded-full bg-forest-800 px-3 py-1 text-sm font-medium text-honey-300">
            <Icon name="star" className="size-4 fill-current" />
            #1 Weed Delivery Service in Washington DC
          </p>
          <h1
            id="hero-heading"
            className="mt-5 max-w-3xl font-display text-4xl leading-tight font-semibold md:text-6xl"
          >
            Capital Grown. Capital Delivered.
          </h1>
          <p className="mt-5 max-w-2xl text-lg text-paper-200">
            Lab-tested, top-shelf cannabis delivered the same day across DC and Northern Virginia. Order by 7
            PM Mon–Sat or 4 PM Sun. Average delivery in about 30 minutes. 21+ with a valid ID.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <StoreLink
              to="/shop"
              className={buttonVariants({ variant: "accent", size: "lg", className: "tracking-wide" })}
            >
              SHOP NOW
              <Icon name="arrow-right" />
            </StoreLink>
            <StoreLink
              to="/washington-dc-weed-delivery"
              className={buttonVariants({
                variant: "outlineOnDark",
                size: "lg",
              })}
            >
              How delivery works
            </StoreLink>
          </div>
          <ul className="mt-12 grid gap-3 sm:grid-cols-3">
            {FEATURE_TILES.map((tile) => (
              <li
                key={tile.title}
                className="flex gap-3 rounded-lg bg-forest-800/80 p-4 ring-1 ring-forest-700"
              >
                <Icon name={tile.icon} className="mt-0.5 size-6 shrink-0 text-honey-400" />
                <div>
                  <h3 className="font-semibold text-white">{tile.title}</h3>
                  <p className="text-sm text-paper-200">{tile.text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </section>

      {/* Flower carousel */}
      {flower.length > 0 ? (
        <section aria-labelledby="flower-heading" className="mx-auto max-w-7xl space-y-6 px-4">
          <div className="flex items-end justify-between gap-4">
            <SectionHeading
              id="flower-heading"
              title="Featured Flower"
              subtitle="Hand-picked, lab-tested top shelf"
            />
            <StoreLink to="/flower" className={buttonVariants({ variant: "link" })}>
              All flower
            </StoreLink>
          </div>
          <Carousel
            label="Featured flower"
            intervalMs={3000}
            perView={{ base: 1, md: 3 }}
            stopOnInteraction
            arrows="always"
            dots="never"
            className="px-1"
          >
            {flower.map((product, index) => (
              <ProductCard key={product.id} product={product} priority={index === 0} />
            ))}
          </Carousel>
        </section>
      ) : null}

      {/* Categories */}
      <PageSection
        id="categories-heading"
        title="Shop by Category"
        className="mx-auto max-w-7xl space-y-6 px-4"
      >
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7">
          {CATEGORY_PAGES.map((page) => {
            const iconName = CATEGORY_ICONS[page.name] ?? "sparkles";
            return (
              <li key={page.slug}>
                <StoreLink
                  to={`/${page.slug}`}
                  className="flex h-full min-h-28 flex-col items-center justify-center gap-3 rounded-lg border border-border bg-card p-4 text-center font-semibold shadow-card transition-colors hover:border-forest-300 hover:bg-secondary"
                >
                  <span className="inline-flex size-12 items-center justify-center rounded-full bg-secondary text-primary">
                    <Icon name={iconName} className="size-6" />
                  </span>
                  {page.name}
                </StoreLink>
              </li>
            );
          })}
        </ul>
      </PageSection>

      {/* Shop by Effect */}
      <PageSection
        id="effects-heading"
        title="Shop by Effect"
        subtitle="Find the right strain for how you want to feel"
        className="mx-auto max-w-7xl space-y-6 px-4"
      >
        <ul className="grid grid-cols-2 gap-3 md:grid-cols-4">
          {EFFECT_TILES.map((tile) => (
            <li key={tile.title}>
              <StoreLink
                to={tile.to}
                className="flex h-full flex-col gap-2 rounded-lg bg-forest-800 p-5 text-paper-50 shadow-card transition-colors hover:bg-forest-700"
              >
                <Icon name={tile.icon} className="size-7 text-honey-400" />
                <span className="font-display text-xl font-semibold">{tile.title}</span>
                <span className="text-sm text-paper-200">{tile.text}</span>
              </StoreLink>
            </li>
          ))}
        </ul>
      </PageSection>

      {/* Why choose us */}
      <PageSection
        id="why-heading"
        title={`Why Choose ${storeName}`}
        band="bg-secondary py-14"
        className="mx-auto max-w-7xl space-y-8 px-4"
      >
        <FeatureList items={HOME_FEATURES} itemClassName="rounded-lg bg-card p-6 shadow-card" />
      </PageSection>

      {/* Local SEO text */}
      <PageSection
        id="local-heading"
        title="Weed Delivery in Washington DC and Northern Virginia"
        className="mx-auto max-w-4xl space-y-4 px-4"
      >
        <p className="leading-relaxed text-foreground/90">
          {storeName} is a licensed and legal cannabis delivery service for adults 21 and over. Choose from
          500+ products (flower, edibles, pre rolls, cartridges, concentrates and mushrooms) and get them
          delivered the same day anywhere in DC and Northern Virginia. No medical card needed.
        </p>
        <p className="leading-relaxed text-foreground/90">
          {`We deliver Monday to Saturday from 10am to 8pm and Sunday from 11am to 6pm. Order by 7pm Mon–Sat or 4pm Sun for same-day delivery; most orders arrive in 2–4 hours. The minimum order is ${MIN_ORDER_TEXT} and delivery is free. Payment is cash on delivery, and our driver checks your ID in person.`}{" "}
          <StoreLink
            to="/washington-dc-weed-delivery"
            className="font-medium text-primary underline underline-offset-4"
          >
            Learn about delivery in Washington DC
          </StoreLink>
          .
        </p>
      </PageSection>

      {/* Featured carousel */}
      {featured.products.length > 0 ? (
        <section aria-labelledby="featured-heading" className="mx-auto max-w-7xl space-y-6 px-4">
          <div className="flex items-end justify-between gap-4">
            <SectionHeading id="featured-heading" title="Featured Products" />
            <StoreLink to="/shop" className={buttonVariants({ variant: "outline" })}>
              All products
              <Icon name="arrow-right" />
            </StoreLink>
          </div>
          <Carousel
            label="Featured products"
            intervalMs={4000}
            perView={{ base: 2, md: 3, lg: 4 }}
            arrows="desktop"
            dots="mobile"
          >
            {featured.products.map((product) => (
              <ProductCard key={product.id} product={product} />
            ))}
          </Carousel>
        </section>
      ) : null}

      {/* Testimonials */}
      <section aria-labelledby="testimonials-heading" className="bg-forest-900 py-14 text-paper-50">
        <div className="mx-auto max-w-4xl space-y-8 px-4">
          <h2
            id="testimonials-heading"
            className="text-center font-display text-2xl font-semibold md:text-3xl"
          >
            What Our Customers Say
          </h2>
          <Carousel label="Customer testimonials" intervalMs={4000} arrows="never" dots="always" onDark>
            {TESTIMONIALS.map((item) => (
              <figure key={item.name} className="mx-auto max-w-2xl text-center">
                <Icon name="quote" className="mx-auto size-8 text-honey-400" />
                <blockquote className="mt-4 font-display text-xl leading-relaxed md:text-2xl">
                  “{item.quote}”
                </blockquote>
                <figcaption className="mt-4 text-sm text-paper-200">
                  {item.name}, {item.place}
                </figcaption>
              </figure>
            ))}
          </Carousel>
          <dl className="grid grid-cols-3 gap-4 border-t border-forest-700 pt-8 text-center">
            {STATS.map((stat) => (
              <div key={stat.label} className="flex flex-col-reverse">
                <dt className="text-sm text-paper-200">{stat.label}</dt>
                <dd className="font-display text-3xl font-semibold text-honey-400 md:text-4xl">
                  {stat.value}
                </dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      {/* How it works */}
      <PageSection
        id="how-heading"
        title="How It Works"
        subtitle="Three simple steps to same-day delivery"
        className="mx-auto max-w-7xl space-y-8 px-4"
      >
        <ol className="grid gap-4 md:grid-cols-3">
          {STEPS.map((step, index) => (
            <li key={step.title} className="relative rounded-lg border border-border bg-card p-6 shadow-card">
              <span
                className="absolute top-4 right-4 font-display text-4xl font-semibold text-forest-100"
                aria-hidden
              >
                {index + 1}
              </span>
              <Icon name={step.icon} className="size-7 text-primary" />
              <h3 className="mt-3 font-display text-lg font-semibold">
                <span className="sr-only">Step {index + 1}: </span>
                {step.title}
              </h3>
              <p className="mt-1 text-muted-foreground">{step.text}</p>
            </li>
          ))}
        </ol>
        <p className="text-sm text-muted-foreground">
          Age verification: you must be 21 or older, and we check a valid government ID at every delivery.
        </p>
        <StoreLink to="/shop" className={buttonVariants({ size: "lg" })}>
          Start Shopping
          <Icon name="arrow-right" />
        </StoreLink>
      </PageSection>
    </div>
  );
}
