import type { SharedTool } from "@/lib/views/view-dto";
import { VisibleText } from "@/app/_components/VisibleText";

/**
 * One server's current tools, read-only. Everything here came from an MCP server and is
 * untrusted: names, titles, descriptions and schemas are text (VisibleText), never HTML.
 */
export function SharedToolList({ tools }: { tools: SharedTool[] }) {
  if (tools.length === 0) return <p className="muted">No tools listed yet.</p>;
  return (
    <ul className="shared-tools">
      {tools.map((tool, i) => (
        <li key={`${i}:${tool.name}`} className="tool" data-testid="shared-tool" data-tool-name={tool.name}>
          <header>
            <h3>
              <code>
                <VisibleText text={tool.name} />
              </code>
              {tool.title ? (
                <span className="tool-title">
                  {" "}
                  — <VisibleText text={tool.title} />
                </span>
              ) : null}
            </h3>
            <Hints annotations={tool.annotations} />
          </header>
          {tool.description ? <VisibleText className="description" text={tool.description} /> : <p className="muted">No description.</p>}
          <Schema label="Input schema" schema={tool.inputSchema} />
          {tool.outputSchema ? <Schema label="Output schema" schema={tool.outputSchema} /> : null}
        </li>
      ))}
    </ul>
  );
}

function Hints({ annotations }: { annotations: unknown }) {
  if (!annotations || typeof annotations !== "object") return null;
  const hints = Object.entries(annotations as Record<string, unknown>).filter(([k, v]) => k.endsWith("Hint") && typeof v === "boolean");
  return (
    <div className="hints">
      {hints.map(([k, v]) => (
        <span key={k} className={`hint ${v ? "yes" : "no"}`}>
          <VisibleText text={`${k.replace(/Hint$/, "")}: ${String(v)}`} />
        </span>
      ))}
    </div>
  );
}

function Schema({ label, schema }: { label: string; schema: unknown }) {
  return (
    <details>
      <summary>{label}</summary>
      <pre className="schema" tabIndex={0}>
        <VisibleText text={JSON.stringify(schema ?? null, null, 2)} />
      </pre>
    </details>
  );
}
