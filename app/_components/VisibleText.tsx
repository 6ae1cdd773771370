import { revealHidden } from "../../lib/text/reveal-hidden";

/**
 * Untrusted server text, rendered as text (React escapes it; never dangerouslySetInnerHTML) with
 * every invisible character shown as a marked badge, and hidden tag text decoded.
 */
export function VisibleText({ text, className }: { text: string; className?: string }) {
  const segments = revealHidden(text);
  return (
    <span className={className}>
      {segments.map((seg, i) =>
        seg.kind === "text" ? (
          <span key={i}>{seg.text}</span>
        ) : (
          <mark key={i} className="hidden-char" title={`${seg.label} ${seg.codePoints}`}>
            ⟦{seg.label}
            {seg.decoded ? `: "${seg.decoded}"` : ""}⟧
          </mark>
        ),
      )}
    </span>
  );
}
