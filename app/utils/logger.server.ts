/**
 * Structured logs (issue 12 item 6, decision 018): one JSON object per line through pino, on stdout.
 * `LOG_LEVEL` picks the level, `LOG_FORMAT=pretty` gives coloured lines for development (pino-pretty,
 * a dev dependency: without it the lines stay JSON).
 *
 * Every line written while a request is served carries that request's id: the HTTP server runs each
 * request inside `withRequestLogger` (AsyncLocalStorage), and `log.*` writes through the request's
 * child logger. Nothing personal goes in: no form bodies, no headers (the redaction list below is
 * the safety net for code that would pass a request or response object), no URLs with tokens.
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

type LoggingState = { root: Logger; requests: AsyncLocalStorage<Logger> };

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

function createRoot(): Logger {
  const { level, format } = settings();
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
  };
  if (format === "pretty") {
    const transport = prettyTransport();
    if (transport) return pino(options, transport);
    const root = pino(options, pino.destination({ dest: 1, sync: false }));
    root.warn("LOG_FORMAT=pretty needs the pino-pretty dev dependency (npm install): writing JSON lines");
    return root;
  }
  // Asynchronous writes: lines of one turn of the event loop go out in one write. `flushLogs()`
  // empties the buffer before the process exits.
  return pino(options, pino.destination({ dest: 1, sync: false }));
}

// One per process even when this module is loaded twice (server.ts and the app's server bundle).
const STATE_KEY = Symbol.for("capital-grown.logging");
function state(): LoggingState {
  const holder = globalThis as { [STATE_KEY]?: LoggingState };
  holder[STATE_KEY] ??= { root: createRoot(), requests: new AsyncLocalStorage<Logger>() };
  return holder[STATE_KEY];
}

/** The process's root logger (the HTTP request logger derives from it). */
export function rootLogger(): Logger {
  return state().root;
}

/** Runs `fn` (the rest of a request's handling) so that every `log.*` line in it carries `logger`'s bindings. */
export function withRequestLogger<T>(logger: Logger, fn: () => T): T {
  return state().requests.run(logger, fn);
}

function current(): Logger {
  const { root, requests } = state();
  return requests.getStore() ?? root;
}

/** Writes what is still buffered (before `process.exit`). */
export function flushLogs() {
  try {
    state().root.flush();
  } catch {}
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
