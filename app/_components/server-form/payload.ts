// Pure: the server form's state → the REST API's body, and the API's field errors → form fields.
import type { KeyValueRow } from "./KeyValueEditor";

export type Transport = "stdio" | "streamable-http" | "sse";

/** Sign-in for HTTP servers: none (headers only), OAuth in the browser, or OAuth client credentials. */
export type AuthMode = "none" | "authorization_code" | "client_credentials";

export type ServerFormState = {
  name: string;
  transport: Transport;
  command: string;
  args: string;
  env: KeyValueRow[];
  url: string;
  headers: KeyValueRow[];
  tags: string;
  pollIntervalSeconds: string;
  enabled: boolean;
  authMode: AuthMode;
  clientId: string;
  clientSecret: string;
  scope: string;
  /** The sign-in fields were changed: only then is `auth` sent (it replaces the stored one and its tokens). */
  authTouched: boolean;
};

export type FieldErrors = Partial<Record<"name" | "transport" | "command" | "args" | "env" | "url" | "headers" | "tags" | "pollIntervalSeconds" | "auth" | "form", string>>;

export const splitTags = (text: string) => text.split(/[\s,]+/).filter(Boolean);
export const splitArgs = (text: string) => text.split("\n").map((a) => a.trim()).filter(Boolean);

/**
 * A secret map to send, or undefined to keep the stored one. The API replaces the whole map, so
 * once anything changes every entry needs its value again (stored values are never sent back).
 */
function secretMap(rows: KeyValueRow[], initialKeys: string[], label: string): { value?: Record<string, string>; error?: string } {
  const named = rows.filter((r) => r.key.trim() || r.value);
  const unchanged = named.length === initialKeys.length && named.every((r) => r.existing && !r.value) && initialKeys.every((k) => named.some((r) => r.key === k));
  if (unchanged && initialKeys.length > 0) return {};
  if (named.some((r) => !r.key.trim())) return { error: `Every ${label} needs a name.` };
  const missing = named.filter((r) => r.existing && !r.value).map((r) => r.key);
  if (missing.length) {
    return { error: `Enter the value of ${missing.join(", ")} again, or undo your changes: the ${label}s are saved as one set and stored values are never sent back.` };
  }
  return { value: Object.fromEntries(named.map((r) => [r.key.trim(), r.value])) };
}

function pollSeconds(text: string): { value?: number; error?: string } {
  if (!text.trim()) return {};
  const n = Number(text);
  if (!Number.isInteger(n) || n < 10 || n > 86_400) return { error: "A whole number of seconds from 10 to 86400." };
  return { value: n };
}

export type Initial = { url: string; envKeys: string[]; headerKeys: string[]; auth?: { grant: string; hasSecret: boolean } | null } | null;

/**
 * The `auth` to send: undefined keeps the stored sign-in (nothing touched), null removes it.
 * A changed sign-in is saved whole (a new one forgets the old tokens), so a stored secret that
 * is still needed must be entered again; it is never sent back to the browser.
 */
function authPayload(state: ServerFormState, initial: Initial): { value?: Record<string, unknown> | null; error?: string } {
  if (initial && !state.authTouched) return {};
  if (state.authMode === "none") return initial?.auth ? { value: null } : {};
  const clientId = state.clientId.trim();
  const scope = state.scope.trim();
  if (state.authMode === "client_credentials") {
    if (!clientId || !state.clientSecret) {
      return { error: initial?.auth?.hasSecret ? "Enter the client ID and the client secret again: a changed sign-in is saved as a whole." : "Client credentials need a client ID and a client secret." };
    }
  }
  if (state.clientSecret && !clientId) return { error: "A client secret needs the client ID it belongs to." };
  return {
    value: {
      type: "oauth",
      grant: state.authMode,
      ...(clientId ? { clientId } : {}),
      ...(state.clientSecret ? { clientSecret: state.clientSecret } : {}),
      ...(scope ? { scope } : {}),
    },
  };
}

/** The body of POST /api/v1/servers (initial = null) or PATCH /api/v1/servers/{id}. */
export function toPayload(state: ServerFormState, initial: Initial): { body?: Record<string, unknown>; errors: FieldErrors } {
  const errors: FieldErrors = {};
  if (!state.name.trim()) errors.name = "Give the server a name.";
  const poll = pollSeconds(state.pollIntervalSeconds);
  if (poll.error) errors.pollIntervalSeconds = poll.error;
  const body: Record<string, unknown> = { name: state.name.trim(), tags: splitTags(state.tags), enabled: state.enabled };
  if (poll.value !== undefined) body.pollIntervalSeconds = poll.value;
  if (!initial) body.transport = state.transport;

  if (state.transport === "stdio") {
    const args = splitArgs(state.args);
    if (!initial && !state.command.trim()) errors.command = "Enter the command that starts the server.";
    if (!state.command.trim() && args.length) errors.command = "Enter the command together with its arguments.";
    if (state.command.trim()) Object.assign(body, { command: state.command.trim(), args });
    const env = secretMap(state.env, initial?.envKeys ?? [], "variable");
    if (env.error) errors.env = env.error;
    if (env.value && (!initial || Object.keys(env.value).length || initial.envKeys.length)) body.env = env.value;
  } else {
    const url = state.url.trim();
    if (!url) errors.url = "Enter the server's URL, e.g. https://mcp.example.com/mcp.";
    if (!initial || url !== initial.url) body.url = url;
    const headers = secretMap(state.headers, initial?.headerKeys ?? [], "header");
    if (headers.error) errors.headers = headers.error;
    if (headers.value && (!initial || Object.keys(headers.value).length || initial.headerKeys.length)) body.headers = headers.value;
    const auth = authPayload(state, initial);
    if (auth.error) errors.auth = auth.error;
    if (auth.value !== undefined) body.auth = auth.value;
  }
  return Object.keys(errors).length ? { errors } : { body, errors };
}

/** The API's `details.fields` ("tags.2", "headers.X-Key", …) folded onto the form's fields. */
export function fromApiFields(fields: Record<string, string>): FieldErrors {
  const out: FieldErrors = {};
  for (const [path, message] of Object.entries(fields)) {
    const head = path.split(".")[0] as keyof FieldErrors;
    const known: (keyof FieldErrors)[] = ["name", "transport", "command", "args", "env", "url", "headers", "tags", "pollIntervalSeconds", "auth"];
    const key = known.includes(head) ? head : "form";
    out[key] ??= message;
  }
  return out;
}
