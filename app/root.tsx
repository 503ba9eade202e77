import { lazy, Suspense, useEffect } from "react";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
} from "react-router";
import { chromeOfError } from "#app/components/admin/admin-chrome-data.ts";
import type { IslandAssets } from "#app/components/driver/island-assets.server.ts";
import { markDocumentHydrated } from "#app/components/listing/first-hydration.ts";
import { Toaster } from "#app/components/toast/toaster.tsx";
import { databaseOutageMiddleware } from "#app/db/database-unavailable.server.ts";
import { useNonce, useServerRequestId } from "#app/utils/render-context.ts";
import { readToast } from "#app/utils/toast.server.ts";
import type { Route } from "./+types/root";
import "./app.css";

// Loaded only when the admin guard's 403 is shown: shoppers' pages do not carry the admin chrome.
const NoAccess = lazy(() =>
  import("#app/components/admin/admin-chrome.tsx").then((module) => ({ default: module.NoAccess })),
);

export { skipAfterPlacedOrder as shouldRevalidate } from "#app/features/checkout/after-placed-order.ts";

/** Every route, resource routes too, answers 503 with Retry-After while the database is away. */
export const middleware: Route.MiddlewareFunction[] = [databaseOutageMiddleware];

export async function loader({ request }: Route.LoaderArgs) {
  const { toast, headers } = await readToast(request);
  return data({ toast }, { headers });
}

/** A refusal's Retry-After survives to the document response (root is the error boundary). */
export function headers(args: Route.HeadersArgs) {
  const headers = new Headers(args.parentHeaders);
  const retryAfter = args.errorHeaders?.get("Retry-After");
  if (retryAfter) {
    headers.set("Retry-After", retryAfter);
    headers.set("Cache-Control", "private, no-store");
  }
  return headers;
}

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

/**
 * The island's script when the page is one (a route's `handle.island`, its loader's `island`): such a
 * page hydrates its island alone, without React Router's client (record 059).
 */
function useIsland() {
  const match = useMatches().find((each) => (each.handle as { island?: string } | undefined)?.island);
  return (match?.loaderData as { island?: IslandAssets | null } | undefined)?.island ?? null;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const island = useIsland();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#143a2b" />
        <Meta />
        <Links />
        {island?.preload.map((href) => (
          <link key={href} rel="modulepreload" href={href} nonce={nonce} />
        ))}
      </head>
      <body>
        {children}
        {island ? (
          <script type="module" src={island.entry} nonce={nonce} />
        ) : (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  useEffect(markDocumentHydrated, []);
  return (
    <>
      <Outlet />
      <Toaster pending={loaderData.toast} />
    </>
  );
}

/** Last line of defence: a calm page, never a stack trace (K-8: 'Unexpected Application Error!'). */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { requestId, elementId } = useServerRequestId();
  if (isRouteErrorResponse(error) && error.status === 429) return <TooManyRequests message={error.data} />;
  // The admin guard's 403 (P-26) stops before every loader, so it lands here, with its chrome.
  const adminChrome = isRouteErrorResponse(error) && error.status === 403 ? chromeOfError(error.data) : null;
  if (adminChrome) {
    return (
      <Suspense fallback={null}>
        <NoAccess chrome={adminChrome} />
      </Suspense>
    );
  }
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center gap-4 px-6 text-center">
      <title>{notFound ? "Page not found" : "Something went wrong"}</title>
      <h1 className="font-display text-3xl text-primary">
        {notFound ? "Oops! Page not found" : "Unexpected Application Error!"}
      </h1>
      <p className="text-muted-foreground">
        {notFound
          ? "The page you are looking for does not exist."
          : "Sorry, something went wrong on our side. Please try again in a moment."}
      </p>
      {requestId && !notFound ? (
        <p className="text-muted-foreground text-sm">
          Reference: <span id={elementId}>{requestId}</span>
        </p>
      ) : null}
      <a
        href="/"
        className="inline-flex min-h-11 items-center rounded-md bg-primary px-5 font-semibold text-primary-foreground"
      >
        Return to Home
      </a>
    </main>
  );
}

/** A budget used up (P-30): what happened and when to come back, with the way home. */
function TooManyRequests({ message }: { message: unknown }) {
  const text =
    message && typeof message === "object" && "message" in message && typeof message.message === "string"
      ? message.message
      : "Too many requests from this connection. Please try again in a minute.";
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center gap-4 px-6 text-center">
      <title>Too many requests</title>
      <h1 className="font-display text-3xl text-primary">Too many requests</h1>
      <p className="text-muted-foreground">{text}</p>
      <a
        href="/"
        className="inline-flex min-h-11 items-center rounded-md bg-primary px-5 font-semibold text-primary-foreground"
      >
        Return to Home
      </a>
    </main>
  );
}
