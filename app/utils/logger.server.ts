/**
 * Structured logs (records 018 and 024): one JSON object per line through pino, on
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
 * (record 024): a pino line with a write of its own cost a large share of what a cached page costs.
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

/**
 * Drizzle's error for a failed query reads "Failed query: <SQL>\nparams: <values>", and the values
 * are customers' names, phone numbers, addresses, search terms. Every line keeps the SQL and the
 * database's reason, never the values: each string field (an error's message or stack included) is
 * cut from "\nparams:" up to the stack's first frame.
 */
const QUERY_PARAMETERS = /\nparams: [\s\S]*?(?=\n\s+at |$)/g;

export function withoutQueryParameters(text: string): string {
  return text.includes("\nparams: ") ? text.replace(QUERY_PARAMETERS, "\nparams: [not logged]") : text;
}

function scrubFields(fields: Record<string, unknown>): Record<string, unknown> {
  let scrubbed: Record<string, unknown> | undefined;
  for (const key in fields) {
    const value = fields[key];
    let clean = value;
    if (typeof value === "string") clean = withoutQueryParameters(value);
    else if (value instanceof Error) clean = withoutQueryParameters(value.stack ?? value.message);
    if (clean !== value) {
      scrubbed ??= { ...fields };
      scrubbed[key] = clean;
    }
  }
  return scrubbed ?? fields;
}

/** What a request's lines share: its id, and its child logger once it has logged something. */
type RequestScope = { requestId: string; logger?: Logger };
type LoggingState = { root: Logger; requests: AsyncLocalStorage<RequestScope>; lines: RequestLines };

/**
 * Request lines wait at most this long, or until this many wait (then one write of about 50 KB). Each
 * write costs the server far more than its bytes suggest, so fewer and larger writes cost less
 * (record 024 has the figures); a `kill -9` loses at most this much of them.
 */
const BATCH_DELAY_MS = 20;
const BATCH_LINES = 256;

/** The fields of one request line, in the order `logRequest` and `RequestLines.add` take them. */
type RecordRequestLine = (
  level: RequestLevel,
  requestId: string,
  method: string,
  route: string,
  status: number,
  responseTimeMs: number,
  cache: string | undefined,
  aborted: boolean,
) => void;

/** One request line waiting for its write. */
type RequestLine = {
  time: number;
  level: RequestLevel;
  requestId: string;
  method: string;
  route: string;
  status: number;
  responseTimeMs: number;
  cache: string | undefined;
  aborted: boolean;
};

/** Where every line goes: the stream the root logger was given (stdout, or pino-pretty's transport). */
type Destination = { write(chunk: string): unknown; flushSync?(): void };

/**
 * Request lines waiting for their write, kept as their fields and made into JSON only when written
 * (record 024: building a batch of lines in one go costs the server less than building each line as
 * its request ends). They are written together: when BATCH_LINES wait, BATCH_DELAY_MS after the
 * first, just before any line pino writes (so the file keeps the order in which lines were logged),
 * by `flushLogs()`, and when the process exits, a crash included.
 */
class RequestLines {
  /** One line per request of a batch, reused from batch to batch: the first `count` are waiting. */
  private readonly lines: RequestLine[] = Array.from({ length: BATCH_LINES }, () => ({
    time: 0,
    level: "info",
    requestId: "",
    method: "",
    route: "",
    status: 0,
    responseTimeMs: 0,
    cache: undefined,
    aborted: false,
  }));
  private count = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly writeOut = () => this.flush();
  private readonly destination: Destination;
  constructor(destination: Destination) {
    this.destination = destination;
  }

  readonly add: RecordRequestLine = (
    level,
    requestId,
    method,
    route,
    status,
    responseTimeMs,
    cache,
    aborted,
  ) => {
    const line = this.lines[this.count++] as RequestLine;
    line.time = Date.now();
    line.level = level;
    line.requestId = requestId;
    line.method = method;
    line.route = route;
    line.status = status;
    line.responseTimeMs = responseTimeMs;
    line.cache = cache;
    line.aborted = aborted;
    if (this.count === BATCH_LINES) this.flush();
    else if (this.timer === undefined) {
      this.timer = setTimeout(this.writeOut, BATCH_DELAY_MS);
      this.timer.unref();
    }
  };

  /** The waiting lines as JSON, now no longer waiting (the caller writes them). */
  take(): string {
    let text = "";
    for (let at = 0; at < this.count; at++) {
      const line = this.lines[at] as RequestLine;
      text += `{"level":"${line.level}","time":"${isoTime(line.time)}","requestId":${jsonString(line.requestId)},"method":${jsonString(line.method)},"route":${jsonString(line.route)},"status":${line.status},"responseTime":${Math.round(line.responseTimeMs * 100) / 100}${line.cache === undefined ? "" : `,"cache":${jsonString(line.cache)}`}${line.aborted ? ',"aborted":true' : ""},"msg":"request"}\n`;
    }
    this.count = 0;
    clearTimeout(this.timer);
    this.timer = undefined;
    return text;
  }

  flush() {
    const pending = this.take();
    if (pending !== "") this.destination.write(pending);
  }
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

/** The stream lines are written to: pino-pretty's transport when asked for and installed, else stdout. */
function openDestination(format: "json" | "pretty"): { destination: Destination; prettyMissing: boolean } {
  if (format === "pretty") {
    const transport = prettyTransport();
    if (transport) return { destination: transport, prettyMissing: false };
  }
  // Synchronous writes (record 024): a line pino writes (the application's own: a warning, an
  // error before a crash) is in the file when the call returns. Request lines, the many, are
  // batched before they get here (RequestLines).
  return { destination: pino.destination({ dest: 1, sync: true }), prettyMissing: format === "pretty" };
}

function createState(): LoggingState {
  const { level, format } = settings();
  const { destination, prettyMissing } = openDestination(format);
  const lines = new RequestLines(destination);
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }), log: scrubFields },
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    // Request lines still waiting go out first, in the same write: the log stays in order.
    hooks: {
      streamWrite: (line) => {
        const earlier = lines.take();
        return earlier === "" ? line : earlier + line;
      },
    },
  };
  const root = pino(options, destination as pino.DestinationStream);
  if (prettyMissing) {
    root.warn("LOG_FORMAT=pretty needs the pino-pretty dev dependency (npm install): writing JSON lines");
  }
  // Waiting request lines are written when the process exits, whatever the cause (process.exit,
  // an uncaught exception, the event loop running dry).
  process.once("exit", () => {
    try {
      lines.flush();
      destination.flushSync?.();
    } catch {}
  });
  return { root, requests: new AsyncLocalStorage<RequestScope>(), lines };
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
    lines.flush();
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
export const logRequest: RecordRequestLine = (level, id, method, route, status, ms, cache, aborted) => {
  const logging = state();
  if (LEVEL_VALUES[level] < logging.root.levelVal) return;
  logging.lines.add(level, id, method, route, status, ms, cache, aborted);
};

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
