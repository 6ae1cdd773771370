import Link from "next/link";
import { LevelBadge } from "@/app/_components/LevelBadge";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { ChangeDetails } from "@/app/_components/diff/ToolChangeView";
import { DefinitionDetails } from "@/app/_components/diff/JsonBlock";
import { VisibleText } from "@/app/_components/VisibleText";
import type { ToolHistory } from "@/app/_hooks/history-queries";
import { diffHref } from "@/app/_lib/links";

type Version = ToolHistory["versions"][number];
export type VersionStatus = "current" | "superseded" | "removed";

const STATUS_CLASS: Record<VersionStatus, string> = { current: "status-live", superseded: "status-stopped", removed: "status-down" };

export function VersionCard({ serverId, version: v, number, status }: { serverId: string; version: Version; number: number; status: VersionStatus }) {
  return (
    <li className="version card" data-testid="tool-version" data-status={status}>
      <header className="version-head">
        <h2>
          v{number} <span className={`badge ${STATUS_CLASS[status]}`}>{status}</span> <LevelBadge level={v.change?.highest} />
        </h2>
        <Link href={diffHref(serverId, { to: v.firstSnapshotId })} className="diff-link">
          {number === 1 ? "snapshot where it appeared" : "diff where it appeared"}
        </Link>
      </header>
      <dl className="facts compact">
        <dt>First seen</dt>
        <dd>
          <RelativeTime iso={v.firstSeenAt} /> <span className="muted small">({new Date(v.firstSeenAt).toLocaleString()})</span>
        </dd>
        <dt>Last seen</dt>
        <dd>
          <RelativeTime iso={v.lastSeenAt} /> <span className="muted small">({new Date(v.lastSeenAt).toLocaleString()})</span>
        </dd>
        <dt>Snapshots</dt>
        <dd>{v.snapshots}</dd>
        <dt>Hash</dt>
        <dd>
          <code className="small">{v.hash}</code>
        </dd>
      </dl>
      {v.change ? (
        <section aria-label={`Changes in v${number}`}>
          <h3 className="version-sub">
            Changes since v{number - 1}
            {v.change.rename ? (
              <span className="muted small">
                {" "}
                (renamed from <VisibleText text={v.change.rename.from} />)
              </span>
            ) : null}
          </h3>
          <ChangeDetails change={v.change} />
        </section>
      ) : (
        <p className="muted small">The first version this server offered.</p>
      )}
      <DefinitionDetails definition={v.definition} />
    </li>
  );
}
