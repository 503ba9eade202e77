import { existsSync } from "node:fs";
import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { build, defineConfig, type Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { DRIVER_ISLAND_FILE, type IslandAssets } from "./app/components/driver/island-assets.server.ts";
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
 * The driver page's island (record 059): `/driver` hydrates only its own component tree, with React
 * and without React Router's client. The island is bundled by a build of its own (its entry and the
 * modules it imports, React included, and nothing of the router), started with the client build and
 * added to its output; `DRIVER_ISLAND_FILE` tells the server which file to load.
 */
const ISLAND_ENTRY = path.join(APP, "components", "driver", "island.client.tsx");

async function buildIsland() {
  const result = await build({
    configFile: false,
    root: import.meta.dirname,
    mode: "production",
    logLevel: "warn",
    publicDir: false,
    build: {
      write: false,
      copyPublicDir: false,
      assetsInlineLimit: 0,
      modulePreload: { polyfill: false },
      rolldownOptions: { input: { "driver-island": ISLAND_ENTRY } },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  return outputs.flatMap((output) => ("output" in output ? output.output : []));
}

/**
 * The driver app's files (record 050): the files the `/driver` page loads (the island's chunks, and
 * the styles of the root and the driver routes), which the driver's service worker precaches, and
 * nothing else: the storefront's and the admin's own chunks, and React Router's, are not on the
 * phone's list.
 */
const DRIVER_ROUTES = path.join(APP, "routes", "driver") + path.sep;
const driverFiles = new Set<string>();

function driverApp(): Plugin {
  let island: ReturnType<typeof buildIsland> | undefined;
  return {
    name: "capital-grown:driver-app",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    buildStart() {
      island = buildIsland();
    },
    async generateBundle(_options, bundle) {
      driverFiles.clear();
      const files = (await island) ?? [];
      const entry = files.find((file) => file.type === "chunk" && file.isEntry);
      if (entry?.type !== "chunk") throw new Error("vite.config.ts: the driver island built no entry");
      for (const file of files) {
        this.emitFile({
          type: "asset",
          fileName: file.fileName,
          source: file.type === "chunk" ? file.code : file.source,
        });
        driverFiles.add(file.fileName);
      }
      const assets: IslandAssets = {
        entry: `/${entry.fileName}`,
        preload: entry.imports.map((fileName) => `/${fileName}`),
      };
      this.emitFile({ type: "asset", fileName: DRIVER_ISLAND_FILE, source: JSON.stringify(assets) });
      const seen = new Set<string>();
      const visit = (fileName: string) => {
        const chunk = bundle[fileName];
        if (chunk?.type !== "chunk" || seen.has(fileName)) return;
        seen.add(fileName);
        for (const css of chunk.viteMetadata?.importedCss ?? []) driverFiles.add(css);
        for (const imported of chunk.imports) visit(imported);
      };
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== "chunk") continue;
        const id = chunk.facadeModuleId?.split("?")[0] ?? "";
        if (id === path.join(APP, "root.tsx") || id.startsWith(DRIVER_ROUTES)) visit(chunk.fileName);
      }
    },
  };
}

export default defineConfig({
  plugins: [
    tailwindcss(),
    reactRouter(),
    driverApp(),
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
              (entry) => !entry.url.startsWith("assets/") || driverFiles.has(entry.url),
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
