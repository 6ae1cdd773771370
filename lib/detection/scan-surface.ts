// Prompts, resources and resource templates as the rules see them. Each item is mapped onto the
// shape of a tool (name, title, description; a prompt's arguments become input properties with
// their descriptions), plus the strings a tool does not have (a resource's uri and mimeType), so
// every rule that reads a tool's text reads these too. Findings carry `item` (kind and name) and
// pointers into the item as served ("/arguments/0/description", "/uri").
import { isObject, joinPointer } from "@/lib/diff/json";
import type { AuditFinding, ExtractedString, ItemKind, PromptLike, ResourceLike, ToolLike } from "./types";

export type MappedItem = { kind: ItemKind; name: string; tool: ToolLike; extra: ExtractedString[]; pointer: (p: string) => string };

const str = (v: unknown): string | undefined => (typeof v === "string" && v ? v : undefined);

/** A prompts/list entry as a tool: arguments → input properties (pointers mapped back to /arguments/<i>). */
export function promptAsTool(prompt: PromptLike): MappedItem {
  const name = String(prompt.name);
  const args = Array.isArray(prompt.arguments) ? prompt.arguments.filter(isObject) : [];
  const properties: Record<string, unknown> = {};
  const indexOf = new Map<string, number>();
  args.forEach((a, i) => {
    const argName = typeof a.name === "string" ? a.name : `#${i}`;
    indexOf.set(joinPointer("/inputSchema/properties", argName), i);
    properties[argName] = { type: "string", ...(str(a.title) ? { title: a.title } : {}), ...(str(a.description) ? { description: a.description } : {}) };
  });
  const required = args.filter((a) => a.required === true && typeof a.name === "string").map((a) => a.name as string);
  const tool: ToolLike = { name, ...(str(prompt.title) ? { title: prompt.title } : {}), ...(str(prompt.description) ? { description: prompt.description } : {}), inputSchema: { type: "object", properties, ...(required.length ? { required } : {}) }, ...(isObject(prompt._meta) ? { _meta: prompt._meta } : {}) };
  const pointer = (p: string) => {
    for (const [prefix, i] of indexOf) if (p === prefix || p.startsWith(`${prefix}/`)) return `/arguments/${i}${p.slice(prefix.length)}`;
    return p.startsWith("/inputSchema") ? "/arguments" : p;
  };
  return { kind: "prompt", name, tool, extra: [], pointer };
}

/** A resources/list or resources/templates/list entry as a tool with its uri and mimeType as extra strings. */
export function resourceAsTool(resource: ResourceLike, kind: "resource" | "resourceTemplate"): MappedItem {
  const uriKey = kind === "resource" ? "uri" : "uriTemplate";
  const uri = str(resource[uriKey]);
  const name = str(resource.name) ?? uri ?? "(unnamed)";
  const tool: ToolLike = { name, ...(str(resource.title) ? { title: resource.title } : {}), ...(str(resource.description) ? { description: resource.description } : {}), ...(isObject(resource._meta) ? { _meta: resource._meta } : {}) };
  const extra: ExtractedString[] = [];
  if (uri) extra.push({ pointer: `/${uriKey}`, field: "uri", text: uri });
  if (str(resource.mimeType)) extra.push({ pointer: "/mimeType", field: "meta", text: resource.mimeType as string });
  return { kind, name, tool, extra, pointer: (p) => p };
}

/** Every prompt, resource and template of a scan input, mapped. */
export function surfaceItems(input: { prompts?: readonly PromptLike[]; resources?: readonly ResourceLike[]; resourceTemplates?: readonly ResourceLike[] }): MappedItem[] {
  return [
    ...(input.prompts ?? []).filter((p) => isObject(p) && typeof p.name === "string").map(promptAsTool),
    ...(input.resources ?? []).filter(isObject).map((r) => resourceAsTool(r, "resource")),
    ...(input.resourceTemplates ?? []).filter(isObject).map((r) => resourceAsTool(r, "resourceTemplate")),
  ];
}

/** A tool finding re-addressed to the item it came from. */
export function toItemFinding(f: AuditFinding, item: MappedItem): AuditFinding {
  return { ...f, toolName: item.name, pointer: item.pointer(f.pointer), item: { kind: item.kind, name: item.name } };
}
