import { createContext } from "react";
import type { DriverAction } from "#app/features/orders/driver-actions.schema.ts";

/**
 * Queues one driver action on the phone (record 050), or null while the forms post as they are:
 * given while there is no signal or changes wait. The proof-at-the-door forms take it as their
 * `onAction` (record 051).
 */
export const DriverQueueContext = createContext<((action: DriverAction) => void) | null>(null);
