"use client";

import type { SnapshotDto } from "@/lib/servers/server-dto";
import { useSnapshotsQuery } from "@/app/_hooks/queries";

export type Range = { from: string | null; to: string | null };

const time = (iso: string) => new Date(iso).toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" });

function label(s: SnapshotDto): string {
  const c = s.changes;
  const counts = c ? ` · +${c.added} −${c.removed} ~${c.changed}${c.highest ? ` ${c.highest}` : ""}` : " · first";
  return `${time(s.takenAt)} · ${s.toolCount} tools${counts}`;
}

type Props = {
  serverId: string;
  /** The snapshots the diff actually compares (the API resolves the defaults). */
  from: SnapshotDto | null;
  to: SnapshotDto | null;
  /** No `to` in the URL: the page follows the latest snapshot. */
  followsLatest: boolean;
  /** `from` is in the URL (else it is "the one before `to`"). */
  explicitFrom: boolean;
  onChange: (range: Range) => void;
};

/** Two pickers over the server's snapshots (newest first); every choice becomes the page URL. */
export function RangePicker({ serverId, from, to, followsLatest, explicitFrom, onChange }: Props) {
  const { data, hasNextPage, fetchNextPage, isFetchingNextPage } = useSnapshotsQuery(serverId);
  const loaded = data?.pages.flatMap((p) => p.items) ?? [];
  // The compared snapshots may be older than the loaded pages: always offer them.
  const extra = [from, to].filter((s): s is SnapshotDto => Boolean(s && !loaded.some((l) => l.id === s.id)));
  const options = [...loaded, ...extra].sort((a, b) => b.takenAt.localeCompare(a.takenAt));
  const takenAt = (id: string | null) => options.find((o) => o.id === id)?.takenAt ?? null;

  const pickTo = (value: string) => {
    const next = value || null;
    const nextAt = takenAt(next);
    // An explicit `from` stays only while it is still older than the new `to`.
    const keepFrom = explicitFrom && from && (nextAt === null || from.takenAt < nextAt);
    onChange({ from: keepFrom ? from.id : null, to: next });
  };
  const pickFrom = (value: string) => onChange({ from: value || null, to: followsLatest ? null : (to?.id ?? null) });
  const backwards = from && to && from.takenAt >= to.takenAt;

  return (
    <form className="range-picker card" aria-label="Compare snapshots" onSubmit={(e) => e.preventDefault()}>
      <div className="field">
        <label htmlFor="diff-from">
          From (before) <span className="hint-text">“Previous” is the one before “To”</span>
        </label>
        <select id="diff-from" value={explicitFrom && from ? from.id : ""} onChange={(e) => pickFrom(e.target.value)}>
          <option value="">{from ? `Previous — ${label(from)}` : "Nothing (“To” is the first snapshot)"}</option>
          {options.map((s) => (
            <option key={s.id} value={s.id}>
              {label(s)}
            </option>
          ))}
        </select>
      </div>
      <span className="range-arrow" aria-hidden="true">
        →
      </span>
      <div className="field">
        <label htmlFor="diff-to">
          To (after) <span className="hint-text">“Latest” follows new snapshots</span>
        </label>
        <select id="diff-to" value={followsLatest ? "" : (to?.id ?? "")} onChange={(e) => pickTo(e.target.value)}>
          <option value="">{to && followsLatest ? `Latest — ${label(to)}` : "Latest"}</option>
          {options.map((s) => (
            <option key={s.id} value={s.id}>
              {label(s)}
            </option>
          ))}
        </select>
      </div>
      {hasNextPage ? (
        <button type="button" className="button secondary small" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
          {isFetchingNextPage ? "Loading…" : "Older snapshots"}
        </button>
      ) : null}
      {backwards ? (
        <p className="warn-text small range-note" role="status">
          {from.id === to.id ? "Both sides are the same snapshot." : "“From” is newer than “To”: additions and removals read backwards."}
        </p>
      ) : null}
    </form>
  );
}
