/**
 * The app's own request handling in the test process: React Router's `createRequestHandler` over a
 * server build made from app/routes.ts and the route modules (tests/support/app-route-table.ts),
 * with the request context server.ts gives every request. Middleware, loaders, actions, error
 * boundaries and the document render run as in production (route components get their props the
 * way the framework's Vite plugin gives them); only the browser assets are absent.
 */
import {
  createRequestHandler,
  RouterContextProvider,
  type ServerBuild,
  UNSAFE_withComponentProps,
  UNSAFE_withErrorBoundaryProps,
} from "react-router";
import * as entry from "#app/entry.server.tsx";
import { requestInfoContext } from "#app/utils/request-context.ts";
import { appRouteTable } from "./app-route-table.ts";

export type InProcessApp = (request: Request) => Promise<Response>;

export async function inProcessApp(): Promise<InProcessApp> {
  const table = await appRouteTable();
  const routes: ServerBuild["routes"] = {};
  const manifestRoutes: ServerBuild["assets"]["routes"] = {};
  for (const route of Object.values(table).filter((entry) => entry !== undefined)) {
    const module = { ...(route.module as Record<string, unknown>) };
    if (typeof module.default === "function")
      module.default = UNSAFE_withComponentProps(module.default as never);
    if (typeof module.ErrorBoundary === "function") {
      module.ErrorBoundary = UNSAFE_withErrorBoundaryProps(module.ErrorBoundary as never);
    }
    routes[route.id] = {
      id: route.id,
      parentId: route.parentId,
      path: route.path,
      index: route.index,
      caseSensitive: undefined,
      module: module as never,
    };
    manifestRoutes[route.id] = {
      id: route.id,
      parentId: routes[route.id]?.parentId,
      path: route.path,
      index: route.index,
      module: `/assets/${route.id}.js`,
      hasAction: typeof module.action === "function",
      hasLoader: typeof module.loader === "function",
      hasClientAction: false,
      hasClientLoader: false,
      hasClientMiddleware: false,
      hasErrorBoundary: typeof module.ErrorBoundary === "function",
      clientActionModule: undefined,
      clientLoaderModule: undefined,
      clientMiddlewareModule: undefined,
      hydrateFallbackModule: undefined,
    } as never;
  }
  const build = {
    entry: { module: entry },
    routes,
    assets: {
      entry: { module: "/assets/entry.client.js", imports: [] },
      routes: manifestRoutes,
      url: "/assets/manifest.js",
      version: "test",
    },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "initial", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;
  const handler = createRequestHandler(build, "production");
  return (request) => {
    const context = new RouterContextProvider();
    context.set(requestInfoContext, { requestId: "test-request", clientAddress: "10.1.2.3", nonce: "" });
    return handler(request, context);
  };
}
