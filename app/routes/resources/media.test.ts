import sharp from "sharp";
import { expect, it } from "vitest";
import { storeProductImage } from "#app/features/media/images.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { loader } from "./media.ts";

function get(file: string, headers: Record<string, string> = {}) {
  const request = new Request(`http://localhost/media/${file}`, { headers });
  return loader({ params: { file }, request } as Parameters<typeof loader>[0]);
}

describeEachDatabase("GET /media/:file", (database) => {
  it("serves a stored image for a year, with an ETag and 304", async () => {
    const image = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#146350" } })
      .png()
      .toBuffer();
    const { imageKey } = await storeProductImage(database().db, image);
    const file = `${imageKey}-320.webp`;

    const response = await get(file);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/webp");
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    const etag = response.headers.get("ETag") as string;
    expect(etag).toBe(`"${file}"`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect((await sharp(bytes).metadata()).width).toBe(320);

    const cached = await get(file, { "If-None-Match": etag });
    expect(cached.status).toBe(304);
    expect(await cached.text()).toBe("");
    expect((await get(file, { "If-None-Match": `W/${etag}` })).status).toBe(304);
    expect((await get(file, { "If-None-Match": `"other"` })).status).toBe(200);
  });

  it("answers 404 for unknown and malformed names", async () => {
    for (const file of [
      "0000000000000000-320.webp",
      "0000000000000000-321.webp",
      "..%2F..%2Fetc%2Fpasswd",
      "x.webp",
      "",
    ]) {
      expect((await get(file)).status, file).toBe(404);
    }
  });
});
