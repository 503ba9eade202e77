/**
 * An order's history as its card shows it: repeated views of the ID photo by one person, with
 * nothing else between them, read as one line ('Viewed the ID photo 5 times, 2:10–2:40 PM').
 * The audit log itself keeps every event (record 036); only the display folds them. Plain rules,
 * no database: the loader folds, the card and the tests read the same words.
 */
import { STORE_TIME_ZONE } from "#app/utils/store-time.ts";

export type HistoryEvent = {
  createdAt: string;
  actorEmail: string | null;
  action: string;
  details: unknown;
};

/** One line of the history: an event, or several views folded (`count` > 1, `firstAt` the oldest). */
export type FoldedHistoryEvent = HistoryEvent & { count: number; firstAt: string };

const FOLDED_ACTIONS: ReadonlySet<string> = new Set(["id_photo.viewed"]);

/** `events` newest first, as the log returns them; folded the same way. */
export function foldOrderHistory(events: readonly HistoryEvent[]): FoldedHistoryEvent[] {
  const folded: FoldedHistoryEvent[] = [];
  for (const event of events) {
    const last = folded[folded.length - 1];
    if (
      last &&
      FOLDED_ACTIONS.has(event.action) &&
      last.action === event.action &&
      last.actorEmail === event.actorEmail
    ) {
      last.count += 1;
      last.firstAt = event.createdAt;
      continue;
    }
    folded.push({ ...event, count: 1, firstAt: event.createdAt });
  }
  return folded;
}

const clock = new Intl.DateTimeFormat("en-US", {
  hour: "numeric",
  minute: "2-digit",
  timeZone: STORE_TIME_ZONE,
});
const dayAndClock = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: STORE_TIME_ZONE,
});
const storeDate = new Intl.DateTimeFormat("en-CA", { timeZone: STORE_TIME_ZONE });

/** ICU puts a narrow no-break space before AM/PM: plain spaces read and compare the same everywhere. */
const plain = (format: Intl.DateTimeFormat, date: Date) => format.format(date).replace(/\s/g, " ");

/** '2:10–2:40 PM', '11:50 AM–12:20 PM', or with the dates when the views span days. */
export function timeSpanText(firstAt: string, lastAt: string) {
  const first = new Date(firstAt);
  const last = new Date(lastAt);
  if (storeDate.format(first) !== storeDate.format(last)) {
    return `${plain(dayAndClock, first)}–${plain(dayAndClock, last)}`;
  }
  const from = plain(clock, first);
  const to = plain(clock, last);
  if (from === to) return to;
  const meridiem = / ?[AP]M$/.exec(from)?.[0];
  const sameHalf = meridiem !== undefined && to.endsWith(meridiem);
  return `${sameHalf ? from.slice(0, -meridiem.length) : from}–${to}`;
}

/** A folded line's own words ('5 times, 2:10–2:40 PM'); empty for a single event. */
export function foldedText(entry: FoldedHistoryEvent) {
  if (entry.count < 2) return "";
  return `${entry.count} times, ${timeSpanText(entry.firstAt, entry.createdAt)}`;
}
