/**
 * The admin chrome's data, apart from its components: the root error boundary reads a 403's chrome
 * with it on every page, and loads the admin components themselves only when one is shown, so the
 * storefront's first load carries none of them (the bytes budget, tests/e2e/bytes-budget.spec.ts).
 */
import type { AdminNavLink } from "./admin-header.tsx";

/** What the admin chrome shows: the signed-in admin's e-mail, the store, the role's sections. */
export type AdminChromeData = {
  email: string;
  storeName: string;
  csrfToken: string;
  navigation: readonly AdminNavLink[];
};

/** The chrome a 403 of the admin guard carries (its error data), if this error is one. */
export function chromeOfError(data: unknown): AdminChromeData | null {
  if (!data || typeof data !== "object" || !("chrome" in data)) return null;
  return data.chrome as AdminChromeData;
}
