import { StoreLink } from "#app/components/store-link.tsx";
import { log } from "#app/utils/logger.server.ts";
import type { Route } from "./+types/not-found";

export function loader({ request }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  log.warn("Page not found", { path: pathname });
  throw new Response(null, { status: 404, statusText: "Not Found" });
}

export function meta() {
  return [{ title: "Page not found" }, { name: "robots", content: "noindex" }];
}

export default function NotFound() {
  return <NotFoundContent />;
}

function NotFoundContent() {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-5 px-6 py-24 text-center">
      <p className="font-display text-7xl text-forest-200">404</p>
      <h1 className="font-display text-3xl font-semibold text-primary">Oops! Page not found</h1>
      <StoreLink
        to="/"
        className="inline-flex min-h-11 items-center rounded-md bg-primary px-5 font-semibold text-primary-foreground hover:bg-primary-hover"
      >
        Return to Home
      </StoreLink>
    </section>
  );
}

export function ErrorBoundary() {
  return <NotFoundContent />;
}
