// Pure: the text an agent host puts in a model's context for one stored item. What is counted is
// decided here and nowhere else (docs/context-budget.md).

/** Keys of a tool that hosts send to the model, in the order of the MCP Tool type. */
const TOOL_KEYS = ["name", "title", "description", "inputSchema", "outputSchema", "annotations"] as const;

/** Protocol plumbing a host keeps to itself: never part of a prompt or resource entry either. */
const NOT_IN_CONTEXT = new Set(["_meta", "icons"]);

/**
 * A tool: `{name, title?, description, inputSchema, outputSchema?, annotations?}` as compact JSON
 * (absent keys left out; `_meta`, `icons`, `execution` and unknown keys dropped). A prompt,
 * resource or resource template: its listed definition as compact JSON without `_meta`/`icons`.
 * Server instructions: the text itself (hosts put it in the system prompt as it is).
 */
export function contextTextOf(kind: string, definition: unknown): string {
  const def = (typeof definition === "object" && definition !== null ? definition : {}) as Record<string, unknown>;
  if (kind === "instructions") return typeof def.text === "string" ? def.text : "";
  if (kind === "tool") {
    const picked: Record<string, unknown> = {};
    for (const key of TOOL_KEYS) if (def[key] !== undefined) picked[key] = def[key];
    return JSON.stringify(picked);
  }
  return JSON.stringify(Object.fromEntries(Object.entries(def).filter(([key]) => !NOT_IN_CONTEXT.has(key))));
}
