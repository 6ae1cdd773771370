import { VisibleText } from "@/app/_components/VisibleText";

/** A JSON value pretty-printed as text (hidden characters shown); `undefined` is "absent". */
export function JsonBlock({ value, className = "" }: { value: unknown; className?: string }) {
  if (value === undefined) return <span className="muted small">(absent)</span>;
  return (
    // Focusable: a long value scrolls, and keyboard users must be able to scroll it (WCAG 2.1.1).
    <pre className={`json ${className}`} tabIndex={0}>
      <VisibleText text={JSON.stringify(value, null, 2)} />
    </pre>
  );
}

/** A whole tool definition, collapsed until asked for. */
export function DefinitionDetails({ definition, summary = "Full definition" }: { definition: unknown; summary?: string }) {
  return (
    <details className="definition">
      <summary>{summary}</summary>
      <JsonBlock value={definition} />
    </details>
  );
}
