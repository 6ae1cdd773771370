import Link from "next/link";
import type { ToolAdded, ToolChanged, ToolRemoved } from "@/lib/diff/types";
import { toolHref } from "@/app/_lib/links";
import { LevelBadge } from "@/app/_components/LevelBadge";
import { VisibleText } from "@/app/_components/VisibleText";
import { FieldChanges } from "./FieldChanges";
import { FindingsList } from "./FindingsList";
import { DefinitionDetails } from "./JsonBlock";
import { highestOf } from "./levels";

function ToolName({ serverId, name }: { serverId: string; name: string }) {
  return (
    <Link href={toolHref(serverId, name)} className="tool-link">
      <code>
        <VisibleText text={name} />
      </code>
    </Link>
  );
}

/** The findings and side-by-side fields of one changed tool (used by the diff and tool pages). */
export function ChangeDetails({ change }: { change: ToolChanged }) {
  return (
    <>
      <FindingsList findings={change.findings} />
      <FieldChanges fields={change.fields} />
    </>
  );
}

/** A changed tool in a diff: its name (old → new for a rename), highest level, findings and fields. */
export function ChangedToolCard({ serverId, change }: { serverId: string; change: ToolChanged }) {
  return (
    <article className="diff-tool" data-testid="diff-tool" data-tool={change.rename?.to ?? change.name} data-level={change.highest ?? ""}>
      <header>
        <h3>
          <ToolName serverId={serverId} name={change.name} />
          {change.rename ? (
            <>
              <span className="muted" aria-label="renamed to">
                {" "}
                →{" "}
              </span>
              <ToolName serverId={serverId} name={change.rename.to} />
              <span className="tag">renamed, {Math.round(change.rename.similarity * 100)}% alike</span>
            </>
          ) : null}
        </h3>
        <LevelBadge level={change.highest} />
      </header>
      <ChangeDetails change={change} />
    </article>
  );
}

/** A tool that appeared or disappeared: its findings and its whole definition, collapsed. */
export function AddedRemovedToolCard({ serverId, entry, kind }: { serverId: string; entry: ToolAdded | ToolRemoved; kind: "added" | "removed" }) {
  return (
    <article className={`diff-tool diff-tool-${kind}`} data-testid="diff-tool" data-tool={entry.name} data-kind={kind}>
      <header>
        <h3>
          <span className={`op op-${kind === "added" ? "add" : "remove"}`}>{kind}</span> <ToolName serverId={serverId} name={entry.name} />
          {entry.occurrence ? <span className="tag">copy {entry.occurrence}</span> : null}
        </h3>
        <LevelBadge level={highestOf(entry.findings)} />
      </header>
      <FindingsList findings={entry.findings} />
      <DefinitionDetails definition={entry.tool} summary={kind === "added" ? "Definition" : "Last definition"} />
    </article>
  );
}
