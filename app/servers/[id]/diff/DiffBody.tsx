import type { ToolListDiff } from "@/lib/diff/types";
import { levelRank } from "@/app/_components/diff/levels";
import { AddedRemovedToolCard, ChangedToolCard } from "@/app/_components/diff/ToolChangeView";

/** Changed tools (most severe first), then removed, then added ones. */
export function DiffBody({ serverId, diff }: { serverId: string; diff: ToolListDiff }) {
  const changed = [...diff.changed].sort((a, b) => levelRank(b.highest) - levelRank(a.highest));
  return (
    <>
      {changed.length ? (
        <section aria-labelledby="changed-heading">
          <h2 id="changed-heading">Changed ({changed.length})</h2>
          {changed.map((c) => (
            <ChangedToolCard key={`${c.name}#${c.occurrence ?? 1}`} serverId={serverId} change={c} />
          ))}
        </section>
      ) : null}
      {diff.removed.length ? (
        <section aria-labelledby="removed-heading">
          <h2 id="removed-heading">Removed ({diff.removed.length})</h2>
          {diff.removed.map((t) => (
            <AddedRemovedToolCard key={`${t.name}#${t.occurrence ?? 1}`} serverId={serverId} entry={t} kind="removed" />
          ))}
        </section>
      ) : null}
      {diff.added.length ? (
        <section aria-labelledby="added-heading">
          <h2 id="added-heading">Added ({diff.added.length})</h2>
          {diff.added.map((t) => (
            <AddedRemovedToolCard key={`${t.name}#${t.occurrence ?? 1}`} serverId={serverId} entry={t} kind="added" />
          ))}
        </section>
      ) : null}
    </>
  );
}
