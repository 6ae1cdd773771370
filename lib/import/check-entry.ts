import { ServerInput } from "@/lib/servers/server-input";
import type { ImportEntry, ServerBody } from "./types";

/** The same checks the API applies to a body (names, header and env names, URL form), so refusals come with why before anything is sent. */
export function checked(body: ServerBody, notes: string[] = []): ImportEntry {
  if (body.name !== body.name.trim()) return { name: body.name, refused: "the name has leading or trailing spaces" };
  const parsed = ServerInput.safeParse(body);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.length ? `${i.path.map((p) => (typeof p === "number" ? `[${p}]` : String(p))).join("")}: ` : ""}${i.message}`).join("; ");
    return { name: body.name, refused: why };
  }
  return { name: body.name, body, notes };
}
