/** react-router's helpers that build a response (types, contexts and hooks are fine). */
const RESPONSE_HELPERS = new Set(["data", "redirect", "redirectDocument", "replace"]);

const IMPORT = /import\s+(type\s+)?([^;]*?)\s+from\s+["']([^"']+)["']/g;
const RESPONSE_BUILT = /new\s+Response\s*\(|Response\.(json|redirect|error)\s*\(/g;

/** The source without its comments (strings are kept: a `//` in a URL is not a comment here). */
function withoutComments(source: string) {
  return source.replace(/\/\*[\s\S]*?\*\/|(^|[^:"'`])\/\/.*$/gm, (match, before = "") =>
    match.startsWith("/*")
      ? match.replace(/[^\n]/g, " ")
      : `${before}${" ".repeat(match.length - before.length)}`,
  );
}

/**
 * Where `source` answers HTTP itself, as `line: what`: a value import of react-router's `data`,
 * `redirect`…, any value import of the toast helpers, `new Response(…)` or `Response.json(…)`.
 */
export function httpAnswers(source: string): string[] {
  const text = withoutComments(source);
  const lineOf = (index: number) => text.slice(0, index).split("\n").length;
  const found: { index: number; what: string }[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const [, typeOnly, clause = "", from = ""] = match;
    if (typeOnly) continue;
    if (/(^|\/)utils\/toast\.server(\.ts)?$/.test(from))
      found.push({ index: match.index, what: `imports ${from}` });
    if (from !== "react-router") continue;
    const named = clause.match(/\{([^}]*)\}/)?.[1] ?? "";
    for (const part of named.split(",")) {
      const words = part.trim().split(/\s+/);
      if (words[0] === "type") continue;
      if (words[0] && RESPONSE_HELPERS.has(words[0])) {
        found.push({ index: match.index, what: `imports ${words[0]} from react-router` });
      }
    }
  }
  for (const match of text.matchAll(RESPONSE_BUILT)) {
    found.push({ index: match.index, what: match[1] ? `Response.${match[1]}` : "new Response" });
  }
  return found.sort((a, b) => a.index - b.index).map(({ index, what }) => `${lineOf(index)}: ${what}`);
}
