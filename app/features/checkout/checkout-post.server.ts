import {
  FormDataParseError,
  MaxFileSizeExceededError,
  MaxFilesExceededError,
  MaxHeaderSizeExceededError,
  MaxPartsExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  parseFormData,
} from "@remix-run/form-data-parser";
import { getMultipartBoundary, parseMultipart } from "@remix-run/multipart-parser";
import { ID_IMAGE_MESSAGES, MAX_UPLOAD_BYTES } from "#app/features/media/id-image.ts";
import { UploadRefused } from "#app/features/media/upload-refused.ts";
import { MAX_CHECKOUT_BODY_BYTES } from "./limits.ts";

/** The checkout post's field carrying the ID photo itself (P-6). */
export const ID_PHOTO_FIELD = "idFront";

export const FORM_UNREADABLE_MESSAGE = "The form could not be read. Please check your details and try again.";

/**
 * Thrown by `parseCheckoutForm` when its `beforePhoto` answered the post from the fields sent
 * before the photo: the photo is then neither read to its end nor parsed (the server drains the
 * rest of the body after the answer, record 015).
 */
export class AnsweredBeforePhoto extends Error {
  readonly answer: unknown;
  constructor(answer: unknown) {
    super("The checkout post was answered before its photo was read");
    this.answer = answer;
  }
}

/**
 * Looks at the text fields that came before the photo in a multipart post (a browser sends the
 * form's fields in their order, the file among them): an answer (anything but undefined) ends the
 * reading there; undefined reads on.
 */
export type BeforePhoto = (fields: FormData) => Promise<unknown>;

/** The photo and at most one other file; more is not a form the checkout sends. */
const MAX_FILES = 2;

const PARSER_LIMITS = {
  maxFileSize: MAX_UPLOAD_BYTES,
  maxParts: 100,
  maxTotalSize: MAX_CHECKOUT_BODY_BYTES,
  maxHeaderSize: 8 * 1024,
};

/**
 * Reads a checkout post (multipart or urlencoded) without ever holding more than the limit:
 * a declared length over it is refused before reading, and a streamed body is cut off as soon
 * as the photo passes MAX_UPLOAD_BYTES. The photo is a view of the body's one buffer, not a copy.
 */
export async function parseCheckoutForm(
  request: Request,
  options: { beforePhoto?: BeforePhoto } = {},
): Promise<{ form: FormData; idFront: Uint8Array | null }> {
  const declared = Number(request.headers.get("Content-Length") ?? "");
  if (Number.isFinite(declared) && declared > MAX_CHECKOUT_BODY_BYTES) {
    throw new UploadRefused("too-large", ID_IMAGE_MESSAGES.tooLarge);
  }
  try {
    const body = await readBodyInOneBuffer(request, options.beforePhoto);
    const boundary = multipartBoundaryOf(request.headers.get("Content-Type"));
    if (body && boundary) return multipartForm(body, boundary);
    const form = await parseFormData(withBody(request, body), { ...PARSER_LIMITS, maxFiles: 0 });
    return { form, idFront: null };
  } catch (error) {
    if (error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError) {
      throw new UploadRefused("too-large", ID_IMAGE_MESSAGES.tooLarge);
    }
    if (
      error instanceof MaxFilesExceededError ||
      error instanceof MaxPartsExceededError ||
      error instanceof MaxHeaderSizeExceededError ||
      error instanceof MultipartParseError ||
      error instanceof FormDataParseError
    ) {
      throw new UploadRefused("invalid", FORM_UNREADABLE_MESSAGE);
    }
    throw error;
  }
}

/** The boundary of a multipart form post, or null for any other body: one reading for every look at the body. */
function multipartBoundaryOf(contentType: string | null): string | null {
  if (!/^multipart\/form-data\s*;/i.test(contentType ?? "")) return null;
  return getMultipartBoundary(contentType as string);
}

/**
 * The text fields as a form, and the first non-empty file in the photo's field as its bytes. The
 * parser hands each part's content as views of the body it is given, so a photo in one piece is
 * neither copied nor turned into a File (two copies of up to 10 MB each).
 */
function multipartForm(body: Uint8Array, boundary: string): { form: FormData; idFront: Uint8Array | null } {
  const form = new FormData();
  let idFront: Uint8Array | null = null;
  let files = 0;
  for (const part of parseMultipart(body, { boundary, ...PARSER_LIMITS })) {
    const name = part.name;
    if (!name) continue;
    if (!part.isFile) {
      form.append(name, part.text);
      continue;
    }
    if (++files > MAX_FILES) throw new MaxFilesExceededError(MAX_FILES);
    if (name === ID_PHOTO_FIELD && part.size > 0 && !idFront) {
      idFront = part.content.length === 1 ? (part.content[0] as Uint8Array) : part.bytes;
    }
  }
  return { form, idFront };
}

/** Room for the fields a browser sends before the photo (two of the stream's 64 KB chunks). */
const HEAD_BYTES = 128 * 1024;

/** The size of the views the parser reads the one buffer in. */
const VIEW_BYTES = 1024 * 1024;

/**
 * The request's body read into one buffer (null without a body). The stream's chunks (64 KB each) would
 * otherwise all stay alive as the parser's parts until the request ends: 24 parallel 8 MB uploads
 * are then 3,000 small allocations interleaved on the allocator's main heap, which it cannot hand
 * back to the system afterwards (memory back within 100 MB of idle after a burst, record 040).
 * Each chunk is copied and dropped as it arrives; a body over MAX_CHECKOUT_BODY_BYTES is refused
 * as soon as it passes the limit.
 */
async function readBodyInOneBuffer(request: Request, beforePhoto?: BeforePhoto): Promise<Uint8Array | null> {
  if (!request.body) return null;
  const photoStart = beforePhoto ? photoPartFinder(request.headers.get("Content-Type")) : null;
  let photoLooked = false;
  const declared = Number(request.headers.get("Content-Length") ?? "");
  const limit = MAX_CHECKOUT_BODY_BYTES;
  const declaredBytes = Number.isSafeInteger(declared) && declared > 0 ? Math.min(declared, limit) : 0;
  // While the fields before the photo may still answer the post, only room for them is taken: a
  // refused post never allocates its photo's megabytes (memory outside V8's heap, which brings the
  // next full garbage collection of the whole heap closer). Once the post reads on, the buffer
  // grows to the declared length in one step.
  let buffer = new Uint8Array(
    photoStart ? Math.min(declaredBytes || HEAD_BYTES, HEAD_BYTES) : declaredBytes || 64 * 1024,
  );
  let length = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    // Reading stops here; no cancel(): undici's request stream would go on enqueueing into the
    // cancelled stream and reject where nobody listens. The server's body limit closes the rest.
    if (length + value.byteLength > limit) throw new UploadRefused("too-large", ID_IMAGE_MESSAGES.tooLarge);
    if (length + value.byteLength > buffer.byteLength) {
      const grown = new Uint8Array(
        Math.min(limit, Math.max(buffer.byteLength * 2, length + value.byteLength, declaredBytes)),
      );
      grown.set(buffer.subarray(0, length));
      buffer = grown;
    }
    buffer.set(value, length);
    const searchFrom = length;
    length += value.byteLength;
    if (photoStart && beforePhoto && !photoLooked) {
      const fieldsEnd = photoStart(buffer, searchFrom, length);
      if (fieldsEnd !== null) {
        photoLooked = true;
        const answer = await beforePhoto(await fieldsBefore(request, buffer.subarray(0, fieldsEnd)));
        if (answer !== undefined) throw new AnsweredBeforePhoto(answer);
      }
    }
  }
  return buffer.subarray(0, length);
}

/** The request again with the body already read (null: none). */
function withBody(request: Request, body: Uint8Array | null): Request {
  if (!body) return request;
  // Views of the one buffer, not a copy (a Uint8Array body would be copied whole).
  const views = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let offset = 0; offset < body.byteLength; offset += VIEW_BYTES) {
        controller.enqueue(body.subarray(offset, offset + VIEW_BYTES));
      }
      controller.close();
    },
  });
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: views,
    signal: request.signal,
    duplex: "half",
  } as RequestInit);
}

/**
 * For a multipart body: a finder of where the ID photo's part begins (the delimiter line before
 * its headers) once the bytes so far hold its headers, or null while they do not. Only a part
 * with a file name counts: a form sent with no file chosen has an empty one.
 */
function photoPartFinder(contentType: string | null) {
  const name = multipartBoundaryOf(contentType);
  if (!name) return null;
  const header = Buffer.from(`; name="${ID_PHOTO_FIELD}"; filename="`);
  const delimiter = Buffer.from(`--${name}`);
  return (bytes: Uint8Array, from: number, to: number): number | null => {
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, to);
    const at = view.indexOf(header, Math.max(0, from - header.byteLength));
    if (at < 0 || at + header.byteLength >= to || view[at + header.byteLength] === 0x22) return null;
    const partStart = view.lastIndexOf(delimiter, at);
    return partStart > 0 ? partStart : null;
  };
}

/** The text parts before the photo, as a form of their own (the multipart closed after them). */
async function fieldsBefore(request: Request, head: Uint8Array): Promise<FormData> {
  const contentType = request.headers.get("Content-Type") ?? "";
  const closing = Buffer.from(`--${multipartBoundaryOf(contentType)}--\r\n`);
  try {
    return await parseFormData(
      new Request(request.url, {
        method: "POST",
        headers: { "Content-Type": contentType },
        body: Buffer.concat([head, closing]),
      }),
      { maxFiles: 0, maxParts: 100, maxTotalSize: MAX_CHECKOUT_BODY_BYTES, maxHeaderSize: 8 * 1024 },
    );
  } catch {
    // Read the whole form, then: its own parse says what is wrong with it.
    return new FormData();
  }
}
