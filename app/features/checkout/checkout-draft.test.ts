import { describe, expect, it } from "vitest";
import { SENT_PHOTO_KEPT_HOURS, UNCLAIMED_PHOTO_HOURS } from "#app/features/media/id-image.ts";
import { emptyDraft, isDraftEmpty, parseCheckoutDraft } from "./checkout-draft.ts";

const HOUR = 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 27, 15);
const TOKEN = "0b7e3f1a-6a7c-4d1e-9f55-1d2c3b4a5e6f";

function stored(photo: unknown, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    values: { name: "Rita", email: "rita@kept.test", zipCode: "20001", payWith: "150" },
    state: "VA",
    deliveryDate: "2026-11-28",
    timeSlot: "10:00 AM-12:00 PM",
    photo,
    ...extra,
  });
}

describe("the kept checkout draft", () => {
  it("reads back what was typed and the photo's token while the server still keeps the photo", () => {
    const draft = parseCheckoutDraft(stored({ token: TOKEN, name: "id.png", sentAt: NOW - HOUR }), NOW);
    expect(draft.values).toMatchObject({
      name: "Rita",
      email: "rita@kept.test",
      zipCode: "20001",
      payWith: "150",
    });
    expect(draft.values.address).toBe("");
    expect(draft).toMatchObject({ state: "VA", deliveryDate: "2026-11-28", timeSlot: "10:00 AM-12:00 PM" });
    expect(draft.photo).toEqual({ token: TOKEN, name: "id.png", sentAt: NOW - HOUR });
  });

  it("drops a token the server is about to delete, and anything unreadable", () => {
    expect(SENT_PHOTO_KEPT_HOURS).toBeLessThan(UNCLAIMED_PHOTO_HOURS);
    const old = parseCheckoutDraft(
      stored({ token: TOKEN, name: "id.png", sentAt: NOW - SENT_PHOTO_KEPT_HOURS * HOUR }),
      NOW,
    );
    expect(old.photo).toBeNull();
    expect(old.values.name).toBe("Rita");
    expect(parseCheckoutDraft(stored({ token: "<script>", sentAt: NOW }), NOW).photo).toBeNull();
    expect(parseCheckoutDraft(stored(null, { state: "NY", deliveryDate: "tomorrow" }), NOW)).toMatchObject({
      state: "DC",
      deliveryDate: "",
    });
    expect(parseCheckoutDraft("{not json", NOW)).toEqual(emptyDraft());
    expect(parseCheckoutDraft(null, NOW)).toEqual(emptyDraft());
  });

  it("an untouched form is nothing to keep", () => {
    expect(isDraftEmpty(emptyDraft())).toBe(true);
    expect(isDraftEmpty({ ...emptyDraft(), values: { ...emptyDraft().values, name: "R" } })).toBe(false);
  });
});
