"use client";

// The browser's one HTTP client for the REST API: JSON in, JSON out, and every failure as an
// ApiError carrying the status, the API's error code and any field-level messages.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null = null,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

type ErrorBody = { error?: { code?: string; message?: string; details?: { fields?: Record<string, string> } }; code?: string; message?: string };

export async function api<T>(url: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  const method = init.method ?? "GET";
  const res = await fetch(url, {
    method,
    headers: { Accept: "application/json", ...(method === "GET" ? {} : { "Content-Type": "application/json" }) },
    body: method === "GET" ? undefined : JSON.stringify(init.body ?? {}),
    credentials: "same-origin",
    signal: init.signal,
  });
  if (res.status === 204) return undefined as T;
  const body = (await res.json().catch(() => null)) as (ErrorBody & T) | null;
  if (!res.ok) {
    // Toolwatch routes answer {error:{…}}; better-auth's own routes answer {code, message}.
    const error = body?.error;
    const message = error?.message ?? body?.message ?? `Request failed (${res.status})`;
    throw new ApiError(res.status, message, error?.code ?? body?.code ?? null, error?.details?.fields ?? {});
  }
  return body as T;
}

/** A safe place to go after signing in: a path on this site, never another origin. */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  try {
    const url = new URL(next, "http://toolwatch.invalid");
    if (url.origin !== "http://toolwatch.invalid" || url.pathname.startsWith("/login")) return "/";
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return "/";
  }
}
