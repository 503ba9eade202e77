import { type ComponentProps, createContext, useContext } from "react";
import { Form, useRouteLoaderData } from "react-router";

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

/**
 * An admin form posting to its own page: the CSRF field, the `intent` the action switches on when
 * there is one, and any other hidden fields (`fields`, name to value).
 */
export function PostForm({
  intent,
  fields = {},
  children,
  ...props
}: Omit<ComponentProps<typeof Form>, "method"> & { intent?: string; fields?: Record<string, string> }) {
  return (
    <Form method="post" {...props}>
      <CsrfInput />
      {intent ? <input type="hidden" name="intent" value={intent} /> : null}
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
    </Form>
  );
}
