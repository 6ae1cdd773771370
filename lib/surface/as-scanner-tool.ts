import type { ToolLike } from "@/lib/diff";
import { itemKey, type SurfaceKind } from "./surface-keys";

/**
 * THE adapter between surface items and the tool-shaped audit scanner (lib/detection scanTools) and
 * judge: a prompt's arguments become input properties (so a new required argument reads as a new
 * required property), a resource or template keeps its uri / MIME type beside its text, and
 * instructions become a description. The name is the item's key ("prompt summarize"), so findings
 * and alerts name the kind. When lib/detection takes `{tools, prompts, resources, resourceTemplates,
 * instructions}` directly, this is the one function to replace.
 */
export function asScannerTool(kind: SurfaceKind, definition: Record<string, unknown>): ToolLike {
  const name = itemKey(kind, String(definition.name ?? ""));
  const text = (key: string) => (typeof definition[key] === "string" ? { [key]: definition[key] as string } : {});
  if (kind === "instructions") return { name, description: String(definition.text ?? ""), inputSchema: { type: "object" } };
  if (kind === "prompt") {
    const args = Array.isArray(definition.arguments) ? (definition.arguments as Array<Record<string, unknown>>).filter((a) => typeof a?.name === "string") : [];
    const properties = Object.fromEntries(
      args.map((a) => [a.name as string, { type: "string", ...(typeof a.description === "string" ? { description: a.description } : {}), ...(typeof a.title === "string" ? { title: a.title } : {}) }]),
    );
    const required = args.filter((a) => a.required === true).map((a) => a.name as string);
    return { name, ...text("title"), ...text("description"), inputSchema: { type: "object", properties, ...(required.length ? { required } : {}) } };
  }
  // Resources and templates: name (display text, model-visible), title, description; uri and MIME type as fields.
  return {
    name,
    ...text("title"),
    description: [definition.name, definition.description].filter((s) => typeof s === "string" && s).join("\n"),
    inputSchema: { type: "object" },
    ...text("uri"),
    ...text("uriTemplate"),
    ...text("mimeType"),
  };
}
