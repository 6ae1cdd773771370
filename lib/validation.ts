import type { z, ZodError } from "zod";
import { AppError } from "./errors";

/** A zod path as a field name: `servers.0.name`; a segment written `["key"]` (a map key) attaches as `headers["key"]`. */
function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>((name, segment) => {
    const text = String(segment);
    return text.startsWith("[") || !name ? name + text : `${name}.${text}`;
  }, "");
}

/** zod issues as a field → message map for 400 bodies. */
export function fieldErrors(error: ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) out[fieldName(issue.path) || "_"] ??= issue.message;
  return out;
}

/** A zod failure as a 400 INVALID_INPUT naming each bad field. */
export function invalidInput(error: ZodError): AppError {
  const fields = fieldErrors(error);
  return new AppError("INVALID_INPUT", Object.entries(fields).map(([f, m]) => `${f}: ${m}`).join("; "), { fields });
}

/**
 * The one way a verb parses its input: a JSON object checked by `schema`, else a 400 naming each
 * bad field. No body (undefined) parses as `{}`, so all-optional inputs need none.
 */
export function parseInput<T>(schema: z.ZodType<T>, raw: unknown): T {
  if (raw !== undefined && (typeof raw !== "object" || raw === null || Array.isArray(raw))) throw new AppError("INVALID_INPUT", "Send a JSON object");
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) throw invalidInput(parsed.error);
  return parsed.data;
}

const MAX_JSON_DEPTH = 64;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function badText(text: string): string | null {
  if (text.includes("\u0000")) return "must not contain NUL (U+0000) characters";
  if (LONE_SURROGATE.test(text)) return "must be well-formed Unicode (it has a lone surrogate)";
  return null;
}

/**
 * Refuses what no field of ours accepts but a type check lets through: U+0000 and lone UTF-16
 * surrogates in any string or key (Postgres text cannot store NUL, jsonb neither nor a lone
 * "\ud800" escape: both were 500s, found by tests/integration/api-fuzz.test.ts), and nesting deeper than
 * MAX_JSON_DEPTH (recursive walkers and jsonb have limits). Iterative, so a 10,000-deep body
 * cannot overflow the stack here either.
 */
export function assertStorableJson(value: unknown, where = ""): void {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: where, depth: 0 }];
  while (stack.length) {
    const { value: v, path, depth } = stack.pop()!;
    if (typeof v === "string") {
      const problem = badText(v);
      if (problem) throw storableRefusal(path || "body", `text ${problem}`);
      continue;
    }
    if (!v || typeof v !== "object") continue;
    if (depth >= MAX_JSON_DEPTH) throw new AppError("INVALID_INPUT", `${where || "body"} nests deeper than ${MAX_JSON_DEPTH} levels`);
    for (const [key, child] of Object.entries(v)) {
      const childPath = memberPath(path, key, Array.isArray(v));
      const problem = badText(key);
      if (problem) throw storableRefusal(childPath, `the name ${problem}`);
      stack.push({ value: child, path: childPath.length > 200 ? `${childPath.slice(0, 200)}…` : childPath, depth: depth + 1 });
    }
  }
}

/** Field names as the schema checks write them: `args.0`, `name`, and `env["A\u0000B"]` for a key that is no plain identifier. */
function memberPath(parent: string, key: string, inArray: boolean): string {
  if (!inArray && !/^[A-Za-z_$][\w$]*$/.test(key)) return `${parent}[${JSON.stringify(key)}]`;
  return parent ? `${parent}.${key}` : key;
}

const storableRefusal = (field: string, problem: string) => new AppError("INVALID_INPUT", `${field}: ${problem}`, { fields: { [field]: problem } });
