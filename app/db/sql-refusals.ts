/**
 * The SQLSTATEs the shop's SQL functions (`drizzle/functions/*.sql`) raise to refuse a write, one
 * code for one meaning. TypeScript names them only through this table, and
 * `tests/architecture/sql-definitions.test.ts` checks that the functions raise exactly these codes.
 */
export const SQL_REFUSALS = {
  /**
   * Not enough stock. `place_order`: DETAIL the size id, HINT the units on hand. `move_stock`: the
   * same, the move would take the size below zero. `change_order_status` reopening a cancelled
   * order: DETAIL 'product (size)'.
   */
  outOfStock: "CG409",
  /** `place_order`: the delivery slot is closed or full. DETAIL 'closed' or 'full', HINT the closure's reason. */
  slotUnavailable: "CG410",
  /** `place_order`: a size's price or label changed since it was read (read again and retry). DETAIL the size id. */
  priceChanged: "CG412",
  /**
   * `place_order`: the e-mail address (DETAIL 'email') or phone number (DETAIL 'phone') already has
   * the most open orders allowed.
   */
  tooManyOpenOrders: "CG428",
  /** `place_order`: the client address's hourly order budget is used up. HINT when it renews (ms since the epoch). */
  orderBudgetUsedUp: "CG429",
} as const;

export type SqlRefusalCode = (typeof SQL_REFUSALS)[keyof typeof SQL_REFUSALS];
