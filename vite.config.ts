import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

/**
 * Modules every storefront page loads, bundled as one chunk instead of some thirty small ones: on a
 * phone's HTTP/1.1 connection each file costs a round trip. Code loaded on demand (the cart panel,
 * the age gate, the toaster, the checkout form, the order pages' payment note), the admin's, the
 * driver's and the customer account's own components (record 053) stay out of it, and
 * so do the listing pages' own pieces in components/listing/ (search, chips, paginated grid, deferred
 * cards), which the home page does not use; only its product card is shared.
 */
const STOREFRONT_SHARED = [
  /[\\/]app[\\/]components[\\/](?!admin[\\/]|driver[\\/]|account[\\/]|checkout[\\/]|order-payment-note\.|cart-panel|age-gate\.|toast[\\/]|ui[\\/](sheet|switch)|listing[\\/](?!product-card(-view)?\.))[^\\/]+(\.tsx?|[\\/][^\\/]+\.tsx?)$/,
  /[\\/]app[\\/]features[\\/](cart[\\/]cart|catalog[\\/](catalog|storefront|seo)|media[\\/]image-urls)\./,
  /[\\/]app[\\/]utils[\\/](cn|money)\./,
];

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
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
                  test: (id) => STOREFRONT_SHARED.some((pattern) => pattern.test(id)),
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
