import { secretRedactor } from "@/lib/servers/redact-secrets";
import type { ServerBody } from "./types";

// What an import preview shows of where a server is: its URL or command line, without the secret
// values a config file may carry in it. Header and env values are never shown; the same values
// written into the URL or the arguments are cut out, and so are the values of URL credentials,
// of query parameters and of command-line options whose names say they hold a secret.

const SECRET_NAME = /key|token|secret|passw|pwd|auth|credential|signature|sig$|session|cookie/i;
const REDACTED = "REDACTED";

/** A URL with its user-info and secret-named query values replaced; text that is not a URL as it is. */
function redactUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  let changed = false;
  if (url.username || url.password) {
    url.username = REDACTED;
    url.password = "";
    changed = true;
  }
  for (const [name, value] of [...url.searchParams]) {
    if (value && SECRET_NAME.test(name)) {
      url.searchParams.set(name, REDACTED);
      changed = true;
    }
  }
  return changed ? url.toString() : text;
}

/** `--token=x` → `--token=REDACTED`; the argument after a bare `--token` is redacted too. */
function redactArgs(args: readonly string[]): string[] {
  return args.map((arg, i) => {
    const option = /^(--?[\w.-]+)=(.*)$/s.exec(arg);
    if (option && SECRET_NAME.test(option[1]!) && option[2]) return `${option[1]}=${REDACTED}`;
    const previous = args[i - 1];
    if (previous !== undefined && /^--?[\w.-]+$/.test(previous) && SECRET_NAME.test(previous) && !arg.startsWith("-")) return REDACTED;
    return redactUrl(arg);
  });
}

export function displayTarget(body: ServerBody): string {
  if (body.transport === "stdio") {
    const redact = secretRedactor({ transport: "stdio", command: body.command ?? "", args: body.args ?? [], env: body.env ?? {} });
    return redact([body.command ?? "", ...redactArgs(body.args ?? [])].join(" "));
  }
  const redact = secretRedactor({ transport: "streamable_http", url: body.url ?? "", headers: body.headers ?? {} });
  return redact(redactUrl(body.url ?? ""));
}
