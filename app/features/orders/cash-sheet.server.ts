/**
 * Drivers' cash sheets (P-33, record 052): one per driver and store day. The float and, at
 * hand-in, the figures as they stood (collected, change, expected, counted) are kept; until then
 * the figures are read live from the driver's delivered orders. A manager or owner confirms the
 * drop. Every change writes its audit event in the same transaction.
 */
import { and, asc, desc, eq, gte, inArray, isNotNull, lte, ne, sql } from "drizzle-orm";
import { db, type Executor, type Transaction } from "#app/db/client.server.ts";
import { adminUsers, deliveryProofs, driverCashSheets, orders } from "#app/db/schema.ts";
import { type AuditBy, recordAuditBy } from "#app/features/audit/audit.server.ts";
import { csvLines, figure } from "#app/utils/csv.ts";
import {
  type CashFigures,
  type CashLine,
  cashDifferenceCents,
  cashFigures,
  MAX_CASH_CENTS,
} from "./cash-sheet.ts";

export type CashResult = { ok: true; message: string } | { ok: false; message: string };

export type CashSheetView = {
  driverId: string;
  driverName: string;
  date: string;
  sheetId: string | null;
  floatCents: number;
  lines: CashLine[];
  /** The figures from the float and today's delivered orders as they are now. */
  live: CashFigures;
  handedIn: null | {
    at: string;
    collectedCents: number;
    changeCents: number;
    expectedCents: number;
    countedCents: number;
    differenceCents: number;
  };
  confirmed: null | { at: string; by: string };
};

/** A staff member as the cash pages name them: first name, else the e-mail. */
export function staffName(user: { firstName: string; email: string }) {
  return user.firstName.trim() || user.email;
}

/**
 * The delivered orders of the drivers on a day, as cash lines. What the customer handed over is the
 * cash the driver recorded at the door (P-32), or, for an order delivered without that proof (from
 * the board), its 'I'll pay with' amount.
 */
async function deliveredLines(executor: Executor, date: string, driverIds?: readonly string[]) {
  const rows = await executor
    .select({
      driverId: orders.driverId,
      orderId: orders.id,
      customerName: orders.customerName,
      totalCents: orders.totalAmountCents,
      receivedCents: sql<
        number | null
      >`coalesce(${deliveryProofs.cashReceivedCents}, ${orders.payWithCents})`.mapWith(
        (value: string | number | null) => (value === null ? null : Number(value)),
      ),
    })
    .from(orders)
    .leftJoin(deliveryProofs, eq(deliveryProofs.orderId, orders.id))
    .where(
      and(
        eq(orders.deliveryDate, date),
        eq(orders.status, "delivered"),
        driverIds ? inArray(orders.driverId, [...driverIds]) : isNotNull(orders.driverId),
      ),
    )
    .orderBy(asc(orders.statusChangedAt), asc(orders.id));
  const byDriver = new Map<string, CashLine[]>();
  for (const { driverId, ...line } of rows) {
    if (!driverId) continue;
    byDriver.set(driverId, [...(byDriver.get(driverId) ?? []), line]);
  }
  return byDriver;
}

type SheetRow = typeof driverCashSheets.$inferSelect;

function viewOf(
  driver: { id: string; firstName: string; email: string },
  date: string,
  sheet: SheetRow | undefined,
  lines: CashLine[],
  confirmer: string | null,
): CashSheetView {
  const floatCents = sheet?.floatCents ?? 0;
  const handedIn =
    sheet?.handedInAt && sheet.countedCents !== null && sheet.expectedCents !== null
      ? {
          at: sheet.handedInAt.toISOString(),
          collectedCents: sheet.collectedCents ?? 0,
          changeCents: sheet.changeCents ?? 0,
          expectedCents: sheet.expectedCents,
          countedCents: sheet.countedCents,
          differenceCents: cashDifferenceCents(sheet.expectedCents, sheet.countedCents),
        }
      : null;
  return {
    driverId: driver.id,
    driverName: staffName(driver),
    date,
    sheetId: sheet?.id ?? null,
    floatCents,
    lines,
    live: cashFigures(floatCents, lines),
    handedIn,
    confirmed: sheet?.confirmedAt ? { at: sheet.confirmedAt.toISOString(), by: confirmer ?? "" } : null,
  };
}

/**
 * Every driver's sheet of a day: those who delivered an order or have a sheet (a float taken, a
 * hand-in), by name. `driverId` narrows it to one driver (their own sheet on the phone).
 */
export async function listCashSheets(
  date: string,
  options: { driverId?: string; executor?: Executor } = {},
): Promise<CashSheetView[]> {
  const executor = options.executor ?? (await db());
  const only = options.driverId ? [options.driverId] : undefined;
  const [lines, sheets] = [
    await deliveredLines(executor, date, only),
    await executor
      .select()
      .from(driverCashSheets)
      .where(
        and(
          eq(driverCashSheets.shiftDate, date),
          only ? eq(driverCashSheets.driverId, only[0] as string) : undefined,
        ),
      ),
  ];
  const ids = new Set([...lines.keys(), ...sheets.map((sheet) => sheet.driverId), ...(only ?? [])]);
  for (const sheet of sheets) if (sheet.confirmedBy) ids.add(sheet.confirmedBy);
  if (ids.size === 0) return [];
  const people = await executor
    .select({ id: adminUsers.id, firstName: adminUsers.firstName, email: adminUsers.email })
    .from(adminUsers)
    .where(inArray(adminUsers.id, [...ids]));
  const byId = new Map(people.map((person) => [person.id, person]));
  const drivers = only ?? [...new Set([...lines.keys(), ...sheets.map((sheet) => sheet.driverId)])];
  return drivers
    .flatMap((driverId) => {
      const driver = byId.get(driverId);
      if (!driver) return [];
      const sheet = sheets.find((row) => row.driverId === driverId);
      const confirmer = sheet?.confirmedBy ? byId.get(sheet.confirmedBy) : undefined;
      return [
        viewOf(driver, date, sheet, lines.get(driverId) ?? [], confirmer ? staffName(confirmer) : null),
      ];
    })
    .sort((a, b) => a.driverName.localeCompare(b.driverName));
}

export async function getCashSheet(driverId: string, date: string, executor?: Executor) {
  const [sheet] = await listCashSheets(date, { driverId, ...(executor ? { executor } : {}) });
  return sheet ?? null;
}

/** Makes the driver's sheet of the day if there is none yet and locks it for this transaction. */
async function lockedSheet(tx: Executor, driverId: string, date: string) {
  await tx.insert(driverCashSheets).values({ driverId, shiftDate: date }).onConflictDoNothing();
  const [sheet] = await tx
    .select()
    .from(driverCashSheets)
    .where(and(eq(driverCashSheets.driverId, driverId), eq(driverCashSheets.shiftDate, date)))
    .for("update");
  return sheet as SheetRow;
}

/**
 * A driver's change to their own sheet of the day, in one transaction under the sheet's lock: the
 * amount must be whole cents up to MAX_CASH_CENTS and the sheet not handed in yet, else the
 * matching refusal's words.
 */
async function changeOpenSheet(
  driverId: string,
  date: string,
  cents: number,
  refusals: { amount: string; handedIn: string },
  change: (tx: Transaction, sheet: SheetRow) => Promise<CashResult>,
): Promise<CashResult> {
  if (!Number.isInteger(cents) || cents < 0 || cents > MAX_CASH_CENTS)
    return { ok: false, message: refusals.amount };
  const database = await db();
  return database.transaction(async (tx) => {
    const sheet = await lockedSheet(tx, driverId, date);
    if (sheet.handedInAt) return { ok: false, message: refusals.handedIn };
    return change(tx, sheet);
  });
}

/** The float the driver takes out at the start of the shift; changeable until the hand-in. */
export async function setCashFloat(
  driverId: string,
  date: string,
  floatCents: number,
  by: AuditBy,
): Promise<CashResult> {
  const refusals = {
    amount: "Enter the float in dollars and cents",
    handedIn: "The cash is handed in: the float cannot change now",
  };
  return changeOpenSheet(driverId, date, floatCents, refusals, async (tx, sheet) => {
    await tx
      .update(driverCashSheets)
      .set({ floatCents, updatedAt: sql`now()` })
      .where(eq(driverCashSheets.id, sheet.id));
    await recordAuditBy(tx, by, {
      action: "cash.float_set",
      targetType: "cash_sheet",
      targetId: sheet.id,
      details: { date, from: sheet.floatCents, to: floatCents },
    });
    return { ok: true, message: "Float saved" };
  });
}

/**
 * The driver hands in the counted cash: the figures are kept as they stand (delivered orders read
 * under the sheet's lock), the difference is audited, and the sheet is closed to the driver.
 */
export async function handInCash(
  driverId: string,
  date: string,
  countedCents: number,
  by: AuditBy,
): Promise<CashResult> {
  const refusals = {
    amount: "Enter the counted cash in dollars and cents",
    handedIn: "This shift's cash is already handed in",
  };
  return changeOpenSheet(driverId, date, countedCents, refusals, async (tx, sheet) => {
    const lines = (await deliveredLines(tx, date, [driverId])).get(driverId) ?? [];
    const figures = cashFigures(sheet.floatCents, lines);
    const differenceCents = cashDifferenceCents(figures.expectedCents, countedCents);
    await tx
      .update(driverCashSheets)
      .set({
        collectedCents: figures.collectedCents,
        changeCents: figures.changeCents,
        expectedCents: figures.expectedCents,
        countedCents,
        handedInAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(eq(driverCashSheets.id, sheet.id));
    await recordAuditBy(tx, by, {
      action: "cash.handed_in",
      targetType: "cash_sheet",
      targetId: sheet.id,
      details: {
        date,
        orders: lines.length,
        floatCents: figures.floatCents,
        expectedCents: figures.expectedCents,
        countedCents,
        differenceCents,
      },
    });
    return { ok: true, message: "Cash handed in: a manager confirms the drop" };
  });
}

/** A manager or owner confirms the drop they received (the route's permission says who may). */
export async function confirmCashDrop(sheetId: string, by: AuditBy): Promise<CashResult> {
  const database = await db();
  return database.transaction(async (tx) => {
    const [sheet] = await tx
      .select()
      .from(driverCashSheets)
      .where(eq(driverCashSheets.id, sheetId))
      .for("update");
    if (!sheet) return { ok: false, message: "No such cash sheet" };
    if (!sheet.handedInAt || sheet.expectedCents === null || sheet.countedCents === null)
      return { ok: false, message: "The driver has not handed in the cash yet" };
    if (sheet.confirmedAt) return { ok: false, message: "This drop is already confirmed" };
    await tx
      .update(driverCashSheets)
      .set({ confirmedAt: sql`now()`, confirmedBy: by.actor.userId, updatedAt: sql`now()` })
      .where(eq(driverCashSheets.id, sheet.id));
    await recordAuditBy(tx, by, {
      action: "cash.drop_confirmed",
      targetType: "cash_sheet",
      targetId: sheet.id,
      details: {
        date: sheet.shiftDate,
        driverId: sheet.driverId,
        expectedCents: sheet.expectedCents,
        countedCents: sheet.countedCents,
        differenceCents: cashDifferenceCents(sheet.expectedCents, sheet.countedCents),
      },
    });
    return { ok: true, message: "Cash drop confirmed" };
  });
}

export type CashDifference = {
  sheetId: string;
  date: string;
  driverName: string;
  differenceCents: number;
  confirmed: boolean;
};

/** Handed-in sheets whose count differs from the expected cash, between two store days, newest first. */
export async function listCashDifferences(from: string, to: string): Promise<CashDifference[]> {
  const database = await db();
  const rows = await database
    .select({
      sheetId: driverCashSheets.id,
      date: driverCashSheets.shiftDate,
      firstName: adminUsers.firstName,
      email: adminUsers.email,
      expectedCents: driverCashSheets.expectedCents,
      countedCents: driverCashSheets.countedCents,
      confirmedAt: driverCashSheets.confirmedAt,
    })
    .from(driverCashSheets)
    .innerJoin(adminUsers, eq(adminUsers.id, driverCashSheets.driverId))
    .where(
      and(
        gte(driverCashSheets.shiftDate, from),
        lte(driverCashSheets.shiftDate, to),
        isNotNull(driverCashSheets.handedInAt),
        ne(driverCashSheets.countedCents, driverCashSheets.expectedCents),
      ),
    )
    .orderBy(desc(driverCashSheets.shiftDate), asc(adminUsers.firstName))
    .limit(50);
  return rows.map((row) => ({
    sheetId: row.sheetId,
    date: row.date,
    driverName: staffName(row),
    differenceCents: cashDifferenceCents(row.expectedCents ?? 0, row.countedCents ?? 0),
    confirmed: row.confirmedAt !== null,
  }));
}

const CASH_REPORT_HEADER = [
  "Date",
  "Driver",
  "Orders delivered",
  "Float",
  "Collected",
  "Change given",
  "Expected",
  "Counted",
  "Difference",
  "Handed in at",
  "Confirmed by",
];

/** The daily cash report (P-33) as CSV: one line per driver, dollars with two decimals. */
export function cashReportCsv(sheets: readonly CashSheetView[]) {
  const dollars = (cents: number | null | undefined) =>
    cents === null || cents === undefined ? null : figure(cents / 100, 2);
  return csvLines([
    CASH_REPORT_HEADER,
    ...sheets.map((sheet) => {
      const kept = sheet.handedIn;
      return [
        sheet.date,
        sheet.driverName,
        figure(sheet.lines.length),
        dollars(sheet.floatCents),
        dollars(kept?.collectedCents ?? sheet.live.collectedCents),
        dollars(kept?.changeCents ?? sheet.live.changeCents),
        dollars(kept?.expectedCents ?? sheet.live.expectedCents),
        dollars(kept?.countedCents),
        dollars(kept?.differenceCents),
        kept?.at ?? "",
        sheet.confirmed?.by ?? "",
      ];
    }),
  ]);
}
