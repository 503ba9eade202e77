import { expect, it } from "vitest";
import { hideInvitationLinks } from "#app/features/email/outbox-list.server.ts";
import { deviceName } from "./format.ts";

it("names a session's device from its User-Agent", () => {
  expect(
    deviceName(
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36",
    ),
  ).toBe("Chrome on Android");
  expect(
    deviceName(
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
    ),
  ).toBe("Safari on iOS");
  expect(deviceName("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0")).toBe(
    "Firefox on Windows",
  );
  expect(deviceName("")).toBe("Unknown device");
});

it("the outbox list hides invitation links, which sign up whoever opens them first", () => {
  const text = "Accept the invitation: https://shop.example/admin/invitation/AbC_-123xyz";
  expect(hideInvitationLinks(text)).toBe(
    "Accept the invitation: https://shop.example/admin/invitation/(hidden)",
  );
});
