import type { ZodError } from "zod";
import { AppError } from "./errors";

/** zod issues as a field → message map for 400 bodies. */
export function fieldErrors(error: ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) out[issue.path.join(".") || "_"] ??= issue.message;
  return out;
}

/** A zod failure as a 400 INVALID_INPUT naming each bad field. */
export function invalidInput(error: ZodError): AppError {
  const fields = fieldErrors(error);
  return new AppError("INVALID_INPUT", Object.entries(fields).map(([f, m]) => `${f}: ${m}`).join("; "), { fields });
}
