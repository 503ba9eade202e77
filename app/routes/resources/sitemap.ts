import { listProductSitemapEntries } from "#app/features/catalog/catalog.server.ts";
import { CATEGORY_PAGES, EFFECT_PAGES } from "#app/features/catalog/storefront.ts";
import { config } from "#app/utils/env.server.ts";

const STATIC_PAGES = [
  "/",
  "/shop",
  ...CATEGORY_PAGES.map((page) => `/${page.slug}`),
  ...Object.keys(EFFECT_PAGES).map((slug) => `/${slug}`),
  "/washington-dc-weed-delivery",
  "/privacy",
  "/terms",
  "/age-verification",
];

function escapeXml(text: string) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Every public page and every product in the shop (not /admin, /checkout or the thank-you pages). */
export async function loader() {
  const base = config().publicUrl;
  const products = await listProductSitemapEntries();
  const urls = [
    ...STATIC_PAGES.map((path) => `  <url><loc>${escapeXml(base + path)}</loc></url>`),
    ...products.map(
      (product) =>
        `  <url><loc>${escapeXml(`${base}/product/${product.id}`)}</loc><lastmod>${product.updatedAt.toISOString()}</lastmod></url>`,
    ),
  ];
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
