"use client";

import { useState } from "react";
import { ToolCard } from "@/app/_components/ToolCard";
import { TokenCount } from "@/app/_components/charts/TokenCount";
import { VisibleText } from "@/app/_components/VisibleText";
import { DIFF_KINDS, toolHref, type DiffKind } from "@/app/_lib/links";
import type { ServerDetail, SurfaceItemDto } from "@/lib/servers/server-dto";
import { KindHistory } from "./KindHistory";

type TabId = DiffKind;
const TABS = DIFF_KINDS;

/**
 * Everything the server offers an agent, one tab per kind, from the latest snapshot, with that kind's
 * history (the snapshots where it changed, each linking to its diff). All server text is untrusted:
 * rendered through VisibleText (text only, hidden characters shown).
 */
export function SurfaceTabs({ serverId, detail }: { serverId: string; detail: ServerDetail }) {
  const [tab, setTab] = useState<TabId>("tools");
  const { tools, surface } = detail;
  const of = (kind: SurfaceItemDto["kind"]) => surface.items.filter((i) => i.kind === kind);
  const prompts = of("prompt");
  const resources = of("resource");
  const templates = of("resource_template");
  // The snapshot's copy; a snapshot from before surfaces were tracked falls back to the session's.
  const instructions = of("instructions")[0]?.definition.text ?? (surface.tracked ? null : detail.instructions);
  const counts: Record<TabId, number | null> = { tools: tools.length, prompts: prompts.length, resources: resources.length, templates: templates.length, instructions: null };
  const untracked = !surface.tracked && tools.length > 0;
  const current = TABS.find((t) => t.id === tab)!;
  return (
    <section aria-label="What the server offers" className="tools">
      <div role="tablist" aria-label="What the server offers" className="tabs">
        {TABS.map((t) => (
          <button key={t.id} type="button" role="tab" id={`surface-tab-${t.id}`} aria-selected={tab === t.id} aria-controls={`surface-panel-${t.id}`} onClick={() => setTab(t.id)}>
            {t.label}
            {counts[t.id] !== null ? ` (${counts[t.id]})` : ""}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`surface-panel-${tab}`} aria-labelledby={`surface-tab-${tab}`} data-testid={`surface-panel-${tab}`}>
        {untracked && tab !== "tools" ? <p className="muted">The latest snapshot predates prompt and resource tracking; the next listing fills this in.</p> : null}
        {tab === "tools" ? (
          <>
            <h2 id="tools-heading">Current tools ({tools.length})</h2>
            {tools.length ? (
              <p className="muted small" data-testid="tools-context-tokens">
                Together in a model&apos;s context: <TokenCount tokens={sumTokens(tools)} />
              </p>
            ) : null}
            {tools.length === 0 ? <p className="muted">No snapshot yet.</p> : tools.map((t) => <ToolCard key={`${t.position}-${t.hash}`} tool={t} href={toolHref(serverId, t.name)} />)}
          </>
        ) : null}
        {tab === "prompts" ? <ItemList items={prompts} empty="No prompts (or the server does not offer prompts)." render={(p) => <PromptBody def={p.definition} />} /> : null}
        {tab === "resources" ? (
          <>
            <p className="muted small">Resource contents are not fetched: Toolwatch records what resources/list says about them (name, URI, MIME type, description), never what they contain.</p>
            <ItemList items={resources} empty="No resources (or the server does not offer resources)." render={(r) => <ResourceBody def={r.definition} uriKey="uri" />} />
          </>
        ) : null}
        {tab === "templates" ? <ItemList items={templates} empty="No resource templates." render={(r) => <ResourceBody def={r.definition} uriKey="uriTemplate" />} /> : null}
        {tab === "instructions" ? (
          typeof instructions === "string" && instructions ? (
            <p className="description" data-testid="surface-instructions">
              <VisibleText text={instructions} />
            </p>
          ) : (
            <p className="muted">The server sent no instructions.</p>
          )
        ) : null}
        <KindHistory serverId={serverId} kind={current.kind} tab={current.id} label={current.label} />
      </div>
    </section>
  );
}

function ItemList({ items, empty, render }: { items: SurfaceItemDto[]; empty: string; render: (item: SurfaceItemDto) => React.ReactNode }) {
  if (items.length === 0) return <p className="muted">{empty}</p>;
  return (
    <>
      {items.map((item) => (
        <article key={`${item.position}-${item.hash}`} className="tool" data-testid={`surface-item-${item.kind}`}>
          <header>
            <h3>
              <code>
                <VisibleText text={item.name} />
              </code>
              {typeof item.definition.title === "string" ? (
                <span className="tool-title">
                  {" "}
                  — <VisibleText text={item.definition.title} />
                </span>
              ) : null}
            </h3>
            <TokenCount tokens={item.contextTokens} />
          </header>
          {render(item)}
        </article>
      ))}
    </>
  );
}

const text = (v: unknown) => (typeof v === "string" ? v : undefined);

/** The stored counts added up; unknown while any is not counted yet. */
const sumTokens = (items: ReadonlyArray<{ contextTokens: number | null }>) =>
  items.every((i) => i.contextTokens !== null) ? items.reduce((n, i) => n + (i.contextTokens ?? 0), 0) : null;

function PromptBody({ def }: { def: Record<string, unknown> }) {
  const args = Array.isArray(def.arguments) ? (def.arguments as Array<Record<string, unknown>>).filter((a) => typeof a?.name === "string") : [];
  return (
    <>
      {text(def.description) ? <VisibleText className="description" text={text(def.description)!} /> : <p className="muted">No description.</p>}
      {args.length ? (
        <ul className="small">
          {args.map((a) => (
            <li key={String(a.name)}>
              <code>
                <VisibleText text={String(a.name)} />
              </code>
              {a.required === true ? <strong> required</strong> : " optional"}
              {text(a.description) ? (
                <>
                  {" — "}
                  <VisibleText text={text(a.description)!} />
                </>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">No arguments.</p>
      )}
    </>
  );
}

function ResourceBody({ def, uriKey }: { def: Record<string, unknown>; uriKey: "uri" | "uriTemplate" }) {
  return (
    <>
      <p className="small">
        <code>
          <VisibleText text={text(def[uriKey]) ?? "?"} />
        </code>
        {text(def.mimeType) ? (
          <>
            {" · "}
            <VisibleText text={text(def.mimeType)!} />
          </>
        ) : null}
      </p>
      {text(def.description) ? <VisibleText className="description" text={text(def.description)!} /> : <p className="muted">No description.</p>}
    </>
  );
}
