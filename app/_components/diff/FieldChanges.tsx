import type { FieldChange } from "@/lib/diff/types";
import { VisibleText } from "@/app/_components/VisibleText";
import { JsonBlock } from "./JsonBlock";
import { WordDiff } from "./WordDiff";

function Side({ change, side }: { change: FieldChange; side: "before" | "after" }) {
  const value = side === "before" ? change.before : change.after;
  if (change.words) {
    return (
      <div className="text-side">
        <WordDiff words={change.words} side={side} />
      </div>
    );
  }
  if (value === undefined) return <span className="muted small">{side === "before" ? "(absent)" : "(removed)"}</span>;
  return <JsonBlock value={value} className={side === "before" ? "json-before" : "json-after"} />;
}

/**
 * Every changed field of one tool, side by side: before on the left, after on the right, one row
 * per JSON Pointer. Text fields show word-level highlights; other values their JSON.
 */
export function FieldChanges({ fields }: { fields: FieldChange[] }) {
  if (fields.length === 0) return null;
  return (
    <table className="side-by-side" aria-label="Changed fields">
      <thead>
        <tr>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((f) => (
          <FieldRows key={f.pointer} change={f} />
        ))}
      </tbody>
    </table>
  );
}

function FieldRows({ change }: { change: FieldChange }) {
  return (
    <>
      <tr className="field-head">
        <th scope="row" colSpan={2}>
          <code className="pointer" data-testid="field-pointer">
            <VisibleText text={change.pointer || "/"} />
          </code>{" "}
          <span className={`op op-${change.op}`}>{change.op === "add" ? "added" : change.op === "remove" ? "removed" : "changed"}</span>
        </th>
      </tr>
      <tr className="field-body" data-testid="field-change">
        <td className={`before${change.op === "add" ? " empty-side" : ""}`}>
          <Side change={change} side="before" />
        </td>
        <td className={`after${change.op === "remove" ? " empty-side" : ""}`}>
          <Side change={change} side="after" />
        </td>
      </tr>
    </>
  );
}
