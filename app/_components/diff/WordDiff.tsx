import type { Segment } from "@/lib/diff/types";
import { VisibleText } from "@/app/_components/VisibleText";

/** Whitespace-only edits (e.g. newline padding that pushes text out of view) get visible symbols. */
function showWhitespace(text: string): string {
  return text.replace(/\n/g, "↵\n").replace(/\t/g, "→").replace(/ /g, "·");
}

function Changed({ op, text }: Segment) {
  const wsOnly = /^\s+$/.test(text);
  const body = <VisibleText text={wsOnly ? showWhitespace(text) : text} />;
  const title = wsOnly ? `whitespace ${op === "insert" ? "inserted" : "deleted"}` : undefined;
  return op === "insert" ? (
    <ins className={wsOnly ? "word-ins ws" : "word-ins"} title={title}>
      {body}
    </ins>
  ) : (
    <del className={wsOnly ? "word-del ws" : "word-del"} title={title}>
      {body}
    </del>
  );
}

/**
 * One side of a word-level text diff: "before" shows the kept and deleted words (deletions struck
 * through), "after" the kept and inserted ones (insertions highlighted).
 */
export function WordDiff({ words, side }: { words: Segment[]; side: "before" | "after" }) {
  const hidden = side === "before" ? "insert" : "delete";
  return (
    <span className="words">
      {words.map((w, i) =>
        w.op === hidden ? null : w.op === "equal" ? <VisibleText key={i} text={w.text} /> : <Changed key={i} op={w.op} text={w.text} />,
      )}
    </span>
  );
}
