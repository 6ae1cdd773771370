"use client";

import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { ApiError, useServerQuery } from "@/app/_hooks/queries";
import { useDiffQuery } from "@/app/_hooks/history-queries";
import { FLEET_PATH, diffHref, serverHref } from "@/app/_lib/links";
import { DiffBody } from "./DiffBody";
import { DiffSummary } from "./DiffSummary";
import { DIFF_KINDS, parseDiffKind } from "@/app/_lib/links";
import { KindNav } from "./KindNav";
import { SurfaceDiffBody } from "./SurfaceDiffBody";
import { RangePicker } from "./RangePicker";

/**
 * What changed between two snapshots of a server. The range lives in the URL (?from=&to=), so a
 * link shows exactly this diff to anyone in the team; without `to` it follows the latest snapshot.
 * ?kind= picks what is shown: tools (default), prompts, resources, templates or instructions.
 */
export function DiffPage({ id }: { id: string }) {
  const search = useSearchParams();
  const router = useRouter();
  const from = search.get("from") || null;
  const to = search.get("to") || null;
  const kind = parseDiffKind(search.get("kind"));
  const kindEntry = DIFF_KINDS.find((k) => k.id === kind)!;
  const server = useServerQuery(id);
  // A URL naming its `to` snapshot does not wait on the server record: that record may still be
  // the one read before the first listing (fresh in the cache for 30 s), while the link came from
  // a timeline that has already seen the snapshot.
  const canDiff = Boolean(to) || Boolean(server.data?.server.latestSnapshotId);
  const diff = useDiffQuery(id, from, to, canDiff);

  if (server.isPending) return <p aria-busy="true">Loading diff…</p>;
  if (server.error) {
    return (
      <p role="alert">
        {server.error instanceof ApiError && server.error.status === 404 ? "Server not found in this team." : `Could not load the server: ${server.error.message}`}{" "}
        <Link href={FLEET_PATH}>Back to the fleet</Link>
      </p>
    );
  }
  const { server: s } = server.data;
  return (
    <article aria-labelledby="diff-heading" className="diff-page">
      <p>
        <Link href={serverHref(id)}>← {s.name}</Link>
      </p>
      <h1 id="diff-heading">
        Changes <span className="muted heading-sub">{s.name}</span>
      </h1>
      {!canDiff ? (
        <p className="empty" data-testid="no-snapshots">
          No snapshots yet: this page fills in when the worker first lists the server&apos;s tools.
        </p>
      ) : (
        <>
          {diff.isPending ? null : (
            <RangePicker
              serverId={id}
              from={diff.data?.from ?? null}
              to={diff.data?.to ?? null}
              followsLatest={!to}
              explicitFrom={Boolean(from)}
              onChange={(range) => router.push(diffHref(id, { ...range, kind }))}
            />
          )}
          {diff.isPending ? <p aria-busy="true">Computing the diff…</p> : null}
          {diff.error ? <DiffError error={diff.error} serverId={id} /> : null}
          {diff.data ? (
            <div className={diff.isPlaceholderData ? "stale" : undefined} aria-busy={diff.isPlaceholderData}>
              <DiffSummary result={diff.data} />
              <KindNav serverId={id} result={diff.data} kind={kind} range={{ from, to }} />
              {kindEntry.kind === null ? <DiffBody serverId={id} diff={diff.data.diff} /> : <SurfaceDiffBody result={diff.data} kind={kindEntry.kind} label={kindEntry.label} />}
            </div>
          ) : null}
        </>
      )}
    </article>
  );
}

function DiffError({ error, serverId }: { error: Error; serverId: string }) {
  const notFound = error instanceof ApiError && (error.status === 404 || error.status === 400);
  return (
    <p role="alert" className="error-box">
      {notFound ? `Not found: ${error.message}.` : `Could not compute the diff: ${error.message}`}{" "}
      <Link href={diffHref(serverId)}>Show the latest change instead</Link>
    </p>
  );
}
