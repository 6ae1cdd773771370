import Link from "next/link";
import type { ToolDto } from "@/lib/servers/server-dto";
import { VisibleText } from "./VisibleText";
import { TokenCount } from "./charts/TokenCount";

type Annotations = Record<string, unknown>;

/** One tool of a listing; with `href` its name links to the tool's history. */
export function ToolCard({ tool, href }: { tool: ToolDto; href?: string }) {
  const def = tool.definition;
  const title = typeof def.title === "string" ? def.title : undefined;
  const description = typeof def.description === "string" ? def.description : undefined;
  const annotations = (typeof def.annotations === "object" && def.annotations ? def.annotations : {}) as Annotations;
  const hints = Object.entries(annotations).filter(([k, v]) => k.endsWith("Hint") && typeof v === "boolean");
  const required = Array.isArray((def.inputSchema as { required?: unknown })?.required)
    ? ((def.inputSchema as { required: unknown[] }).required.filter((r) => typeof r === "string") as string[])
    : [];
  return (
    <article className="tool" aria-labelledby={`tool-${tool.position}`}>
      <header>
        <h3 id={`tool-${tool.position}`}>
          {href ? (
            <Link href={href} title="Every version of this tool">
              <code>
                <VisibleText text={tool.name} />
              </code>
            </Link>
          ) : (
            <code>
              <VisibleText text={tool.name} />
            </code>
          )}
          {title ? (
            <span className="tool-title">
              {" "}
              — <VisibleText text={title} />
            </span>
          ) : null}
        </h3>
        <div className="hints">
          {tool.contextTokens !== undefined ? <TokenCount tokens={tool.contextTokens} testId="tool-context-tokens" /> : null}
          {hints.map(([k, v]) => (
            <span key={k} className={`hint ${v ? "yes" : "no"}`}>
              {k.replace(/Hint$/, "")}: {String(v)}
            </span>
          ))}
        </div>
      </header>
      {description ? <VisibleText className="description" text={description} /> : <p className="muted">No description.</p>}
      {required.length ? (
        <p className="required">
          Required: {required.map((r) => <code key={r}>{r}</code>)}
        </p>
      ) : null}
      <details>
        <summary>Input schema</summary>
        <pre className="schema" tabIndex={0}>
          <VisibleText text={JSON.stringify(def.inputSchema, null, 2)} />
        </pre>
      </details>
      {def.outputSchema ? (
        <details>
          <summary>Output schema</summary>
          <pre className="schema" tabIndex={0}>
            <VisibleText text={JSON.stringify(def.outputSchema, null, 2)} />
          </pre>
        </details>
      ) : null}
      <p className="hash muted" title="Content address of this exact definition">
        {tool.hash.slice(0, 24)}…
      </p>
    </article>
  );
}
