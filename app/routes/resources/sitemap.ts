import { listProductSitemapEntries } from "#app/features/catalog/catalog.server.ts";
import { productPath } from "#app/features/catalog/catalog.ts";
import { cataloguePages } from "#app/utils/catalogue-pages.ts";
import { config } from "#app/utils/env.server.ts";

/**
 * The pages whose route says `handle: { pageCache: true }`, read from this build's own route table
 * (the server build imports this module, so it is read once the build has loaded).
 */
let staticPages: Promise<string[]> | undefined;
function catalogueStaticPages() {
  staticPages ??= import("virtual:react-router/server-build").then((build) =>
    cataloguePages(build.routes).staticPaths(),
  );
  return staticPages;
}

function escapeXml(text: string) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Every public page and every product in the shop (not /admin, /checkout or the thank-you pages). */
export async function loader() {
  const base = config().publicUrl;
  const [pages, products] = await Promise.all([catalogueStaticPages(), listProductSitemapEntries()]);
  const urls = [
    ...pages.map((path) => `  <url><loc>${escapeXml(base + path)}</loc></url>`),
    ...products.map(
      (product) =>
        `  <url><loc>${escapeXml(`${base}${productPath(product)}`)}</loc><lastmod>${product.updatedAt.toISOString()}</lastmod></url>`,
    ),
  ];
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
