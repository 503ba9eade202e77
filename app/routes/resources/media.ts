import { db } from "#app/db/client.server.ts";
import { parseMediaFileName } from "#app/features/media/image-urls.ts";
import { getMediaFile } from "#app/features/media/images.server.ts";
import type { Route } from "./+types/media";

/** Files are content-addressed: a name always means the same bytes, so browsers keep them a year. */
const IMMUTABLE = "public, max-age=31536000, immutable";

function notFound() {
  return new Response("Not found", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-cache" },
  });
}

function etagMatches(header: string | null, etag: string) {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/** Public product images from `media_files` (`/media/<key>-<width>.webp`). */
export async function loader({ params, request }: Route.LoaderArgs) {
  const file = params.file;
  // Check the name strictly before touching the database.
  if (!file || !parseMediaFileName(file)) return notFound();
  const etag = `"${file}"`;
  if (etagMatches(request.headers.get("If-None-Match"), etag)) {
    return new Response(null, { status: 304, headers: { ETag: etag, "Cache-Control": IMMUTABLE } });
  }
  const database = await db();
  const media = await getMediaFile(database, file);
  if (!media) return notFound();
  return new Response(new Uint8Array(media.bytes), {
    headers: {
      "Content-Type": media.contentType,
      "Content-Length": String(media.bytes.byteLength),
      "Cache-Control": IMMUTABLE,
      ETag: etag,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
