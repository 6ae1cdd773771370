import type { SurfaceItemChange } from "@/lib/diff/diff-surface";
import { LevelBadge } from "@/app/_components/LevelBadge";
import { VisibleText } from "@/app/_components/VisibleText";
import { FieldChanges } from "./FieldChanges";
import { FindingsList } from "./FindingsList";
import { DefinitionDetails } from "./JsonBlock";
import { WordDiff } from "./WordDiff";

/** How an item kind is named in the UI (and in alert titles: lib/surface/surface-keys.ts). */
export const KIND_WORD: Record<SurfaceItemChange["kind"], string> = { prompt: "prompt", resource: "resource", resource_template: "template", instructions: "server instructions" };

/**
 * One changed prompt, resource, template or the instructions: what kind and which item, its level,
 * the classified findings (a new required argument, a moved URI), then the changed fields side by
 * side — the instructions as one word diff with insertions and deletions highlighted.
 */
export function SurfaceChangeCard({ change }: { change: SurfaceItemChange }) {
  const op = change.change === "added" ? "add" : change.change === "removed" ? "remove" : "replace";
  return (
    <article className={`diff-tool diff-tool-${change.change}`} data-testid="diff-surface-item" data-kind={change.kind} data-name={change.name} data-change={change.change} data-level={change.highest ?? ""}>
      <header>
        <h3>
          <span className={`op op-${op}`}>{change.change}</span> <span className="tag">{KIND_WORD[change.kind]}</span>{" "}
          {change.kind === "instructions" ? null : (
            <code>
              <VisibleText text={change.name} />
            </code>
          )}
        </h3>
        <LevelBadge level={change.highest} />
      </header>
      <FindingsList findings={change.findings} />
      {change.definition ? <DefinitionDetails definition={change.definition} summary={change.change === "added" ? "Definition" : "Last definition"} /> : null}
      {change.words ? (
        <table className="side-by-side" aria-label="Instructions, word by word">
          <thead>
            <tr>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            <tr className="field-body" data-testid="instructions-diff">
              <td className="before">
                <div className="text-side">
                  <WordDiff words={change.words} side="before" />
                </div>
              </td>
              <td className="after">
                <div className="text-side">
                  <WordDiff words={change.words} side="after" />
                </div>
              </td>
            </tr>
          </tbody>
        </table>
      ) : (
        <FieldChanges fields={change.fields} />
      )}
    </article>
  );
}
