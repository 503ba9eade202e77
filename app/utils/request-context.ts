import { createContext } from "react-router";

/**
 * Per-request values the custom server hands to loaders, actions and the document render: the
 * request id, the client's address, and the CSP nonce the page's scripts must carry.
 */
export type RequestInfo = { requestId: string; clientAddress: string; nonce: string };

export const requestInfoContext = createContext<RequestInfo>({
  requestId: "-",
  clientAddress: "unknown",
  nonce: "",
});
