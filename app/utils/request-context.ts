import { createContext } from "react-router";

/** Per-request values the custom server hands to loaders and actions. */
export type RequestInfo = { requestId: string; clientAddress: string };

export const requestInfoContext = createContext<RequestInfo>({ requestId: "-", clientAddress: "unknown" });
