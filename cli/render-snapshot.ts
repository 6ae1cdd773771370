import type { OneShotSnapshot } from "@/lib/discovery/take-snapshot";
import { revealHidden } from "@/lib/text/reveal-hidden";

/** Untrusted text for a terminal: hidden characters become visible markers, control codes cannot reach the TTY. */
export function visible(text: string): string {
  return revealHidden(text)
    .map((s) => (s.kind === "text" ? s.text : `⟦${s.label}${s.decoded ? `: "${s.decoded}"` : ""}⟧`))
    .join("");
}

const oneLine = (text: string, max: number) => {
  const flat = visible(text).replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

export function renderSnapshot(s: OneShotSnapshot): string {
  const f = s.facts;
  const caps = Object.entries(f.capabilities ?? {})
    .map(([k, v]) => (v && typeof v === "object" && (v as { listChanged?: boolean }).listChanged ? `${k}(listChanged)` : k))
    .join(", ");
  const lines = [
    `server        ${f.serverInfo ? visible(`${f.serverInfo.name ?? "?"} ${f.serverInfo.version ?? ""}`) : "(no serverInfo)"}`,
    `protocol      ${f.protocolVersion ?? "?"} (${f.era ?? "?"} era) over ${f.transportUsed}`,
    `capabilities  ${caps || "(none)"}`,
    `changes       ${f.pushChannel ? "pushed (list_changed)" : "not pushed: poll to see changes"}`,
    `cache         ttlMs ${s.listing.ttlMs ?? "—"}, scope ${s.listing.cacheScope ?? "—"}`,
    `pages         ${s.listing.pages}${s.listing.restarts ? ` (restarted ${s.listing.restarts}×)` : ""}`,
    `hash          ${s.contentHash}`,
    `took          ${s.durationMs} ms`,
    "",
    `tools (${s.tools.length}), in server order:`,
  ];
  for (const tool of s.tools) {
    const title = typeof tool.title === "string" ? ` — ${oneLine(tool.title, 60)}` : "";
    lines.push(`  ${visible(tool.name)}${title}`);
    if (typeof tool.description === "string") lines.push(`      ${oneLine(tool.description, 110)}`);
    const props = Object.keys((tool.inputSchema.properties as Record<string, unknown> | undefined) ?? {});
    const required = new Set(Array.isArray(tool.inputSchema.required) ? (tool.inputSchema.required as string[]) : []);
    if (props.length) lines.push(`      params: ${props.map((p) => visible(required.has(p) ? `${p}*` : p)).join(", ")}`);
  }
  if (f.instructions) lines.push("", `instructions: ${oneLine(f.instructions, 200)}`);
  if (s.listing.warnings.length) lines.push("", "warnings:", ...s.listing.warnings.map((w) => `  ! ${visible(w)}`));
  return lines.join("\n");
}
