import { LegalPage } from "#app/components/legal-page.tsx";
import { MIN_ORDER_TEXT } from "#app/features/cart/cart.ts";
import { storeFromMatches, storePageMeta } from "#app/features/catalog/seo.ts";
import { CATALOGUE_PAGE } from "#app/utils/catalogue-pages.ts";
import type { Route } from "./+types/terms";

export const handle = CATALOGUE_PAGE;

export function meta({ matches }: Route.MetaArgs) {
  return storePageMeta(matches, {
    title: "Terms of Service",
    description: (name) =>
      `The terms for ordering from ${name}: age requirement, minimum order, delivery and payment.`,
    path: "/terms",
  });
}

export default function Terms({ matches }: Route.ComponentProps) {
  const store = storeFromMatches(matches);
  return (
    <LegalPage title="Terms of Service" updated="November 2026">
      <p>By using this website or ordering from {store.name}, you agree to these terms.</p>
      <h2>Eligibility</h2>
      <p>
        You must be 21 or older to use this site and to order. A valid government-issued photo ID is checked
        in person at every delivery; we cannot hand over an order without it.
      </p>
      <h2>Orders</h2>
      <ul>
        <li>{`The minimum order is ${MIN_ORDER_TEXT}. There is no delivery fee.`}</li>
        <li>Prices and availability are confirmed when you place your order.</li>
        <li>
          Delivery is available today or tomorrow in two-hour windows, in Washington DC and Northern Virginia.
        </li>
        <li>Same-day orders must be placed by 7 PM Monday to Saturday and by 4 PM on Sunday.</li>
      </ul>
      <h2>Payment</h2>
      <p>Payment is cash only, on delivery.</p>
      <h2>Responsible use</h2>
      <p>
        Consume responsibly, never drive under the influence, and keep cannabis products away from children
        and pets. These products have not been evaluated by the Food and Drug Administration and are not
        intended to diagnose, treat, cure or prevent any disease.
      </p>
      <h2>Contact</h2>
      <p>
        {store.email} · {store.phone}
      </p>
    </LegalPage>
  );
}
