/**
 * The store's clock (K-5, P-4 and P-13): every calendar question — delivery dates, the
 * dashboard's days, the dates shown to staff — is answered in this zone whatever the server's zone.
 * The one place the zone is written.
 */
export const STORE_TIME_ZONE = "America/New_York";

/** Date and time to the minute, two digits each, in the store's time zone. */
export const STORE_MINUTE_FIELDS = {
  timeZone: STORE_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
} as const satisfies Intl.DateTimeFormatOptions;

const partsFormatter = new Intl.DateTimeFormat("en-US", { ...STORE_MINUTE_FIELDS, hourCycle: "h23" });

export type StoreClock = Readonly<{ date: string; minutes: number }>;

// formatToParts costs microseconds and an order post asks several times: the answer changes only
// from one minute to the next (zone offsets are whole minutes), so the last minute's is kept.
let lastClock: { minute: number; clock: StoreClock } | undefined;

/** The wall-clock date (yyyy-MM-dd) and minutes since midnight in New York at `now`. */
export function storeClock(now: Date): StoreClock {
  const minute = Math.floor(now.getTime() / 60_000);
  if (lastClock?.minute === minute) return lastClock.clock;
  const parts = Object.fromEntries(partsFormatter.formatToParts(now).map((part) => [part.type, part.value]));
  const clock = Object.freeze({
    date: `${parts.year}-${parts.month}-${parts.day}`,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  });
  lastClock = { minute, clock };
  return clock;
}

/** yyyy-MM-dd of the calendar day after `date`. */
export function nextDate(date: string) {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday for a yyyy-MM-dd calendar date. */
export function weekday(date: string) {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
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
