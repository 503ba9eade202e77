import { Transform, type TransformCallback } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import {
  databaseUnavailableResponse,
  isDatabaseUnavailable,
  markDatabaseUnavailable,
  metDatabaseUnavailable,
} from "#app/db/database-unavailable.server.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import { NonceContext, RequestIdContext } from "#app/utils/render-context.ts";
import { requestInfoContext } from "#app/utils/request-context.ts";
// Listing cards below the fold are written from cached markup on the server (components/listing/).
import "#app/components/listing/card-markup.server.tsx";

// The custom server (server.ts) reaches the app's own module instances through these exports.
export { boot, shutdown } from "#app/server/boot.server.ts";
export { catalogVersion } from "#app/server/page-cache-version.server.ts";
export { readiness } from "#app/server/readiness.server.ts";
export { writesRefused } from "#app/server/schema-gate.server.ts";
export { requestInfoContext };

export const streamTimeout = 5_000;

/**
 * React writes a page in 2 KB pieces, and each would travel alone through two stream conversions
 * and a socket write (a 130 KB listing page: some 65 of each). This joins what is written in one
 * turn of the event loop (the whole shell) into one chunk; later pieces (streamed, deferred data)
 * still go out as soon as they are written.
 */
class CoalescingStream extends Transform {
  #pending: Buffer[] = [];
  #scheduled = false;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.#pending.push(chunk);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.#release());
    }
    callback();
  }

  override _flush(callback: TransformCallback) {
    this.#release();
    callback();
  }

  #release() {
    this.#scheduled = false;
    if (this.#pending.length === 0) return;
    const chunk = this.#pending.length === 1 ? (this.#pending[0] as Buffer) : Buffer.concat(this.#pending);
    this.#pending = [];
    this.push(chunk);
  }
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  // A client's mistake the router answered itself (a GET to an action-only route, say): the request
  // log line already has its 4xx status; it is not a server error.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  // A body cut off at its limit (app/server/request-bounds.server.ts): the client already has its 413.
  if (error instanceof Error && error.name === "BodyTooLargeError") return;
  const { requestId } = context.get(requestInfoContext);
  // Marked before the router renders: a plain 503 page, or the root middleware's 503 (logged once
  // per outage, app/db/database-unavailable.server.ts).
  if (isDatabaseUnavailable(error)) {
    markDatabaseUnavailable(context, error);
    return;
  }
  log.error("Unhandled error while serving a request", {
    requestId,
    url: new URL(request.url).pathname,
    error: error instanceof Error ? (error.stack ?? error.message) : errorMessage(error),
  });
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (metDatabaseUnavailable(loadContext)) {
    return databaseUnavailableResponse(request, loadContext, responseHeaders);
  }
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const { nonce, requestId } = loadContext.get(requestInfoContext);
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RequestIdContext.Provider value={requestId}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce || undefined} />
        </RequestIdContext.Provider>
      </NonceContext.Provider>,
      {
        nonce: nonce || undefined,
        [readyOption]() {
          shellRendered = true;
          const body = new CoalescingStream({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) log.error("Error while streaming a page", { error: errorMessage(error) });
        },
      },
    );
  });
}
