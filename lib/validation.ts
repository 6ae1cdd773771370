import type { ZodError } from "zod";
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
