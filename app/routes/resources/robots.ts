import { config } from "#app/utils/env.server.ts";

/** Keeps the back office, the checkout and the order pages out of search engines. */
export function loader() {
  const base = config().publicUrl;
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin",
    "Disallow: /checkout",
    "Disallow: /thank-you",
    "Disallow: /order-confirmation",
    "Disallow: /api/",
    "",
    `Sitemap: ${base}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=86400" },
  });
}
