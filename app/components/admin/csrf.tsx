import { useRouteLoaderData } from "react-router";

type AdminLayoutData = { email: string; csrfToken: string };

/** The session's CSRF token, from the admin layout's loader. */
export function useCsrfToken() {
  const data = useRouteLoaderData("routes/admin/layout") as AdminLayoutData | undefined;
  return data?.csrfToken ?? "";
}

/** Hidden field every admin form carries; the guard refuses a mutation without it. */
export function CsrfInput() {
  return <input type="hidden" name="csrf" value={useCsrfToken()} />;
}
