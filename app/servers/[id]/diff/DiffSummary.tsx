import { ChangeCounts } from "@/app/_components/ChangeCounts";
import { LevelBadge } from "@/app/_components/LevelBadge";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { VisibleText } from "@/app/_components/VisibleText";
import type { SnapshotDiff } from "@/app/_hooks/history-queries";

/** The whole diff at a glance: counts, the highest level, findings per level, renames, order. */
export function DiffSummary({ result }: { result: SnapshotDiff }) {
  const { from, to, diff } = result;
  const { summary } = diff;
  const levels = (["ERR", "WARN", "INFO"] as const).filter((l) => summary.levels[l] > 0);
  return (
    <section className="diff-summary card" aria-label="Summary" data-testid="diff-summary" data-highest={summary.highest ?? ""}>
      <p className="diff-range small muted">
        {from ? <When iso={from.takenAt} /> : "Nothing (before the server's first snapshot)"} → <When iso={to.takenAt} />
        {to.serverVersionChanged ? <span className="tag version-bump">version bump to {to.serverVersion ?? "unset"}</span> : null}
      </p>
      <div className="summary-line">
        <LevelBadge level={summary.highest} />
        <ChangeCounts {...summary} />
        <span className="muted small">{summary.unchanged} unchanged</span>
        {levels.length ? (
          <span className="small level-counts">
            {levels.map((l) => (
              <span key={l} className={`level-count level-count-${l.toLowerCase()}`}>
                {summary.levels[l]} {l}
              </span>
            ))}
          </span>
        ) : null}
      </div>
      {!from ? <p className="small">The first snapshot: every tool is new.</p> : null}
      {diff.orderOnly ? <p className="small" data-testid="order-only">Only the order of the tools changed; every definition is the same.</p> : null}
      {from && !diff.orderOnly && !summary.added && !summary.removed && !summary.changed ? (
        <p className="small">No tool changed between these snapshots.</p>
      ) : null}
      {diff.renamed.length ? (
        <ul className="renames small" aria-label="Renames">
          {diff.renamed.map((r) => (
            <li key={`${r.from}→${r.to}`}>
              Renamed <code><VisibleText text={r.from} /></code> → <code><VisibleText text={r.to} /></code>{" "}
              <span className="muted">({Math.round(r.similarity * 100)}% alike)</span>
            </li>
          ))}
        </ul>
      ) : null}
      {diff.renameSearch === "bucketed" ? <p className="muted small">Very many tools changed: renames were only looked for among tools sharing parameter names.</p> : null}
    </section>
  );
}

function When({ iso }: { iso: string }) {
  return (
    <span>
      {new Date(iso).toLocaleString()} (<RelativeTime iso={iso} />)
    </span>
  );
}
