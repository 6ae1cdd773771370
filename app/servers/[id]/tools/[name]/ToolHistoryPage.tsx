"use client";

import Link from "next/link";
import { VisibleText } from "@/app/_components/VisibleText";
import { useToolHistoryQuery, type ToolHistory } from "@/app/_hooks/history-queries";
import { ApiError, useServerQuery } from "@/app/_hooks/queries";
import { FLEET_PATH, serverHref } from "@/app/_lib/links";
import { VersionCard } from "./VersionCard";

/** Every version of one tool this server has offered, each with what changed against the one before. */
export function ToolHistoryPage({ id, name }: { id: string; name: string }) {
  const server = useServerQuery(id);
  const history = useToolHistoryQuery(id, name);
  const error = server.error ?? history.error;
  if (server.isPending || history.isPending) return <p aria-busy="true">Loading the tool&apos;s history…</p>;
  if (error) {
    const notFound = error instanceof ApiError && error.status === 404;
    return (
      <p role="alert">
        {notFound ? (server.error ? "Server not found in this team." : `Not found: ${error.message}.`) : `Could not load the history: ${error.message}`}{" "}
        {server.data ? <Link href={serverHref(id)}>Back to {server.data.server.name}</Link> : <Link href={FLEET_PATH}>Back to the fleet</Link>}
      </p>
    );
  }
  const h = history.data!;
  const latestHash = lastSeenHash(h);
  // Newest first: people open a tool page to see what it is now and what changed last; the
  // version numbers (v1 = oldest) keep the chronology readable.
  const newestFirst = h.versions.map((v, i) => ({ v, n: i + 1 })).reverse();
  const first = h.versions[0]!;
  const last = h.versions.at(-1)!;
  return (
    <article aria-labelledby="tool-heading" className="tool-page">
      <p>
        <Link href={serverHref(id)}>← {server.data!.server.name}</Link>
      </p>
      <h1 id="tool-heading">
        <code>
          <VisibleText text={h.name} />
        </code>
        {h.current ? <span className="badge status-live">current</span> : <span className="badge status-down">removed</span>}
      </h1>
      <p className="summary" data-testid="version-count">
        {h.versions.length} version{h.versions.length === 1 ? "" : "s"} · first seen {new Date(first.firstSeenAt).toLocaleString()} · last seen{" "}
        {new Date(last.lastSeenAt).toLocaleString()}
        {h.current ? "" : " · no longer offered by the server"}
      </p>
      <ol className="versions" aria-label="Versions, newest first">
        {newestFirst.map(({ v, n }) => (
          <VersionCard key={v.hash} serverId={id} version={v} number={n} status={v.hash !== latestHash ? "superseded" : h.current ? "current" : "removed"} />
        ))}
      </ol>
    </article>
  );
}

/** The version seen last: what the server offers now, or offered before dropping the tool (it may have returned to an older definition). */
function lastSeenHash(h: ToolHistory): string {
  return h.versions.reduce((a, b) => (b.lastSeenAt > a.lastSeenAt ? b : a)).hash;
}
