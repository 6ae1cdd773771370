import { markConfusables } from "@/lib/text/confusables";
import { revealHidden } from "@/lib/text/reveal-hidden";

/**
 * Untrusted server text, rendered as text (React escapes it; never dangerouslySetInnerHTML) with
 * every invisible character shown as a marked badge, hidden tag text decoded, and characters that
 * pass for Latin inside a Latin word (Cyrillic "а" in "reаd_file", UTS #39 confusables) marked.
 */
export function VisibleText({ text, className }: { text: string; className?: string }) {
  const segments = revealHidden(text);
  return (
    <span className={className}>
      {segments.map((seg, i) =>
        seg.kind === "text" ? (
          <Confusables key={i} text={seg.text} />
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

function Confusables({ text }: { text: string }) {
  const parts = markConfusables(text);
  if (parts.length === 1 && parts[0]!.kind === "text") return <span>{text}</span>;
  return (
    <span>
      {parts.map((p, i) =>
        p.kind === "text" ? (
          <span key={i}>{p.text}</span>
        ) : (
          <mark key={i} className="confusable-char" data-testid="confusable-char" title={`${p.codePoints} looks like "${p.looksLike}" but is not`}>
            {p.text}
          </mark>
        ),
      )}
    </span>
  );
}
