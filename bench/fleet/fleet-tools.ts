// The tool lists the fleet fixtures serve: 50 tools per server named `svc<i>_op_<t>`, with
// descriptions and input schemas shaped like a real SaaS connector's. Schemas are shared objects
// (one per tool index), so a fixture process holding thousands of endpoints stays small.
export const TOOLS_PER_SERVER = 50;

const RESOURCES = ["invoice", "customer", "ticket", "order", "shipment", "payment", "contract", "report", "user", "project"];
const VERBS = [
  ["list", "Lists {r}s visible to the caller, newest first. Supports paging with `cursor` and filtering by status and date range."],
  ["get", "Fetches one {r} by id with every field, including audit metadata and the ids of linked records."],
  ["create", "Creates a {r} from the given fields and returns it with its new id. Fails when a required field is missing."],
  ["update", "Updates the given fields of an existing {r}; fields that are not sent keep their value. Returns the updated record."],
  ["search", "Full-text search over {r}s: matches titles, notes and tags; results are ranked by relevance, at most `limit` of them."],
] as const;

export type FixtureTool = { name: string; description: string; inputSchema: Record<string, unknown> };

const SCHEMAS: Record<string, unknown>[] = Array.from({ length: TOOLS_PER_SERVER }, (_, t) => {
  const verb = VERBS[t % VERBS.length]![0];
  const resource = RESOURCES[Math.floor(t / VERBS.length) % RESOURCES.length]!;
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  if (verb === "get" || verb === "update") {
    properties.id = { type: "string", description: `The ${resource} id, e.g. "${resource.slice(0, 3)}_8f2k1"` };
    required.push("id");
  }
  if (verb === "list" || verb === "search") {
    properties.limit = { type: "integer", minimum: 1, maximum: 200, default: 50, description: "Maximum number of results" };
    properties.cursor = { type: "string", description: "Opaque cursor from the previous page" };
    properties.status = { type: "string", enum: ["open", "pending", "closed", "archived"] };
  }
  if (verb === "search") {
    properties.query = { type: "string", minLength: 1, description: "Words to look for" };
    required.push("query");
  }
  if (verb === "create" || verb === "update") {
    properties.title = { type: "string", maxLength: 200 };
    properties.notes = { type: "string", description: "Free text shown to people handling the record" };
    properties.tags = { type: "array", items: { type: "string" }, maxItems: 20 };
    properties.dueDate = { type: "string", format: "date" };
    if (verb === "create") required.push("title");
  }
  return { type: "object", properties, required, additionalProperties: false };
});

/** Tool `t` of server `i` (revision > 0 only for the changed copies the control URL makes). */
export function fixtureTool(i: number, t: number): FixtureTool {
  const [verb, text] = VERBS[t % VERBS.length]!;
  const resource = RESOURCES[Math.floor(t / VERBS.length) % RESOURCES.length]!;
  return {
    name: `svc${i}_op_${t}`,
    description: `${text.replaceAll("{r}", resource)} (${verb} ${resource}, service ${i})`,
    inputSchema: SCHEMAS[t % SCHEMAS.length]!,
  };
}

export function fixtureToolList(i: number): FixtureTool[] {
  return Array.from({ length: TOOLS_PER_SERVER }, (_, t) => fixtureTool(i, t));
}

/** The list after `changes` changes: each change adds one tool (`svc<i>_op_<50+k>`). */
export function changedToolList(i: number, changes: number): FixtureTool[] {
  return Array.from({ length: TOOLS_PER_SERVER + changes }, (_, t) => fixtureTool(i, t));
}
