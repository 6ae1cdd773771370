"use client";

import Link from "next/link";
import type { FleetServer } from "@/lib/servers/server-dto";
import { SORT_KEYS, type ViewFilters } from "@/lib/views/view-input";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { StatusBadge } from "@/app/_components/StatusBadge";
import { VisibleText } from "@/app/_components/VisibleText";
import { COLUMN_LABELS, TRANSPORT_LABELS, type ViewColumn } from "./filter-labels";
import { RowAlerts } from "./RowAlerts";
import { StatusStrip } from "./StatusStrip";

type Sort = ViewFilters["sort"];
type SortKey = NonNullable<Sort>["by"];

const isSortKey = (c: ViewColumn): c is SortKey => (SORT_KEYS as readonly string[]).includes(c);

/** Ascending, then descending, then back to the fleet's own order (by name). */
function nextSort(current: Sort, by: SortKey): Sort {
  if (current?.by !== by) return { by, dir: "asc" };
  return current.dir === "asc" ? { by, dir: "desc" } : undefined;
}

export type AlertCounts = { byServer: Map<string, number>; capped: boolean } | null;

type Props = {
  servers: FleetServer[];
  columns: ViewColumn[];
  sort: Sort;
  activeTags: string[];
  alertCounts: AlertCounts;
  onSort: (sort: Sort) => void;
  onTag: (tag: string) => void;
};

export function FleetTable({ servers, columns, sort, activeTags, alertCounts, onSort, onTag }: Props) {
  return (
    <table className="fleet">
      <thead>
        <tr>
          {columns.map((c) => {
            const sorted = sort?.by === c ? (sort.dir === "desc" ? "descending" : "ascending") : undefined;
            const numeric = c === "toolCount" || c === "alerts";
            return (
              <th key={c} scope="col" className={numeric ? "num" : undefined} aria-sort={sorted ?? (isSortKey(c) ? "none" : undefined)}>
                {isSortKey(c) ? (
                  <button type="button" className="sort-button" onClick={() => onSort(nextSort(sort, c))} title={`Sort by ${COLUMN_LABELS[c]}`}>
                    {COLUMN_LABELS[c]}
                    <span aria-hidden="true" className="sort-mark">
                      {sorted === "ascending" ? "▲" : sorted === "descending" ? "▼" : "↕"}
                    </span>
                  </button>
                ) : (
                  COLUMN_LABELS[c]
                )}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {servers.map((s) => (
          <tr key={s.id} data-testid={`server-row-${s.name}`}>
            {columns.map((c) => (
              <Cell key={c} column={c} server={s} activeTags={activeTags} alertCounts={alertCounts} onTag={onTag} />
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Cell({ column, server: s, activeTags, alertCounts, onTag }: { column: ViewColumn; server: FleetServer; activeTags: string[]; alertCounts: AlertCounts; onTag: (tag: string) => void }) {
  switch (column) {
    case "name":
      return (
        <th scope="row">
          <Link href={`/servers/${s.id}`}>{s.name}</Link>
          {s.serverInfo?.name ? (
            <div className="muted small">
              <VisibleText text={`${s.serverInfo.name} ${s.serverInfo.version ?? ""}`} />
            </div>
          ) : null}
          <RowAlerts serverId={s.id} counts={s.openAlerts} />
        </th>
      );
    case "status":
      return (
        <td className="error-cell">
          <StatusBadge status={s.status} reason={s.statusReason} />
          <StatusStrip strip={s.statusStrip} />
          {s.lastError ? (
            <div className="small" title={s.lastError.message}>
              <code>{s.lastError.code}</code> <VisibleText text={s.lastError.message.slice(0, 120)} />
            </div>
          ) : s.warnings.length ? (
            <div className="warn-text small" title={s.warnings.join("\n")}>
              {s.warnings.length} warning{s.warnings.length === 1 ? "" : "s"}
            </div>
          ) : null}
        </td>
      );
    case "transport":
      return <td>{TRANSPORT_LABELS[s.transport] ?? s.transport}</td>;
    case "tags":
      return (
        <td>
          <div className="tags">
            {s.tags.map((t) => {
              const active = activeTags.includes(t);
              return (
                <button key={t} type="button" className={`tag tag-button${active ? " active" : ""}`} disabled={active} title={active ? "Already filtered by this tag" : `Show only servers tagged ${t}`} onClick={() => onTag(t)}>
                  <VisibleText text={t} />
                </button>
              );
            })}
          </div>
        </td>
      );
    case "protocolVersion":
      return (
        <td>
          {s.protocolVersion ?? <span className="muted">—</span>}
          {s.era ? <div className="muted small">{s.era} era</div> : null}
        </td>
      );
    case "toolCount":
      return (
        <td className="num" data-testid="tool-count">
          {s.toolCount ?? <span className="muted">—</span>}
        </td>
      );
    case "lastChangeAt":
      return (
        <td data-testid="last-change">
          <RelativeTime iso={s.lastChangeAt} />
          <div className="muted small">
            {s.snapshotCount} snapshot{s.snapshotCount === 1 ? "" : "s"}
          </div>
        </td>
      );
    case "alerts": {
      if (!alertCounts) return <td className="num muted">…</td>;
      const n = alertCounts.byServer.get(s.id) ?? 0;
      return (
        <td className="num" data-testid="alert-count">
          {n === 0 ? <span className="muted">0</span> : <a href="#matching-alerts">{alertCounts.capped ? `${n}+` : n}</a>}
        </td>
      );
    }
  }
}
