import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import v8 from "node:v8";
import { errorMessage, log } from "../utils/logger.server.ts";

/**
 * PGlite's WebAssembly, compiled so that PostgreSQL's SQL parser (`raw_parser`, one 105 KB function
 * holding the whole generated grammar) never moves to V8's optimizing compiler.
 *
 * V8 first compiles each function with its baseline compiler and recompiles it with its optimizing
 * compiler once it is hot. For `raw_parser`, hot from the first statements, that recompilation
 * takes about 600 MB of compiler memory for a second or more (V8's own statistics: 604 MB in its
 * first graph-copying phase, whatever the loop-unrolling, peeling, inlining or optimization flags),
 * which was most of every start's peak. Every other function still tiers up as before.
 *
 * How: V8 compiles a function without tier-up checks when it is compiled while
 * `--wasm-tier-up-filter` names another function. A `compilationHints` custom section (ignored by
 * anything that does not read it) asks V8 to compile `raw_parser` eagerly, at module compilation,
 * so the filter is set only for that synchronous compilation and set back before any other
 * function of the module is compiled (lazily, at its first call).
 */

const HINTS_SECTION = "compilationHints";
/** Strategy eager (2), baseline tier Liftoff (1 << 2), top tier Liftoff (1 << 4). */
const EAGER_BASELINE_ONLY = 2 | (1 << 2) | (1 << 4);
const PARSER_EXPORT = "raw_parser";

let compiled: WebAssembly.Module | null | undefined;

/** The compiled module for PGlite's `pgliteWasmModule` option (compiled once per process), or undefined to let PGlite compile its own. */
export function pgliteWasmModule(): WebAssembly.Module | undefined {
  if (compiled === undefined) {
    try {
      compiled = compileWithoutParserTierUp(readFileSync(pgliteWasmPath()));
    } catch (error) {
      log.warn(`PGlite's WebAssembly compiled the default way (${errorMessage(error)})`);
      compiled = null;
    }
  }
  return compiled ?? undefined;
}

function pgliteWasmPath() {
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  return path.join(path.dirname(entry), "pglite.wasm");
}

export function compileWithoutParserTierUp(wasm: Uint8Array): WebAssembly.Module {
  const layout = readLayout(wasm);
  const parserIndex = layout.exports.get(PARSER_EXPORT);
  if (parserIndex === undefined || parserIndex < layout.importedFunctions) {
    throw new Error(`no function exported as ${PARSER_EXPORT}`);
  }
  const hints = new Uint8Array(layout.declaredFunctions);
  hints[parserIndex - layout.importedFunctions] = EAGER_BASELINE_ONLY;
  const name = new TextEncoder().encode(HINTS_SECTION);
  const payload = concat([leb128(name.length), name, leb128(hints.length), hints]);
  const section = concat([Uint8Array.of(0), leb128(payload.length), payload]);
  const patched = concat([
    wasm.subarray(0, layout.codeSectionStart),
    section,
    wasm.subarray(layout.codeSectionStart),
  ]);
  // Function 0 is an import: no compiled function of the module matches it, so none compiled
  // while it is the filter gets tier-up checks.
  v8.setFlagsFromString("--experimental-wasm-compilation-hints");
  v8.setFlagsFromString("--wasm-tier-up-filter=0");
  try {
    return new WebAssembly.Module(patched);
  } finally {
    v8.setFlagsFromString("--wasm-tier-up-filter=-1");
    v8.setFlagsFromString("--no-experimental-wasm-compilation-hints");
  }
}

type Layout = {
  importedFunctions: number;
  declaredFunctions: number;
  codeSectionStart: number;
  exports: Map<string, number>;
};

/** The few facts of a WebAssembly binary the hints need, read from its sections. */
function readLayout(wasm: Uint8Array): Layout {
  let at = 8;
  const byte = () => {
    if (at >= wasm.length) throw new Error("truncated WebAssembly module");
    return wasm[at++] as number;
  };
  const unsigned = () => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const next = byte();
      result += (next & 0x7f) * 2 ** shift;
      if ((next & 0x80) === 0) return result;
      shift += 7;
    }
  };
  const name = () => {
    const length = unsigned();
    const text = new TextDecoder().decode(wasm.subarray(at, at + length));
    at += length;
    return text;
  };
  const limits = () => {
    const flags = byte();
    unsigned();
    if (flags & 1) unsigned();
  };
  const layout: Layout = {
    importedFunctions: 0,
    declaredFunctions: 0,
    codeSectionStart: -1,
    exports: new Map(),
  };
  while (at < wasm.length) {
    const start = at;
    const id = byte();
    const size = unsigned();
    const end = at + size;
    if (id === 2) {
      const count = unsigned();
      for (let i = 0; i < count; i++) {
        name();
        name();
        const kind = byte();
        if (kind === 0) {
          unsigned();
          layout.importedFunctions++;
        } else if (kind === 1) {
          byte();
          limits();
        } else if (kind === 2) {
          limits();
        } else if (kind === 3) {
          byte();
          byte();
        } else if (kind === 4) {
          byte();
          unsigned();
        } else {
          throw new Error(`unknown import kind ${kind}`);
        }
      }
    } else if (id === 3) {
      layout.declaredFunctions = unsigned();
    } else if (id === 7) {
      const count = unsigned();
      for (let i = 0; i < count; i++) {
        const exported = name();
        const kind = byte();
        const index = unsigned();
        if (kind === 0) layout.exports.set(exported, index);
      }
    } else if (id === 10) {
      layout.codeSectionStart = start;
      break;
    }
    at = end;
  }
  if (layout.codeSectionStart < 0) throw new Error("no code section");
  return layout;
}

function leb128(value: number) {
  const bytes: number[] = [];
  let rest = value;
  do {
    let next = rest & 0x7f;
    rest = Math.floor(rest / 128);
    if (rest > 0) next |= 0x80;
    bytes.push(next);
  } while (rest > 0);
  return Uint8Array.from(bytes);
}

function concat(parts: Uint8Array[]) {
  const result = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    result.set(part, offset);
    offset += part.length;
  }
  return result;
}
