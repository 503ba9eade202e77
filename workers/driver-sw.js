/*
 * The driver app's service worker (record 050), built by vite-plugin-pwa (`injectManifest`) into
 * `build/client/driver-sw.js` and registered by the `/driver` page only, with the scope `/driver`:
 * the storefront and the admin have none. It keeps the page's shell on the phone:
 *   - the driver app's build files (the page's island and the signature pad's chunk, the root's and
 *     the /driver routes' styles; record 059) and its icons: precached at install from the list the
 *     build injects;
 *   - `/driver` itself: from the network, the last good copy when there is no signal;
 *   - any other build file or icon the page loads: from the phone once fetched;
 *   - the ID photos the driver opened: kept while their stop is open, dropped when the page says so.
 * Posts are left to the network, except a post of `/driver` that cannot reach it: the page is
 * shown again with `?not-sent=1`, and it tells the driver and queues from then on.
 * The run and the queued actions are kept by the page in IndexedDB, not here.
 */
import { clientsClaim, setCacheNameDetails } from "workbox-core";
import { cleanupOutdatedCaches, precacheAndRoute } from "workbox-precaching";
import { registerRoute } from "workbox-routing";
import { CacheFirst, NetworkFirst } from "workbox-strategies";

const SHELL = "driver-shell-v1";
const PHOTOS = "driver-id-photos-v1";
const PAGE = "/driver";
const PHOTO_PATH = /^\/admin\/id-photos\/[0-9a-f-]{36}$/;
const SHELL_FILES =
  /^\/(assets\/.+|favicon\.(ico|svg)|apple-touch-icon\.png|driver\.webmanifest|driver-icon-\d+\.png)$/;

setCacheNameDetails({ prefix: "driver" });
self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      // Caches of an older hand-written worker; Workbox's precache ("driver-precache-…") is its own.
      const names = await caches.keys();
      await Promise.all(
        names
          .filter(
            (name) =>
              name.startsWith("driver-") &&
              !name.startsWith("driver-precache") &&
              name !== SHELL &&
              name !== PHOTOS,
          )
          .map((name) => caches.delete(name)),
      );
    })(),
  );
});

/** Keeps every copy under its path: the page's `?not-sent=1` and the page itself are one entry. */
const byPath = { cacheKeyWillBeUsed: async ({ request }) => new URL(request.url).pathname };
/** Only the signed-in answer: a redirect to the sign-in page is not kept in the page's place. */
const onlyGood = {
  cacheWillUpdate: async ({ response }) => (response.ok && !response.redirected ? response : null),
};

registerRoute(
  ({ request, url }) =>
    request.mode === "navigate" && url.origin === self.location.origin && url.pathname === PAGE,
  new NetworkFirst({ cacheName: SHELL, plugins: [byPath, onlyGood] }),
);
registerRoute(
  ({ url }) => url.origin === self.location.origin && SHELL_FILES.test(url.pathname),
  new CacheFirst({ cacheName: SHELL, plugins: [byPath, onlyGood] }),
);
registerRoute(
  ({ url }) => url.origin === self.location.origin && PHOTO_PATH.test(url.pathname),
  new NetworkFirst({ cacheName: PHOTOS, plugins: [byPath, onlyGood] }),
);
registerRoute(
  ({ request, url }) =>
    request.mode === "navigate" && url.origin === self.location.origin && url.pathname === PAGE,
  async ({ request }) => {
    try {
      return await fetch(request);
    } catch {
      return Response.redirect(`${PAGE}?not-sent=1`, 303);
    }
  },
  "POST",
);

/**
 * From the page: `keep-shell` with the page and the files it loaded before this worker took it
 * over (the first visit), `keep-photos` with the ID photos of its open stops (the others are
 * dropped), `clear` on sign-out (the run's page and the photos; the precached build files hold
 * nothing of the driver's).
 */
self.addEventListener("message", (event) => {
  const message = event.data ?? {};
  if (message.type === "keep-shell" && Array.isArray(message.urls)) {
    event.waitUntil(
      (async () => {
        const cache = await caches.open(SHELL);
        for (const href of message.urls) {
          const url = new URL(href, self.location.origin);
          if (url.origin !== self.location.origin) continue;
          const key = url.pathname;
          if (key !== PAGE && !SHELL_FILES.test(key)) continue;
          if (key !== PAGE && (await caches.match(key))) continue;
          try {
            const response = await fetch(key, { credentials: "same-origin" });
            if (response.ok && !response.redirected) await cache.put(key, response);
          } catch {
            // No signal now: the file is kept the next time it is fetched.
          }
        }
      })(),
    );
  } else if (message.type === "keep-photos" && Array.isArray(message.ids)) {
    event.waitUntil(
      (async () => {
        const keep = new Set(message.ids.map((id) => `/admin/id-photos/${id}`));
        const cache = await caches.open(PHOTOS);
        for (const request of await cache.keys()) {
          if (!keep.has(new URL(request.url).pathname)) await cache.delete(request);
        }
      })(),
    );
  } else if (message.type === "clear") {
    event.waitUntil(Promise.all([caches.delete(SHELL), caches.delete(PHOTOS)]));
  }
});
