import { Icon } from "#app/components/ui/icon.tsx";
import { Logo, telHref } from "./store-header.tsx";
import { StoreLink } from "./store-link.tsx";

type FooterStore = {
  name: string;
  phone: string;
  email: string;
  address: string;
  agencyName: string;
  agencyUrl: string | null;
};

const INFORMATION_LINKS = [
  { to: "/shop", label: "Shop" },
  { to: "/privacy", label: "Privacy Policy" },
  { to: "/terms", label: "Terms of Service" },
  { to: "/age-verification", label: "Age Verification" },
];

const linkClass =
  "inline-flex min-h-11 items-center rounded-sm text-paper-200 hover:text-white hover:underline";

/** K-1 footer: contact, agency credit, links to real pages (P-18), 21+ and FDA disclaimer. */
export function StoreFooter({ store, year }: { store: FooterStore; year: number }) {
  return (
    <footer className="bg-forest-900 text-paper-100">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-12 md:grid-cols-3">
        <div className="space-y-3">
          <span className="inline-block rounded-md bg-paper-50 px-3 py-2">
            <Logo name={store.name} />
          </span>
          <p className="max-w-xs text-sm text-paper-200">
            {store.name}. Capital Delivered. Same-day cannabis delivery in Washington DC and Northern
            Virginia.
          </p>
        </div>
        <div>
          <h2 className="font-display text-lg font-semibold text-white">Contact</h2>
          <ul className="mt-2 text-sm">
            <li>
              <a href={telHref(store.phone)} className={`${linkClass} gap-2`}>
                <Icon name="phone" className="size-4" />
                {store.phone}
              </a>
            </li>
            <li>
              <a href={`mailto:${store.email}`} className={`${linkClass} gap-2`}>
                <Icon name="mail" className="size-4" />
                {store.email}
              </a>
            </li>
            <li className="pt-1 text-paper-200">{store.address}</li>
          </ul>
        </div>
        <div>
          <h2 className="font-display text-lg font-semibold text-white">Information</h2>
          <ul className="mt-2 grid grid-cols-2 gap-x-4 text-sm md:grid-cols-1">
            {INFORMATION_LINKS.map(({ to, label }) => (
              <li key={to}>
                <StoreLink to={to} className={linkClass}>
                  {label}
                </StoreLink>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="border-t border-forest-700">
        <div className="mx-auto max-w-7xl space-y-2 px-4 py-6 text-xs leading-relaxed text-paper-200">
          <p>
            <strong className="text-white">You must be 21 or older to purchase cannabis products.</strong>{" "}
            Please consume responsibly. Keep out of reach of children and pets.
          </p>
          <p>
            These statements have not been evaluated by the Food and Drug Administration. These products are
            not intended to diagnose, treat, cure or prevent any disease.
          </p>
          <p className="flex flex-wrap items-center justify-between gap-2 pt-2">
            <span>
              © {year} {store.name}. All rights reserved.
            </span>
            <span>
              Website by{" "}
              {store.agencyUrl ? (
                <a href={store.agencyUrl} className="underline hover:text-white" rel="noopener">
                  {store.agencyName}
                </a>
              ) : (
                store.agencyName
              )}
            </span>
          </p>
        </div>
      </div>
    </footer>
  );
}
