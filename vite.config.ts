import { existsSync } from "node:fs";
import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import reactRouterConfig from "./react-router.config.ts";

/**
 * The storefront's shared chunk, as an allow-list (record 056): the modules every storefront page
 * loads, bundled as one chunk instead of some thirty small ones (on a phone's HTTP/1.1 connection
 * each file costs a round trip). Only what is named here goes in; a new module, an admin's or a
 * driver's dependency above all, lands in its route's chunk or one of its own by default and never
 * in the storefront's first load. Code loaded on demand (the cart panel, the age gate, the toaster,
 * the checkout form, the order pages' payment note) and the listing pages' own pieces in
 * components/listing/ (search, chips, paginated grid, deferred cards, which the home page does not
 * use) are left out; only the listing's product card is shared. The libraries these modules alone
 * import (clsx, class-variance-authority) come along with them.
 */
const STOREFRONT_SHARED = [
  "components/age-gate-key.ts",
  "components/bottom-bar.tsx",
  "components/carousel.tsx",
  "components/cart-context.tsx",
  "components/cart-trigger.tsx",
  "components/category-icons.ts",
  "components/legal-page.tsx",
  "components/link-clicks.ts",
  "components/listing/product-card.tsx",
  "components/listing/product-card-view.tsx",
  "components/load-error.tsx",
  "components/page-section.tsx",
  "components/price.tsx",
  "components/product-image.tsx",
  "components/stock-shortfall-notice.tsx",
  "components/store-footer.tsx",
  "components/store-header.tsx",
  "components/store-link.tsx",
  "components/ui/badge.tsx",
  "components/ui/button.tsx",
  "components/ui/card.tsx",
  "components/ui/icon.tsx",
  "components/ui/input.tsx",
  "features/cart/cart.ts",
  "features/catalog/catalog.ts",
  "features/catalog/seo.ts",
  "features/catalog/storefront.ts",
  "features/media/image-urls.ts",
  "utils/cn.ts",
  "utils/money.ts",
];

const APP = path.join(import.meta.dirname, "app");
const storefrontShared = new Set(STOREFRONT_SHARED.map((file) => path.join(APP, file)));

/** Whether a module (a Rolldown module id) goes into the storefront's shared chunk. */
export function inStorefrontChunk(id: string) {
  return storefrontShared.has(id.split("?")[0] ?? id);
}
// A renamed or removed module would silently leave the chunk (and each page load one file more).
for (const file of storefrontShared) {
  if (!existsSync(file))
    throw new Error(`vite.config.ts: STOREFRONT_SHARED names ${file}, which does not exist`);
}

/**
 * The driver app's files (record 050): the client build's files the `/driver` page loads (the
 * entry, the root, the driver routes and what they import statically, with their styles), read
 * from the client bundle. The driver's service worker precaches these and nothing else: the
 * storefront's and the admin's own chunks are not on the phone's list.
 */
const DRIVER_ROUTES = path.join(APP, "routes", "driver") + path.sep;
const ENTRY_CLIENT = /[\\/]entry\.client\.[jt]sx?$/;
/** React Router's route manifest, written beside the bundle (not one of its chunks); every page loads it. */
const ROUTE_MANIFEST = /^assets\/manifest-[0-9a-f]{8}\.js$/;
const driverFiles = new Set<string>();

function driverShellFiles(): Plugin {
  return {
    name: "capital-grown:driver-shell-files",
    applyToEnvironment: (environment) => environment.name === "client",
    generateBundle(_options, bundle) {
      driverFiles.clear();
      const visit = (fileName: string) => {
        const chunk = bundle[fileName];
        if (!chunk || driverFiles.has(fileName)) return;
        driverFiles.add(fileName);
        if (chunk.type !== "chunk") return;
        for (const css of chunk.viteMetadata?.importedCss ?? []) driverFiles.add(css);
        for (const imported of chunk.imports) visit(imported);
      };
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== "chunk") continue;
        const id = chunk.facadeModuleId?.split("?")[0] ?? "";
        // Every route module is an entry of React Router's client build: only the client's own entry,
        // the root and the driver's routes start the walk.
        if (ENTRY_CLIENT.test(id) || id === path.join(APP, "root.tsx") || id.startsWith(DRIVER_ROUTES))
          visit(chunk.fileName);
      }
    },
  };
}

export default defineConfig({
  plugins: [
    tailwindcss(),
    reactRouter(),
    driverShellFiles(),
    // The client build only: the server build has no worker to make (it would make it twice).
    ...VitePWA({
      strategies: "injectManifest",
      srcDir: "workers",
      filename: "driver-sw.js",
      outDir: path.join(reactRouterConfig.buildDirectory, "client"),
      scope: "/driver",
      // The run page registers the worker itself (driver-phone.tsx); the manifest stays the file in
      // public/, linked by the run page only (record 050).
      injectRegister: false,
      manifest: false,
      injectManifest: {
        globPatterns: ["assets/**/*.{js,css}", "driver-icon-*.png", "favicon.svg", "driver.webmanifest"],
        manifestTransforms: [
          async (entries) => ({
            manifest: entries.filter(
              (entry) =>
                !entry.url.startsWith("assets/") ||
                driverFiles.has(entry.url) ||
                ROUTE_MANIFEST.test(entry.url),
            ),
            warnings: [],
          }),
        ],
      },
    }).map((plugin) => ({
      ...plugin,
      applyToEnvironment: (environment: { name: string }) => environment.name === "client",
    })),
  ],
  build: { assetsInlineLimit: 0 },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                {
                  name: "framework",
                  test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/,
                  priority: 20,
                },
                {
                  // The root's toaster: every page, the admin too.
                  name: "toast",
                  test: /[\\/]app[\\/](components[\\/]toast[\\/]toaster|utils[\\/](toast-client|first-interaction))\./,
                  priority: 15,
                },
                {
                  name: "storefront",
                  test: inStorefrontChunk,
                  priority: 10,
                },
              ],
            },
          },
        },
      },
    },
  },
});
