/**
 * Structured logs (issue 12 item 6, decisions 018 and 024): one JSON object per line through pino, on
 * stdout. `LOG_LEVEL` picks the level, `LOG_FORMAT=pretty` gives coloured lines for development
 * (pino-pretty, a dev dependency: without it the lines stay JSON).
 *
 * Every line written while a request is served carries that request's id: the HTTP server runs each
 * request inside `withRequestId` (AsyncLocalStorage), and `log.*` writes through a child logger bound
 * to that id, made the first time the request logs something (most requests never do). Nothing
 * personal goes in: no form bodies, no headers (the redaction list below is the safety net for code
 * that would pass a request or response object), no URLs with tokens.
 *
 * The one line per request (`logRequest`) does not go through pino's serializer: it is built from
 * a fixed set of fields known to hold no personal data, and those lines are written in batches
 * (decision 024): a /shop cache hit costs about 30 µs, and a pino line with a write of its own cost
 * a fifth of that.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createRequire } from "node:module";
import pino, { type Logger } from "pino";
import { config } from "./env.server.ts";

/** Paths pino blanks if a request, a response or its headers ever reach a log line. */
export const REDACTED_PATHS = [
  "req.headers.cookie",
  "req.headers.authorization",
  "req.headers['x-csrf-token']",
  "res.headers['set-cookie']",
  "headers.cookie",
  "headers.authorization",
  "headers['set-cookie']",
  "cookie",
  "authorization",
  "password",
  "token",
  "email",
  "phone",
  "name",
  "address",
  "street",
];

/** What a request's lines share: its id, and its child logger once it has logged something. */
type RequestScope = { requestId: string; logger?: Logger };
type LoggingState = { root: Logger; requests: AsyncLocalStorage<RequestScope>; lines?: RequestLines };

/** Request lines wait at most this long, or until this many wait (then one write of about 50 KB). */
const BATCH_DELAY_MS = 5;
const BATCH_LINES = 256;

/**
 * Request lines waiting for their write, kept as their fields and made into JSON only when written
 * (decision 024): building 256 lines in one go cost the server about half of what building each line
 * as its request ended did, measured in one process with the level switched. They are written
 * together: when BATCH_LINES wait, BATCH_DELAY_MS after the first, just before any line pino writes
 * (so the file keeps the order in which lines were logged), by `flushLogs()`, and when the process
 * exits, a crash included.
 */
class RequestLines {
  private count = 0;
  private readonly levels = new Array<RequestLevel>(BATCH_LINES).fill("info");
  private readonly requestIds = new Array<string>(BATCH_LINES).fill("");
  private readonly methods = new Array<string>(BATCH_LINES).fill("");
  private readonly routes = new Array<string>(BATCH_LINES).fill("");
  private readonly caches = new Array<string | undefined>(BATCH_LINES).fill(undefined);
  private readonly statuses = new Uint16Array(BATCH_LINES);
  private readonly times = new Float64Array(BATCH_LINES);
  private readonly responseTimes = new Float64Array(BATCH_LINES);
  private readonly aborted = new Uint8Array(BATCH_LINES);
  private timer: NodeJS.Timeout | undefined;
  private readonly writeOut = () => this.flush();
  private readonly destination: () => { write(chunk: string): unknown };
  constructor(destination: () => { write(chunk: string): unknown }) {
    this.destination = destination;
  }

  add(
    level: RequestLevel,
    requestId: string,
    method: string,
    route: string,
    status: number,
    responseTimeMs: number,
    cache: string | undefined,
    aborted: boolean,
  ) {
    const at = this.count++;
    this.levels[at] = level;
    this.requestIds[at] = requestId;
    this.methods[at] = method;
    this.routes[at] = route;
    this.caches[at] = cache;
    this.statuses[at] = status;
    this.times[at] = Date.now();
    this.responseTimes[at] = responseTimeMs;
    this.aborted[at] = aborted ? 1 : 0;
    if (this.count === BATCH_LINES) this.flush();
    else if (this.timer === undefined) {
      this.timer = setTimeout(this.writeOut, BATCH_DELAY_MS);
      this.timer.unref();
    }
  }

  /** The waiting lines as JSON, now no longer waiting (the caller writes them). */
  take(): string {
    let lines = "";
    for (let at = 0; at < this.count; at++) {
      const cache = this.caches[at];
      lines += `{"level":"${this.levels[at]}","time":"${isoTime(this.times[at] as number)}","requestId":${jsonString(this.requestIds[at] as string)},"method":${jsonString(this.methods[at] as string)},"route":${jsonString(this.routes[at] as string)},"status":${this.statuses[at]},"responseTime":${Math.round((this.responseTimes[at] as number) * 100) / 100}${cache === undefined ? "" : `,"cache":${jsonString(cache)}`}${this.aborted[at] ? ',"aborted":true' : ""},"msg":"request"}\n`;
    }
    this.count = 0;
    clearTimeout(this.timer);
    this.timer = undefined;
    return lines;
  }

  flush() {
    const pending = this.take();
    if (pending !== "") this.destination().write(pending);
  }
}

function destinationOf(root: Logger) {
  return (root as unknown as Record<symbol, { write(chunk: string): unknown; flushSync?(): void }>)[
    pino.symbols.streamSym
  ] as { write(chunk: string): unknown; flushSync?(): void };
}

function settings() {
  try {
    const { LOG_LEVEL, LOG_FORMAT } = config();
    return { level: LOG_LEVEL, format: LOG_FORMAT };
  } catch {
    // An invalid configuration is reported by the server itself; log meanwhile at the defaults.
    return { level: "info" as const, format: "json" as const };
  }
}

function prettyTransport() {
  try {
    createRequire(import.meta.url).resolve("pino-pretty");
    return pino.transport({
      target: "pino-pretty",
      options: { colorize: true, translateTime: "SYS:HH:MM:ss" },
    });
  } catch {
    return undefined;
  }
}

function createRoot(lines: RequestLines): Logger {
  const { level, format } = settings();
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    // Request lines still waiting go out first, in the same write: the log stays in order.
    hooks: {
      streamWrite: (line) => {
        const earlier = lines.take();
        return earlier === "" ? line : earlier + line;
      },
    },
  };
  if (format === "pretty") {
    const transport = prettyTransport();
    if (transport) return pino(options, transport);
    const root = pino(options, pino.destination({ dest: 1, sync: true }));
    root.warn("LOG_FORMAT=pretty needs the pino-pretty dev dependency (npm install): writing JSON lines");
    return root;
  }
  // Synchronous writes (decision 024): a line pino writes (the application's own: a warning, an
  // error before a crash) is in the file when the call returns. Request lines, the many, are
  // batched before they get here (RequestLines).
  return pino(options, pino.destination({ dest: 1, sync: true }));
}

function createState(): LoggingState {
  let root: Logger | undefined;
  const lines = new RequestLines(() => destinationOf(root as Logger));
  root = createRoot(lines);
  const logging: LoggingState = { root, requests: new AsyncLocalStorage<RequestScope>(), lines };
  // Waiting request lines are written when the process exits, whatever the cause (process.exit,
  // an uncaught exception, the event loop running dry).
  process.once("exit", () => {
    try {
      lines.flush();
      destinationOf(logging.root).flushSync?.();
    } catch {}
  });
  return logging;
}

// One per process even when this module is loaded twice (server.ts and the app's server bundle).
const STATE_KEY = Symbol.for("capital-grown.logging");
function state(): LoggingState {
  const holder = globalThis as { [STATE_KEY]?: LoggingState };
  holder[STATE_KEY] ??= createState();
  return holder[STATE_KEY];
}

/** The process's root logger (the HTTP request logger derives from it). */
export function rootLogger(): Logger {
  return state().root;
}

/** Runs `fn` (the rest of a request's handling) so that every `log.*` line in it carries `requestId`. */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return state().requests.run({ requestId }, fn);
}

function current(): Logger {
  const { root, requests } = state();
  const scope = requests.getStore();
  if (scope === undefined) return root;
  scope.logger ??= root.child({ requestId: scope.requestId });
  return scope.logger;
}

/** Writes what is still buffered (before `process.exit`). */
export function flushLogs() {
  try {
    const { root, lines } = state();
    lines?.flush();
    root.flush();
  } catch {}
}

export type RequestLevel = "debug" | "info" | "error";
const LEVEL_VALUES: Record<RequestLevel, number> = { debug: 20, info: 30, error: 50 };

let clockMs = 0;
let clockIso = "";
/** pino's `isoTime` of a moment, computed once per millisecond (a batch's lines share most of theirs). */
function isoTime(ms: number) {
  if (ms !== clockMs) {
    clockMs = ms;
    clockIso = new Date(ms).toISOString();
  }
  return clockIso;
}

/** Characters that never need escaping in a JSON string: those of ids, methods and route patterns. */
const PLAIN = /^[\w\-/:.*+$]*$/;

/** A JSON string literal; the common plain values without `JSON.stringify` (a third of a line's cost). */
function jsonString(value: string) {
  return PLAIN.test(value) ? `"${value}"` : JSON.stringify(value);
}

/**
 * The line of one served request: `{"level","time","requestId","method","route","status",
 * "responseTime" (ms),"cache"?,"aborted"?,"msg":"request"}`, the same shape pino writes. Only these
 * fields: the route is a pattern (never the URL, which can hold an order's token), no header, no body.
 */
export function logRequest(
  level: RequestLevel,
  requestId: string,
  method: string,
  route: string,
  status: number,
  responseTimeMs: number,
  cache: string | undefined,
  aborted: boolean,
) {
  const logging = state();
  if (LEVEL_VALUES[level] < logging.root.levelVal) return;
  logging.lines ??= new RequestLines(() => destinationOf(logging.root));
  logging.lines.add(level, requestId, method, route, status, responseTimeMs, cache, aborted);
}

type Fields = Record<string, unknown>;

/** `log.info("Message", { key: value })`: one JSON line with `msg`, the fields and the request id. */
export const log = {
  debug: (message: string, fields?: Fields) => current().debug(fields ?? {}, message),
  info: (message: string, fields?: Fields) => current().info(fields ?? {}, message),
  warn: (message: string, fields?: Fields) => current().warn(fields ?? {}, message),
  error: (message: string, fields?: Fields) => current().error(fields ?? {}, message),
};

export function errorMessage(error: unknown) {
  return error instanceof Error ? error.message : String(error);
}

/** The innermost cause's message: drivers wrap "connection refused" in a "Failed query" error. */
export function rootCauseMessage(error: unknown): string {
  let current: unknown = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  if (current instanceof Error) {
    const code = (current as NodeJS.ErrnoException).code;
    if (current.message) return current.message;
    if (code) return code;
  }
  return errorMessage(current);
}
