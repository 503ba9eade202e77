/**
 * What a shopper typed at checkout, kept on their device (local storage) until the order is placed
 * or they clear it, so leaving to add an item or closing the tab loses nothing. The ID photo is
 * kept as the token of the copy sent ahead, never as the picture.
 */

import { SENT_PHOTO_KEPT_HOURS } from "#app/features/media/id-image.ts";
import { type DeliveryState, US_STATES } from "#app/features/purchase-limits/purchase-limits.ts";

export const CHECKOUT_DRAFT_STORAGE_KEY = "capital-grown-checkout";

export const DRAFT_TEXT_FIELDS = [
  "name",
  "email",
  "phone",
  "address",
  "city",
  "zipCode",
  "notes",
  "payWith",
] as const;

export type DraftTextField = (typeof DRAFT_TEXT_FIELDS)[number];

/** The ID photo sent ahead: its token, the file's name to show, and when it went. */
export type SentPhoto = { token: string; name: string; sentAt: number };

export type CheckoutDraft = {
  values: Record<DraftTextField, string>;
  state: DeliveryState;
  deliveryDate: string;
  timeSlot: string;
  photo: SentPhoto | null;
};

const MAX_TEXT = 2000;
const HOUR_MS = 60 * 60 * 1000;

export function emptyDraft(): CheckoutDraft {
  return {
    values: { name: "", email: "", phone: "", address: "", city: "", zipCode: "", notes: "", payWith: "" },
    state: "DC",
    deliveryDate: "",
    timeSlot: "",
    photo: null,
  };
}

const text = (value: unknown) => (typeof value === "string" ? value.slice(0, MAX_TEXT) : "");

/** Whether a photo sent at `sentAt` can still be named by an order at `now`. */
export function isSentPhotoUsable(photo: SentPhoto, now: number) {
  return now >= photo.sentAt && now - photo.sentAt < SENT_PHOTO_KEPT_HOURS * HOUR_MS;
}

/** The stored draft, read defensively: anything unreadable is dropped, an old photo token too. */
export function parseCheckoutDraft(raw: string | null, now: number): CheckoutDraft {
  const draft = emptyDraft();
  if (!raw) return draft;
  let stored: unknown;
  try {
    stored = JSON.parse(raw);
  } catch {
    return draft;
  }
  if (!stored || typeof stored !== "object") return draft;
  const record = stored as Record<string, unknown>;
  const values = (record.values ?? {}) as Record<string, unknown>;
  for (const field of DRAFT_TEXT_FIELDS) draft.values[field] = text(values[field]);
  if (US_STATES.includes(record.state as DeliveryState)) draft.state = record.state as DeliveryState;
  draft.deliveryDate = /^\d{4}-\d{2}-\d{2}$/.test(text(record.deliveryDate)) ? text(record.deliveryDate) : "";
  draft.timeSlot = text(record.timeSlot).slice(0, 100);
  const photo = record.photo as Record<string, unknown> | null | undefined;
  if (
    photo &&
    typeof photo.token === "string" &&
    /^[\w-]{10,200}$/.test(photo.token) &&
    typeof photo.sentAt === "number"
  ) {
    const sent: SentPhoto = {
      token: photo.token,
      name: text(photo.name).slice(0, 200),
      sentAt: photo.sentAt,
    };
    if (isSentPhotoUsable(sent, now)) draft.photo = sent;
  }
  return draft;
}

/** Whether the draft holds anything worth keeping (an untouched form is not stored). */
export function isDraftEmpty(draft: CheckoutDraft) {
  return (
    DRAFT_TEXT_FIELDS.every((field) => !draft.values[field].trim()) && !draft.timeSlot && draft.photo === null
  );
}
