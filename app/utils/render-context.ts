import { createContext, useContext, useState } from "react";

/**
 * The CSP nonce of the response being rendered (server.ts makes one per response; pages for the
 * page cache have none: their policy names their scripts' hashes). Only the server render needs it:
 * browsers hide a nonce from scripts, so on the client it is empty. Undefined when there is none, so
 * no empty `nonce` attribute is written.
 */
export const NonceContext = createContext("");

export function useNonce() {
  return useContext(NonceContext) || undefined;
}

/** The request id of a server-rendered response, for the error page (shown as its reference). */
export const RequestIdContext = createContext("");

const REQUEST_ID_ELEMENT = "request-id";

/**
 * The request id the server rendered the page with: from the render context on the server, and
 * from what the server wrote into the page when it hydrates (so both render the same text). Empty
 * after a navigation in the browser.
 */
export function useServerRequestId() {
  const fromServer = useContext(RequestIdContext);
  const [requestId] = useState(
    () =>
      fromServer ||
      (typeof document === "undefined"
        ? ""
        : (document.getElementById(REQUEST_ID_ELEMENT)?.textContent ?? "")),
  );
  return { requestId, elementId: REQUEST_ID_ELEMENT };
}
