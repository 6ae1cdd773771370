"use client";

import Link from "next/link";
import { RelativeTime } from "./_components/RelativeTime";
import { StatusBadge } from "./_components/StatusBadge";
import { VisibleText } from "./_components/VisibleText";
import { useCan, useServersQuery } from "./_hooks/queries";

const TRANSPORT: Record<string, string> = { stdio: "stdio", streamable_http: "Streamable HTTP", sse: "HTTP+SSE" };

export function FleetPage() {
  const { data, error, isPending } = useServersQuery();
  const can = useCan();
  if (isPending) return <p aria-busy="true">Loading fleet…</p>;
  if (error) return <p role="alert">Could not load the fleet: {error.message}</p>;
  const servers = data.items;
  const counts = servers.reduce<Record<string, number>>((acc, s) => ({ ...acc, [s.status]: (acc[s.status] ?? 0) + 1 }), {});
  return (
    <section aria-labelledby="fleet-heading">
      <div className="page-head">
        <h1 id="fleet-heading">Fleet</h1>
        {can("server:write") ? (
          <Link className="button" href="/servers/new">
            Add server
          </Link>
        ) : null}
      </div>
      <p className="summary">
        {servers.length} server{servers.length === 1 ? "" : "s"}
        {Object.entries(counts).map(([status, n]) => (
          <span key={status}>
            {" · "}
            {n} {status}
          </span>
        ))}
      </p>
      {servers.length === 0 ? (
        <p className="empty" data-testid="empty-fleet">
          No servers in this team yet.{" "}
          {can("server:write") ? <Link href="/servers/new">Add the first one</Link> : "A team admin can add them."}
        </p>
      ) : (
        <table className="fleet">
          <thead>
            <tr>
              <th scope="col">Server</th>
              <th scope="col">Status</th>
              <th scope="col">Transport</th>
              <th scope="col">Protocol</th>
              <th scope="col" className="num">Tools</th>
              <th scope="col">Last change</th>
              <th scope="col">Last error</th>
            </tr>
          </thead>
          <tbody>
            {servers.map((s) => (
              <tr key={s.id} data-testid={`server-row-${s.name}`}>
                <th scope="row">
                  <Link href={`/servers/${s.id}`}>{s.name}</Link>
                  {s.serverInfo?.name ? (
                    <div className="muted small">
                      <VisibleText text={`${s.serverInfo.name} ${s.serverInfo.version ?? ""}`} />
                    </div>
                  ) : null}
                  <div className="tags">
                    {s.tags.map((t) => (
                      <span key={t} className="tag">
                        {t}
                      </span>
                    ))}
                  </div>
                </th>
                <td>
                  <StatusBadge status={s.status} reason={s.statusReason} />
                </td>
                <td>{TRANSPORT[s.transport] ?? s.transport}</td>
                <td>
                  {s.protocolVersion ?? <span className="muted">—</span>}
                  {s.era ? <div className="muted small">{s.era} era</div> : null}
                </td>
                <td className="num" data-testid="tool-count">
                  {s.toolCount ?? <span className="muted">—</span>}
                </td>
                <td>
                  <RelativeTime iso={s.lastChangeAt} />
                  <div className="muted small">{s.snapshotCount} snapshot{s.snapshotCount === 1 ? "" : "s"}</div>
                </td>
                <td className="error-cell">
                  {s.lastError ? (
                    <span title={s.lastError.message}>
                      <code>{s.lastError.code}</code> <VisibleText text={s.lastError.message.slice(0, 120)} />
                    </span>
                  ) : s.warnings.length ? (
                    <span className="warn-text" title={s.warnings.join("\n")}>
                      {s.warnings.length} warning{s.warnings.length === 1 ? "" : "s"}
                    </span>
                  ) : (
                    <span className="muted">none</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
