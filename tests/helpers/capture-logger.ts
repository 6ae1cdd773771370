import { createLogger, type Logger } from "@/lib/logger";

/** A real pino logger whose lines are kept (parsed) for a test to read; `messages` are their msg texts. */
export function captureLogger(): { logger: Logger; lines: Record<string, unknown>[]; messages: string[] } {
  const lines: Record<string, unknown>[] = [];
  const messages: string[] = [];
  const logger = createLogger({
    name: "test",
    level: "debug",
    format: "json",
    stream: {
      write: (line: string) => {
        const parsed = JSON.parse(line) as Record<string, unknown>;
        lines.push(parsed);
        messages.push(String(parsed.msg));
      },
    },
  });
  return { logger, lines, messages };
}
