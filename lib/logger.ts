import pino, { type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";
import { loadEnv } from "./env";

export type { Logger } from "pino";
export type LogFormat = "json" | "pretty";

/**
 * Keys whose values could carry secrets (a server's headers and env, credentials, cookies) are
 * censored wherever they appear in a log call's object, up to three levels deep. Messages are
 * plain text: code must not interpolate a server config or a header object into one.
 */
const SECRET_KEYS = ["headers", "authorization", "cookie", "set-cookie", "env", "password", "token", "secret", "apiKey", "config"];
export const REDACT_PATHS = SECRET_KEYS.flatMap((key) => {
  const prop = /^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`;
  const join = (prefix: string) => (prop.startsWith("[") ? `${prefix}${prop}` : `${prefix}.${prop}`);
  return [prop, join("*"), join("*.*")];
});

export type CreateLoggerOptions = {
  /** The process: "web", "worker", "cli" (the `name` field of every line). */
  name: string;
  level?: string;
  /** Unset: pretty when the output is a terminal, JSON otherwise. */
  format?: LogFormat;
  /** Where lines go: 1 (stdout, the servers' log) or 2 (stderr, the CLI's, whose stdout is its output). */
  fd?: 1 | 2;
  /** Tests: write here instead of fd (format defaults to JSON). */
  stream?: DestinationStream;
};

export function createLogger(opts: CreateLoggerOptions): Logger {
  const fd = opts.fd ?? 1;
  const tty = opts.stream ? false : Boolean((fd === 2 ? process.stderr : process.stdout).isTTY);
  const format = opts.format ?? (tty ? "pretty" : "json");
  // Synchronous writes: a line logged just before process.exit() (shutdown, a fatal error) is never lost.
  const destination =
    format === "pretty"
      ? pretty({ sync: true, destination: opts.stream ?? fd, colorize: tty, ignore: "pid,hostname,name", translateTime: "HH:MM:ss.l", singleLine: true })
      : (opts.stream ?? pino.destination({ fd, sync: true }));
  return pino({ name: opts.name, level: opts.level ?? "info", redact: { paths: REDACT_PATHS, censor: "[redacted]" } }, destination);
}

// One root logger per process, configured by its entry point (server.ts, worker/main.ts, the CLI)
// from TOOLWATCH_LOG_FORMAT / TOOLWATCH_LOG_LEVEL. Library code (auth, rate limits, route errors)
// asks for it when it logs, so it follows whatever the entry point chose.
const holder = globalThis as unknown as { __toolwatchLogger?: Logger };

export function configureLogger(name: string, fd: 1 | 2 = 1): Logger {
  const env = loadEnv();
  holder.__toolwatchLogger = createLogger({ name, fd, level: env.TOOLWATCH_LOG_LEVEL, format: env.TOOLWATCH_LOG_FORMAT });
  return holder.__toolwatchLogger;
}

/** The process's logger (configureLogger's), or a default one for code run outside an entry point (Next's own workers, tests). */
export function rootLogger(): Logger {
  return (holder.__toolwatchLogger ??= configureLogger("toolwatch"));
}

/** A logger that drops everything: the default of components whose caller may not care (tests). */
export function silentLogger(): Logger {
  return pino({ enabled: false });
}
