import { createGuardedFetch, type GuardedFetch } from "@/lib/discovery/node/guarded-fetch";
import type { ServerSummary } from "@/lib/servers/server-dto";

// The CLI's client of a Toolwatch instance's REST API. It goes through the guarded fetch like every
// outbound request of cli/ (metadata and link-local addresses refused, responses capped); private
// and loopback addresses are allowed, since the instance is often on this machine or the LAN.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export type ApiTarget = { apiUrl: string; apiKey: string };

/** --api-url / TOOLWATCH_API_URL and --api-key / TOOLWATCH_API_KEY, or a sentence saying which is missing. */
export function apiTarget(values: { "api-url"?: string; "api-key"?: string }, env: NodeJS.ProcessEnv): ApiTarget | string {
  const apiUrl = values["api-url"] ?? env.TOOLWATCH_API_URL;
  const apiKey = values["api-key"] ?? env.TOOLWATCH_API_KEY;
  if (!apiUrl) return "give the instance with --api-url <url> or TOOLWATCH_API_URL (e.g. http://localhost:3000)";
  if (!apiKey) return "give an API key with --api-key or TOOLWATCH_API_KEY (create one in Settings → API keys, or with toolwatch admin create-key)";
  try {
    new URL(apiUrl);
  } catch {
    return `--api-url ${JSON.stringify(apiUrl)} is not a URL`;
  }
  return { apiUrl: apiUrl.replace(/\/+$/, ""), apiKey };
}

export function outboundFetch(): GuardedFetch {
  return createGuardedFetch({ blockPrivate: false, maxResponseBytes: 64 * 1024 * 1024 });
}

export class ToolwatchApi {
  constructor(
    private readonly target: ApiTarget,
    private readonly fetch: GuardedFetch,
  ) {}

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.fetch(`${this.target.apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.target.apiKey}`, accept: "application/json", ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!res.ok) {
      const error = (json as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error;
      throw new ApiError(res.status, error?.code ?? `HTTP_${res.status}`, error?.message ?? `${method} ${path} answered ${res.status} ${res.statusText}`, error?.details);
    }
    return json as T;
  }

  /** Every server of the key's team (all pages). */
  async listServers(): Promise<ServerSummary[]> {
    const all: ServerSummary[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10_000; page++) {
      const query: string = `?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const res: { items: ServerSummary[]; nextCursor: string | null } = await this.request("GET", `/api/v1/servers${query}`);
      all.push(...res.items);
      cursor = res.nextCursor;
      if (!cursor) break;
    }
    return all;
  }
}

/** One line for an error of a request (never a stack). */
export function describeRequestError(error: unknown): string {
  if (error instanceof ApiError) return `${error.code}: ${error.message}`;
  const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  return `${code ? `${code}: ` : ""}${e.cause?.message ?? e.message ?? String(error)}`.split("\n")[0]!;
}
