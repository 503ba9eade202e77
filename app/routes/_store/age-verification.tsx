import { LegalPage } from "#app/components/legal-page.tsx";
import { storePageMeta } from "#app/features/catalog/seo.ts";
import { CATALOGUE_PAGE } from "#app/utils/catalogue-pages.ts";
import type { Route } from "./+types/age-verification";

export const handle = CATALOGUE_PAGE;

export function meta({ matches }: Route.MetaArgs) {
  return storePageMeta(matches, {
    title: "Age Verification",
    description: (name) =>
      `${name} serves adults 21 and over only. How we verify your age online and at delivery.`,
    path: "/age-verification",
  });
}

export default function AgeVerification() {
  return (
    <LegalPage title="Age Verification" updated="November 2026">
      <p>We sell cannabis products to adults 21 years of age or older only.</p>
      <h2>On our website</h2>
      <p>
        On your first visit we ask you to confirm that you are 21 or older. At checkout you confirm it again
        and upload a photo of the front of your government-issued ID.
      </p>
      <h2>At your door</h2>
      <p>
        Our driver checks your ID in person before handing over your order. The name on the ID must match the
        name on the order. If you cannot show a valid ID, or appear to be buying for someone under 21, we will
        not complete the delivery.
      </p>
      <h2>Accepted IDs</h2>
      <ul>
        <li>Driver's license or state ID card</li>
        <li>Passport or passport card</li>
        <li>Military ID</li>
      </ul>
    </LegalPage>
  );
}
