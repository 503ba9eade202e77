/**
 * The store's clock (K-5, P-4 and P-13): every calendar question — delivery dates, the
 * dashboard's days, the dates shown to staff — is answered in this zone whatever the server's zone.
 * The one place the zone is written, and the one place calendar dates (yyyy-MM-dd) are read and
 * counted: through date-fns in the store's zone (`@date-fns/tz`), never by splitting the text.
 */
import { TZDate, tz } from "@date-fns/tz";
import { addDays, getDay, isValid, lightFormat, parseISO } from "date-fns";

export const STORE_TIME_ZONE = "America/New_York";

const inStore = tz(STORE_TIME_ZONE);
const CALENDAR_DATE = "yyyy-MM-dd";

/** Date and time to the minute, two digits each, in the store's time zone. */
export const STORE_MINUTE_FIELDS = {
  timeZone: STORE_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
} as const satisfies Intl.DateTimeFormatOptions;

export type StoreClock = Readonly<{ date: string; minutes: number }>;

// An order post asks several times, and the answer changes only from one minute to the next (zone
// offsets are whole minutes): the last minute's is kept.
let lastClock: { minute: number; clock: StoreClock } | undefined;

/** The wall-clock date (yyyy-MM-dd) and minutes since midnight in New York at `now`. */
export function storeClock(now: Date): StoreClock {
  const minute = Math.floor(now.getTime() / 60_000);
  if (lastClock?.minute === minute) return lastClock.clock;
  const local = new TZDate(now.getTime(), STORE_TIME_ZONE);
  const clock = Object.freeze({
    date: lightFormat(local, CALENDAR_DATE),
    minutes: local.getHours() * 60 + local.getMinutes(),
  });
  lastClock = { minute, clock };
  return clock;
}

/** Midnight in New York of the calendar date `text` (yyyy-MM-dd), or null when it names no real day. */
export function parseStoreDate(text: string): TZDate | null {
  const date = parseISO(text, { in: inStore });
  // parseISO also reads times and week dates: only the plain calendar date, written back the same, is one.
  return isValid(date) && lightFormat(date, CALENDAR_DATE) === text ? date : null;
}

/** Whether `text` is a calendar date written yyyy-MM-dd (2026-02-30 is not). */
export function isStoreDate(text: string) {
  return parseStoreDate(text) !== null;
}

function calendarDate(text: string) {
  const date = parseStoreDate(text);
  if (!date) throw new RangeError(`Not a calendar date (yyyy-MM-dd): ${JSON.stringify(text)}`);
  return date;
}

/** yyyy-MM-dd of the calendar day `days` after `date` (before it when negative). */
export function addStoreDays(date: string, days: number) {
  return lightFormat(addDays(calendarDate(date), days, { in: inStore }), CALENDAR_DATE);
}

/** yyyy-MM-dd of the calendar day after `date`. */
export function nextDate(date: string) {
  return addStoreDays(date, 1);
}

/** 0 = Sunday … 6 = Saturday for a yyyy-MM-dd calendar date. */
export function weekday(date: string) {
  return getDay(calendarDate(date), { in: inStore });
}

const dayLabel = new Intl.DateTimeFormat("en-US", {
  timeZone: STORE_TIME_ZONE,
  weekday: "short",
  month: "short",
  day: "numeric",
});

/** 'Sat, Nov 28' for a yyyy-MM-dd calendar date. */
export function formatStoreDate(date: string) {
  return dayLabel.format(calendarDate(date));
}

/** The store's calendar year at `now` (the footer's copyright line). */
export function storeYear(now: Date) {
  return new TZDate(now.getTime(), STORE_TIME_ZONE).getFullYear();
}

/**
 * When the store opens on a weekday (0 = Sunday), in minutes after midnight store time: delivery
 * hours are Mon–Sat 10am–8pm and Sun 11am–6pm (K-9). The low-stock digest goes out then.
 */
export function openingMinutes(day: number) {
  return day === 0 ? 11 * 60 : 10 * 60;
}

/** The store day (yyyy-MM-dd in New York) an instant falls on: dashboard totals use it. */
export function storeDay(instant: Date) {
  return storeClock(instant).date;
}
