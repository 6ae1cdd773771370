import { escapePointerToken } from "@/lib/json-pointer";
import canonicalize from "canonicalize";

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A property as JSON sees it: own, or absent (never `toString` and friends from the prototype). */
export function own(value: JsonObject, key: string): unknown {
  return Object.hasOwn(value, key) ? value[key] : undefined;
}

/** Own keys whose value survives JSON serialisation (undefined and functions are absent in JSON). */
export function jsonKeys(value: JsonObject): string[] {
  return Object.keys(value).filter((k) => value[k] !== undefined && typeof value[k] !== "function");
}

/**
 * Equal as canonical JSON: the verdict of comparing RFC 8785 forms (key order never counts),
 * reached without serialising — a walk that stops at the first difference and allocates nothing.
 * Serialising both sides of every tool was the main cost of diffing large lists.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  // An explicit stack: a hostile server can nest JSON deeper than the call stack goes.
  const stack: unknown[] = [a, b];
  while (stack.length) {
    const y = stack.pop();
    const x = stack.pop();
    if (x === y) continue;
    if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) return false;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) stack.push(x[i], y[i]);
      continue;
    }
    if (Array.isArray(y)) return false;
    const xo = x as JsonObject;
    const yo = y as JsonObject;
    let nx = 0;
    for (const k in xo) {
      if (!Object.hasOwn(xo, k) || xo[k] === undefined) continue;
      nx++;
      if (!Object.hasOwn(yo, k)) return false;
      stack.push(xo[k], yo[k]);
    }
    let ny = 0;
    for (const k in yo) if (Object.hasOwn(yo, k) && yo[k] !== undefined) ny++;
    if (nx !== ny) return false;
  }
  return true;
}

/** Whether `key` is an own key anywhere inside a JSON value (iterative, like jsonEqual). */
export function containsKey(value: unknown, key: string): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    else if (isObject(v)) {
      if (Object.hasOwn(v, key)) return true;
      for (const k in v) if (Object.hasOwn(v, k)) stack.push(v[k]);
    }
  }
  return false;
}

/** RFC 8785 canonical JSON, for use as a map key. Never throws: text JCS rejects (lone surrogates) falls back to JSON. */
export function canonicalKey(value: unknown): string {
  try {
    return canonicalize(value) ?? "undefined";
  } catch {
    return `!${JSON.stringify(value)}`;
  }
}

/** One RFC 6901 reference token. */
export const escapePointer = escapePointerToken;

export function joinPointer(base: string, ...tokens: Array<string | number>): string {
  let out = base;
  for (const t of tokens) out += `/${escapePointer(String(t))}`;
  return out;
}

/** The last reference token of a pointer, unescaped ("" for the root). */
export function lastToken(pointer: string): string {
  const i = pointer.lastIndexOf("/");
  return i < 0 ? "" : pointer.slice(i + 1).replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Tokens of a URI-fragment JSON pointer such as "#/$defs/a%20b", or null if it is not one. */
export function fragmentTokens(ref: string): string[] | null {
  if (ref === "#") return [];
  if (!ref.startsWith("#/")) return null;
  try {
    return ref
      .slice(2)
      .split("/")
      .map((t) => decodeURIComponent(t).replace(/~1/g, "/").replace(/~0/g, "~"));
  } catch {
    return null;
  }
}

/** Short, single-line JSON for messages. */
export function brief(value: unknown, max = 60): string {
  let text: string;
  try {
    text = value === undefined ? "absent" : (JSON.stringify(value) ?? "absent");
  } catch {
    text = "(nested too deep to show)";
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
