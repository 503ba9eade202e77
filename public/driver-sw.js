/*
 * The driver app's service worker (record 050), registered by the `/driver` page only, with the
 * scope `/driver`: the storefront and the admin have none. It keeps the page's shell on the phone:
 *   - `/driver` itself: from the network, the last good copy when there is no signal;
 *   - the hashed build files (`/assets/…`, never changed once built) and the icons: from the phone
 *     once fetched;
 *   - the ID photos the driver opened: kept while their stop is open, dropped when the page says so.
 * Posts are left to the network, except a post of `/driver` that cannot reach it: the page is
 * shown again with `?not-sent=1`, and it tells the driver and queues from then on.
 * The run and the queued actions are kept by the page in IndexedDB, not here.
 */
const SHELL = "driver-shell-v1";
const PHOTOS = "driver-id-photos-v1";
const PAGE = "/driver";
const PHOTO_PATH = /^\/admin\/id-photos\/[0-9a-f-]{36}$/;
const SHELL_FILES = /^\/(assets\/.+|favicon\.(ico|svg)|apple-touch-icon\.png|driver\.webmanifest|driver-icon-\d+\.png)$/;

self.addEventListener("install", () => {
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names.filter((name) => name.startsWith("driver-") && name !== SHELL && name !== PHOTOS).map((name) => caches.delete(name)),
      );
      await self.clients.claim();
    })(),
  );
});

async function fromNetworkKeeping(request, cacheName, key) {
  const response = await fetch(request);
  if (response.ok) {
    const cache = await caches.open(cacheName);
    await cache.put(key, response.clone());
  }
  return response;
}

async function page(request) {
  try {
    const response = await fetch(request);
    // Only the signed-in run: a redirect to the sign-in page is not kept in its place.
    if (response.ok && !response.redirected) {
      const cache = await caches.open(SHELL);
      await cache.put(PAGE, response.clone());
    }
    return response;
  } catch (error) {
    const kept = await caches.match(PAGE, { cacheName: SHELL });
    if (kept) return kept;
    throw error;
  }
}

async function shellFile(request, url) {
  const kept = await caches.match(url.pathname, { cacheName: SHELL });
  return kept ?? fromNetworkKeeping(request, SHELL, url.pathname);
}

async function photo(request, url) {
  try {
    return await fromNetworkKeeping(request, PHOTOS, url.pathname);
  } catch (error) {
    const kept = await caches.match(url.pathname, { cacheName: PHOTOS });
    if (kept) return kept;
    throw error;
  }
}

async function post(request) {
  try {
    return await fetch(request);
  } catch {
    return Response.redirect(`${PAGE}?not-sent=1`, 303);
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && request.mode === "navigate" && url.pathname === PAGE) {
    event.respondWith(post(request));
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate" && url.pathname === PAGE) event.respondWith(page(request));
  else if (SHELL_FILES.test(url.pathname)) event.respondWith(shellFile(request, url));
  else if (PHOTO_PATH.test(url.pathname)) event.respondWith(photo(request, url));
});

/**
 * From the page: `keep-shell` with the files it loaded before this worker took it over (the first
 * visit), `keep-photos` with the ID photos of its open stops (the others are dropped), `clear` on
 * sign-out.
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
          const key = url.pathname === PAGE ? PAGE : url.pathname;
          if (key !== PAGE && !SHELL_FILES.test(key)) continue;
          if (key !== PAGE && (await cache.match(key))) continue;
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
