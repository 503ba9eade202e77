import { describe, expect, it } from "vitest";
import { foldedText, foldOrderHistory, type HistoryEvent, timeSpanText } from "./order-history.ts";

const event = (createdAt: string, action: string, actorEmail: string | null = "dana@staff.example") =>
  ({ createdAt, action, actorEmail, details: null }) satisfies HistoryEvent;

describe("the order's history, folded", () => {
  it("reads one person's run of ID photo views as one line, newest first", () => {
    // Newest first, as the log returns them: 2:40 PM back to 2:10 PM store time (EST, UTC-5).
    const views = ["19:40", "19:32", "19:25", "19:18", "19:10"].map((time) =>
      event(`2026-11-27T${time}:00.000Z`, "id_photo.viewed"),
    );
    const [line, ...rest] = foldOrderHistory(views);
    expect(rest).toEqual([]);
    expect(line).toMatchObject({
      count: 5,
      createdAt: "2026-11-27T19:40:00.000Z",
      firstAt: "2026-11-27T19:10:00.000Z",
    });
    expect(foldedText(line as never)).toBe("5 times, 2:10–2:40 PM");
  });

  it("keeps other events, other people and views split by another event apart", () => {
    const history = foldOrderHistory([
      event("2026-11-27T19:50:00.000Z", "id_photo.viewed"),
      event("2026-11-27T19:45:00.000Z", "id_photo.viewed", "sam@staff.example"),
      event("2026-11-27T19:44:00.000Z", "id_photo.viewed", "sam@staff.example"),
      event("2026-11-27T19:40:00.000Z", "order.status_changed"),
      event("2026-11-27T19:30:00.000Z", "order.status_changed"),
      event("2026-11-27T19:20:00.000Z", "id_photo.viewed"),
    ]);
    expect(history.map((line) => [line.action, line.actorEmail, line.count])).toEqual([
      ["id_photo.viewed", "dana@staff.example", 1],
      ["id_photo.viewed", "sam@staff.example", 2],
      ["order.status_changed", "dana@staff.example", 1],
      ["order.status_changed", "dana@staff.example", 1],
      ["id_photo.viewed", "dana@staff.example", 1],
    ]);
    expect(foldedText(history[0] as never)).toBe("");
  });

  it("writes a span across noon and across days in full", () => {
    expect(timeSpanText("2026-11-27T16:50:00.000Z", "2026-11-27T17:20:00.000Z")).toBe("11:50 AM–12:20 PM");
    expect(timeSpanText("2026-11-27T19:10:00.000Z", "2026-11-27T19:10:30.000Z")).toBe("2:10 PM");
    expect(timeSpanText("2026-11-26T19:10:00.000Z", "2026-11-27T19:40:00.000Z")).toBe(
      "Nov 26, 2:10 PM–Nov 27, 2:40 PM",
    );
  });
});
