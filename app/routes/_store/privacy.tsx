import { LegalPage } from "#app/components/legal-page.tsx";
import { storeFromMatches, storePageMeta } from "#app/features/catalog/seo.ts";
import { CATALOGUE_PAGE } from "#app/utils/catalogue-pages.ts";
import type { Route } from "./+types/privacy";

export const handle = CATALOGUE_PAGE;

export function meta({ matches }: Route.MetaArgs) {
  return storePageMeta(matches, {
    title: "Privacy Policy",
    description: (name) => `How ${name} collects, uses and protects your personal information and ID photo.`,
    path: "/privacy",
  });
}

export default function Privacy({ matches }: Route.ComponentProps) {
  const store = storeFromMatches(matches);
  return (
    <LegalPage title="Privacy Policy" updated="November 2026">
      <p>
        {store.name} ("we", "us") respects your privacy. This policy explains what we collect when you use our
        website and delivery service, why, and what choices you have.
      </p>
      <h2>What we collect</h2>
      <ul>
        <li>
          Your order details: name, e-mail address, phone number, delivery address, delivery time and notes.
        </li>
        <li>A photo of the front of your ID, to confirm you are 21 or older.</li>
        <li>Your cart and your age confirmation, kept only in your own browser (local storage).</li>
      </ul>
      <h2>How we use it</h2>
      <p>
        We use your information only to deliver your order, contact you about it, verify your age and keep the
        records the law requires. We do not sell your personal information.
      </p>
      <h2>Your ID photo</h2>
      <p>
        ID photos are stored privately, are visible only to our staff, have location data removed, and are
        deleted automatically a set number of days after your order is delivered or cancelled.
      </p>
      <h2>Contact</h2>
      <p>
        Questions about your data? Write to{" "}
        <a href={`mailto:${store.email}`} className="text-primary underline">
          {store.email}
        </a>{" "}
        or call {store.phone}.
      </p>
    </LegalPage>
  );
}
