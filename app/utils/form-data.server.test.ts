import { describe, expect, it } from "vitest";
import { repeatedField } from "./form-data.server.ts";

function form(fields: [string, string][]) {
  const data = new FormData();
  for (const [name, value] of fields) data.append(name, value);
  return data;
}

describe("repeated form fields", () => {
  it("refuses any field named twice unless the route allows that field to repeat", () => {
    const selection = form([
      ["intent", "bulk-confirm"],
      ["orderIds", "a"],
      ["orderIds", "b"],
    ]);
    expect(repeatedField(selection)).toBe("orderIds");
    expect(repeatedField(selection, ["orderIds"])).toBeNull();
    // The intent stays single even where a selection may repeat.
    const twoIntents = form([
      ["intent", "bulk-cancel"],
      ["orderIds", "a"],
      ["intent", "bulk-confirm"],
    ]);
    expect(repeatedField(twoIntents, ["orderIds"])).toBe("intent");
  });
});
