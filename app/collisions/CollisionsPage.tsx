"use client";

import Link from "next/link";
import type { Collision } from "@/lib/collisions/collision-dto";
import { HOST_LABELS } from "@/lib/collisions/qualified-names";
import { kindLabel } from "@/app/_components/alerts/labels";
import { SeverityBadge } from "@/app/_components/alerts/SeverityBadge";
import { VisibleText } from "@/app/_components/VisibleText";
import { useCollisionsQuery } from "@/app/_hooks/finder-queries";
import { alertHref, serverHref, toolHref } from "@/app/_lib/links";

/** Tool names two or more of the team's servers offer, and what an agent host would call each. */
export function CollisionsPage() {
  const { data, error, isPending, fetchNextPage, hasNextPage, isFetchingNextPage } = useCollisionsQuery();
  const items = data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <>
      <h1>Name collisions</h1>
      <p className="summary narrow">
        Tool names that more than one of your servers offer. An agent host connected to several of them sees each under a
        qualified name: <strong>Claude Code</strong> calls it <code>mcp__&lt;server&gt;__&lt;tool&gt;</code>, <strong>VS Code</strong>{" "}
        <code>mcp_&lt;server&gt;_&lt;tool&gt;</code> (the server name as in the host&apos;s own config, assumed here to be the one it has in
        Toolwatch). The model still reads the bare name in descriptions and instructions, so a look-alike can take another server&apos;s calls.
      </p>
      {isPending ? <p aria-busy="true" className="muted">Loading collisions…</p> : null}
      {error ? <p role="alert" className="form-error">Could not load collisions: {error.message}</p> : null}
      {data && items.length === 0 ? (
        <div className="card empty-state" data-testid="collisions-empty">
          <h2>No tool name is offered twice</h2>
          <p className="muted">Each tool name in your fleet comes from one server. When a second server starts offering a name, it shows up here and a name-collision alert opens.</p>
        </div>
      ) : null}
      {items.length > 0 ? (
        <ul className="collision-list" aria-label="Colliding tool names">
          {items.map((c) => (
            <CollisionCard key={c.toolName} collision={c} />
          ))}
        </ul>
      ) : null}
      {hasNextPage ? (
        <button type="button" className="button secondary" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
          {isFetchingNextPage ? "Loading…" : "Show more names"}
        </button>
      ) : null}
    </>
  );
}

function CollisionCard({ collision: c }: { collision: Collision }) {
  const headingId = `collision-${c.toolName}`;
  return (
    <li className="card collision" data-testid="collision" data-tool-name={c.toolName} aria-labelledby={headingId}>
      <header className="collision-head">
        <h2 id={headingId}>
          <code>
            <VisibleText text={c.toolName} />
          </code>
        </h2>
        <span className="muted small">
          {c.serverCount} servers · {c.definitionCount === 1 ? "same definition on each" : `${c.definitionCount} different definitions`}
        </span>
      </header>
      <table className="data collision-servers">
        <caption className="visually-hidden">Servers offering {c.toolName}</caption>
        <thead>
          <tr>
            <th scope="col">Server</th>
            <th scope="col">Definition</th>
            <th scope="col">{HOST_LABELS["claude-code"]}</th>
            <th scope="col">{HOST_LABELS.vscode}</th>
          </tr>
        </thead>
        <tbody>
          {c.servers.map((s) => (
            <tr key={s.serverId}>
              <th scope="row">
                <Link href={toolHref(s.serverId, c.toolName)}>
                  <VisibleText text={s.serverName} />
                </Link>
              </th>
              <td className="num">#{s.definition}</td>
              {s.qualifiedNames.map((q) => (
                <td key={q.host} className="qualified">
                  <code>{q.name}</code>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {c.serverCount > c.servers.length ? <p className="muted small">and {c.serverCount - c.servers.length} more servers</p> : null}
      <div className="collision-alerts">
        {c.alerts.length === 0 ? (
          <p className="muted small">No open alert about this name.</p>
        ) : (
          <ul aria-label={`Open alerts about ${c.toolName}`}>
            {c.alerts.map((a) => (
              <li key={a.id}>
                <SeverityBadge severity={a.severity} /> <span className="muted small">{kindLabel(a.kind)}</span>{" "}
                <Link href={alertHref(a.id)} data-testid="collision-alert">
                  <VisibleText text={a.title} />
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
      <p className="small">
        <Link href={serverHref(c.servers[0]!.serverId)} className="muted">First offered by {c.servers[0]!.serverName}</Link>
      </p>
    </li>
  );
}
