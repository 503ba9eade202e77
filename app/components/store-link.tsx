import type { ComponentProps } from "react";
import { useLocation, useNavigate } from "react-router";
import { followInApp } from "./link-clicks.ts";

/**
 * A storefront link to an app path (`/shop?category=Flower`): a plain `<a>` that navigates like
 * React Router's `<Link>` on a plain click, at a fraction of its render and hydration cost (a
 * `<Link>` resolves its path against the location and the matched routes, twice, on every render;
 * record 025). `data-discover` is what a `<Link>` writes too: the router's route discovery reads
 * it from the document, so the target's route is still known before the tap. Not for relative paths.
 *
 * The rule: every link of a shopper's page (app/routes/_store/, app/components/ outside admin/) is a
 * `StoreLink` or `StoreNavLink` to an absolute path; React Router's `<Link>` and `<NavLink>` are for
 * the admin, whose pages carry no first-load budget. `tests/architecture/storefront-links.test.ts`
 * holds the storefront to it.
 */
type StoreLinkProps = Omit<ComponentProps<"a">, "href"> & {
  to: string;
  replace?: boolean;
  preventScrollReset?: boolean;
};

export function StoreLink({ to, replace, preventScrollReset, onClick, ...props }: StoreLinkProps) {
  const navigate = useNavigate();
  return (
    <a
      {...props}
      href={to}
      data-discover="true"
      onClick={(event) => {
        onClick?.(event);
        followInApp(event, navigate, to, { replace, preventScrollReset });
      }}
    />
  );
}

/**
 * `StoreLink` marked as `<NavLink>` marks it: `aria-current="page"` and `className(true)` on the page
 * it leads to and (unless `end`) on any path below it.
 */
export function StoreNavLink({
  to,
  end,
  className,
  ...props
}: Omit<StoreLinkProps, "className"> & { end?: boolean; className: (isActive: boolean) => string }) {
  const { pathname } = useLocation();
  const isActive = pathname === to || (!end && to !== "/" && pathname.startsWith(`${to}/`));
  return (
    <StoreLink
      {...props}
      to={to}
      aria-current={isActive ? "page" : undefined}
      className={className(isActive)}
    />
  );
}
