import { createContext, useContext } from "react";
import { useRouteLoaderData } from "react-router";

type AdminLayoutData = { email: string; csrfToken: string };

/** The CSRF token for an admin chrome drawn outside the admin layout (the guard's 403 page). */
export const ChromeCsrfContext = createContext("");

/** The session's CSRF token, from the admin layout's loader (or the 403 page's chrome). */
export function useCsrfToken() {
  const data = useRouteLoaderData("routes/admin/layout") as AdminLayoutData | undefined;
  const chromeToken = useContext(ChromeCsrfContext);
  return data?.csrfToken ?? chromeToken;
}

/** Hidden field every admin form carries; the guard refuses a mutation without it. */
export function CsrfInput() {
  return <input type="hidden" name="csrf" value={useCsrfToken()} />;
}
