import { Form } from "react-router";
import { CATEGORY_ICONS } from "#app/components/category-icons.ts";
import { type Feature, FeatureList, PageSection } from "#app/components/page-section.tsx";
import { telHref } from "#app/components/store-header.tsx";
import { StoreLink } from "#app/components/store-link.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { fieldClasses } from "#app/components/ui/input.tsx";
import { MIN_ORDER_TEXT } from "#app/features/cart/cart.ts";
import { seoMeta, storeFromMatches, storeJsonLd } from "#app/features/catalog/seo.ts";
import { checkDeliveryZip, type ZipCheckAnswer } from "#app/features/delivery/delivery.server.ts";
import { cataloguePage } from "#app/utils/catalogue-pages.ts";
import type { Route } from "./+types/landing-dc";

export const handle = cataloguePage(["zip"]);

const PATH = "/washington-dc-weed-delivery";

const FAQ = [
  {
    question: "Is weed delivery legal in Washington DC?",
    answer:
      "Adults 21 and over may possess and use cannabis in DC. We are a licensed and legal delivery service, and every order is handed over only after an in-person ID check.",
  },
  {
    question: "Do I need a medical card?",
    answer:
      "No medical card needed. You only need to be 21 or older with a valid government-issued photo ID.",
  },
  {
    question: "What is the minimum order and is there a delivery fee?",
    answer: `The minimum order is ${MIN_ORDER_TEXT} and there is no delivery fee.`,
  },
  {
    question: "How fast is delivery?",
    answer:
      "We deliver the same day. Order by 7 PM Monday to Saturday or by 4 PM on Sunday. Most orders arrive in 2–4 hours, and many in about 30 minutes.",
  },
  {
    question: "What are your delivery hours?",
    answer: "Monday to Saturday 10am–8pm and Sunday 11am–6pm, in two-hour delivery windows.",
  },
  {
    question: "How do I pay?",
    answer: "Cash only, paid on delivery. Please have the exact amount ready if you can.",
  },
];

/**
 * 'Do we deliver to you?' (P-21): a GET form, so it works without JavaScript. The page is
 * cached only without `zip` (the page cache renders every `zip=` request, see
 * app/server/page-cache.server.ts), so an answer is always read from the current zones.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const zip = new URL(request.url).searchParams.get("zip");
  return { zipCheck: zip === null ? null : await checkDeliveryZip(zip) };
}

export function meta({ matches }: Route.MetaArgs) {
  const store = storeFromMatches(matches);
  return seoMeta({
    store,
    title: "Washington DC Weed Delivery – Same-Day Cannabis Delivery",
    description: `Same-day weed delivery in Washington DC from ${store.name}: Georgetown, Dupont Circle, Capitol Hill, Shaw and more. $80 minimum, no delivery fee, cash on delivery, 21+ with ID.`,
    path: PATH,
    jsonLd: [
      storeJsonLd(store, PATH),
      {
        "@context": "https://schema.org",
        "@type": "FAQPage",
        mainEntity: FAQ.map((item) => ({
          "@type": "Question",
          name: item.question,
          acceptedAnswer: { "@type": "Answer", text: item.answer },
        })),
      },
    ],
  });
}

const LANDING_FEATURES = [
  { icon: "clock", title: "Same-Day Delivery", text: "Most orders arrive in 2–4 hours." },
  {
    icon: "shopping-bag",
    title: "Wide Selection",
    text: "Pre-rolls, house joints, concentrates and more: 500+ products.",
  },
  {
    icon: "heart-handshake",
    title: "Community Focus",
    text: "A local DC team serving our neighbors.",
  },
] as const satisfies readonly Feature[];

const STEPS = [
  {
    icon: "id-card",
    title: "Age Verification",
    text: "Confirm you are 21 or older. We check your ID in person at delivery.",
  },
  {
    icon: "store",
    title: "Browse Our Menu",
    text: "Flower, edibles, pre rolls, cartridges, concentrates and more.",
  },
  {
    icon: "shopping-bag",
    title: "Place Your Order",
    text: "Choose a two-hour delivery window and check out as a guest.",
  },
  {
    icon: "truck",
    title: "Same-Day Delivery",
    text: "Order by 7 PM Mon–Sat or 4 PM Sun; pay cash at your door.",
  },
] as const;

const AREAS = [
  { region: "Northwest", neighborhoods: ["Georgetown", "Adams Morgan", "Dupont Circle", "Foggy Bottom"] },
  { region: "Northeast", neighborhoods: ["Capitol Hill", "Shaw", "H Street Corridor", "Union Market"] },
];

const TEASERS = [
  { title: "Full Menu", to: "/shop", icon: "All", text: "Everything we carry, 500+ products" },
  { title: "Flower", to: "/flower", icon: "Flower", text: "Top-shelf, lab-tested strains" },
  { title: "Edibles", to: "/edibles", icon: "Edibles", text: "Gummies, chocolates and more" },
  { title: "Concentrates", to: "/concentrates", icon: "Concentrates", text: "Wax, shatter and live resin" },
] as const;

function ZipCheck({ answer }: { answer: ZipCheckAnswer | null }) {
  return (
    <div id="zip-check" className="max-w-xl scroll-mt-24 rounded-lg bg-card p-5 shadow-card">
      <Form
        method="get"
        action={`${PATH}#zip-check`}
        preventScrollReset
        className="flex flex-wrap items-end gap-3"
      >
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <label htmlFor="zip-check-input" className="font-display text-lg font-semibold">
            Do we deliver to you?
          </label>
          <input
            id="zip-check-input"
            name="zip"
            inputMode="numeric"
            autoComplete="postal-code"
            placeholder="Your ZIP code"
            defaultValue={answer?.zip ?? ""}
            maxLength={10}
            aria-describedby={answer ? "zip-check-answer" : undefined}
            className={fieldClasses}
          />
        </div>
        <button type="submit" className={buttonVariants({ size: "md" })}>
          Check
        </button>
      </Form>
      <p id="zip-check-answer" role="status" className="mt-3 text-sm empty:hidden">
        {answer ? (
          <span className={answer.delivers ? "font-semibold text-primary" : "text-destructive"}>
            {answer.message}
          </span>
        ) : null}
      </p>
    </div>
  );
}

export default function LandingDc({ matches, loaderData }: Route.ComponentProps) {
  const store = storeFromMatches(matches);
  return (
    <div className="space-y-16 pb-16 md:space-y-20">
      <section aria-labelledby="landing-heading" className="bg-forest-900 text-paper-50">
        <div className="mx-auto max-w-6xl px-4 py-14 md:py-20">
          <p className="inline-flex items-center gap-2 text-sm font-medium text-honey-300">
            <Icon name="map-pin" className="size-4" />
            Washington DC &amp; Northern Virginia
          </p>
          <h1
            id="landing-heading"
            className="mt-3 font-display text-4xl leading-tight font-semibold md:text-5xl"
          >
            Washington DC Weed Delivery
          </h1>
          <p className="mt-4 max-w-2xl text-lg text-paper-200">
            Same-day cannabis delivery from {store.name}, the capital's number-one weed delivery service.{" "}
            {`Lab-tested, top-shelf products, discreet delivery, ${MIN_ORDER_TEXT} minimum and no delivery fee.`}
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <StoreLink to="/shop" className={buttonVariants({ variant: "accent", size: "lg" })}>
              Shop the Menu
              <Icon name="arrow-right" />
            </StoreLink>
            <a
              href={telHref(store.phone)}
              className={buttonVariants({
                variant: "outlineOnDark",
                size: "lg",
              })}
            >
              <Icon name="phone" />
              {store.phone}
            </a>
          </div>
        </div>
      </section>

      <PageSection id="steps-heading" title="How It Works">
        <ol className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {STEPS.map((step, index) => (
            <li key={step.title} className="rounded-lg border border-border bg-card p-5 shadow-card">
              <span className="text-sm font-semibold text-muted-foreground">Step {index + 1}</span>
              <Icon name={step.icon} className="mt-2 size-7 text-primary" />
              <h3 className="mt-2 font-display text-lg font-semibold">{step.title}</h3>
              <p className="mt-1 text-sm text-muted-foreground">{step.text}</p>
            </li>
          ))}
        </ol>
      </PageSection>

      <PageSection id="areas-heading" title="Delivery Areas" band="bg-secondary py-14">
        <p className="max-w-3xl text-foreground/90">
          We deliver across all of Washington DC and Northern Virginia, including these neighborhoods:
        </p>
        <ZipCheck answer={loaderData.zipCheck} />
        <div className="grid gap-4 md:grid-cols-2">
          {AREAS.map((area) => (
            <div key={area.region} className="rounded-lg bg-card p-6 shadow-card">
              <h3 className="font-display text-xl font-semibold">{area.region}</h3>
              <ul className="mt-3 grid grid-cols-2 gap-2">
                {area.neighborhoods.map((name) => (
                  <li key={name} className="flex items-center gap-2 text-foreground/90">
                    <Icon name="map-pin" className="size-4 text-primary" />
                    {name}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      </PageSection>

      <PageSection id="teasers-heading" title="Popular on Our Menu">
        <ul className="grid grid-cols-2 gap-3 md:grid-cols-4">
          {TEASERS.map((teaser) => {
            const iconName = CATEGORY_ICONS[teaser.icon] ?? "store";
            return (
              <li key={teaser.to}>
                <StoreLink
                  to={teaser.to}
                  className="flex h-full flex-col gap-2 rounded-lg border border-border bg-card p-5 shadow-card hover:border-forest-300 hover:bg-secondary"
                >
                  <Icon name={iconName} className="size-7 text-primary" />
                  <span className="font-display text-lg font-semibold">{teaser.title}</span>
                  <span className="text-sm text-muted-foreground">{teaser.text}</span>
                </StoreLink>
              </li>
            );
          })}
        </ul>
      </PageSection>

      <PageSection id="why-heading" title={`Why Choose ${store.name}`}>
        <FeatureList
          items={LANDING_FEATURES}
          itemClassName="rounded-lg border border-border bg-card p-6 shadow-card"
        />
      </PageSection>

      <PageSection
        id="faq-heading"
        title="Frequently Asked Questions"
        className="mx-auto max-w-3xl space-y-6 px-4"
      >
        <div className="divide-y divide-border rounded-lg border border-border bg-card">
          {FAQ.map((item) => (
            <details key={item.question} className="group px-5">
              <summary className="flex min-h-14 cursor-pointer list-none items-center justify-between gap-4 py-3 font-semibold [&::-webkit-details-marker]:hidden">
                {item.question}
                <Icon
                  name="chevron-down"
                  className="size-5 shrink-0 transition-transform group-open:rotate-180"
                />
              </summary>
              <p className="pb-4 text-muted-foreground">{item.answer}</p>
            </details>
          ))}
        </div>
      </PageSection>

      <section aria-labelledby="support-heading" className="mx-auto max-w-3xl px-4">
        <div className="rounded-xl bg-forest-900 p-8 text-center text-paper-50">
          <h2 id="support-heading" className="font-display text-2xl font-semibold">
            Questions? Call Our Support Line
          </h2>
          <p className="mt-2 text-paper-200">
            Mon–Sat 10am–8pm, Sun 11am–6pm. Same-day cut-off: 7 PM Mon–Sat, 4 PM Sun.
          </p>
          <a
            href={telHref(store.phone)}
            className={buttonVariants({ variant: "accent", size: "lg", className: "mt-5" })}
          >
            <Icon name="phone" />
            {store.phone}
          </a>
        </div>
      </section>
    </div>
  );
}
