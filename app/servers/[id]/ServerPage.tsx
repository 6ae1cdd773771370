"use client";

import Link from "next/link";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { StatusBadge } from "@/app/_components/StatusBadge";
import { TokenCount } from "@/app/_components/charts/TokenCount";
import { VisibleText } from "@/app/_components/VisibleText";
import { ApiError, useServerQuery } from "@/app/_hooks/queries";
import { FLEET_PATH, diffHref } from "@/app/_lib/links";
import { ServerActions } from "./ServerActions";
import { ServerAudit } from "./ServerAudit";
import { ServerCache } from "./ServerCache";
import { ServerIdentityProbes } from "./ServerIdentityProbes";
import { SurfaceTabs } from "./SurfaceTabs";
import { TagEditor } from "./TagEditor";
import { Timeline } from "./Timeline";
import { ServerTokenTrend } from "./ServerTokenTrend";

export function ServerPage({ id }: { id: string }) {
  const { data, error, isPending } = useServerQuery(id);
  if (isPending) return <p aria-busy="true">Loading server…</p>;
  if (error) {
    return (
      <p role="alert">
        {error instanceof ApiError && error.status === 404 ? "Server not found in this team." : `Could not load the server: ${error.message}`}{" "}
        <Link href={FLEET_PATH}>Back to the fleet</Link>
      </p>
    );
  }
  const { server, transitions } = data;
  return (
    <article aria-labelledby="server-heading">
      <p>
        <Link href={FLEET_PATH}>← Fleet</Link>
      </p>
      <div className="page-head">
        <h1 id="server-heading">
          {server.name} <StatusBadge status={server.status} reason={server.statusReason} />
        </h1>
        <ServerActions server={server} />
      </div>
      <dl className="facts">
        <dt>Target</dt>
        <dd>
          <code>{server.target}</code>
        </dd>
        <dt>Protocol</dt>
        <dd>
          {server.protocolVersion ?? "—"} {server.era ? `(${server.era} era)` : ""}
          {server.transportUsed && server.transportUsed !== server.transport ? ` · answered over ${server.transportUsed} (fallback)` : ""}
        </dd>
        <dt>Server</dt>
        <dd>{server.serverInfo ? <VisibleText text={`${server.serverInfo.name ?? "?"} ${server.serverInfo.version ?? ""}`} /> : "—"}</dd>
        <dt>Tags</dt>
        <dd>
          <TagEditor server={server} />
        </dd>
        <dt>Tools</dt>
        <dd data-testid="server-tool-count">{server.toolCount ?? "—"}</dd>
        <dt>Context</dt>
        <dd>
          <TokenCount tokens={server.contextTokens} testId="server-context-tokens" />
        </dd>
        <dt>Last listed</dt>
        <dd>
          <RelativeTime iso={server.lastListedAt} />
        </dd>
        <dt>Last change</dt>
        <dd>
          <RelativeTime iso={server.lastChangeAt} />
          {server.latestSnapshotId ? (
            <>
              {" · "}
              <Link href={diffHref(server.id)}>what changed</Link>
            </>
          ) : null}
        </dd>
        <ServerAudit server={server} />
        <ServerCache serverId={server.id} />
        <ServerIdentityProbes serverId={server.id} />
        {server.envKeys.length ? (
          <>
            <dt>Env (values hidden)</dt>
            <dd>{server.envKeys.join(", ")}</dd>
          </>
        ) : null}
        {server.headerKeys.length ? (
          <>
            <dt>Headers (values hidden)</dt>
            <dd>{server.headerKeys.join(", ")}</dd>
          </>
        ) : null}
      </dl>
      {server.lastError ? (
        <p className="error-box" role="status">
          Last error <code>{server.lastError.code}</code>: <VisibleText text={server.lastError.message} />{" "}
          {server.lastError.at ? <RelativeTime iso={server.lastError.at} /> : null}
        </p>
      ) : null}
      {server.warnings.length ? (
        <section className="warn-box" aria-labelledby="warnings-heading">
          <h2 id="warnings-heading">Warnings from the last listing ({server.warnings.length})</h2>
          <ul>
            {server.warnings.map((w, i) => (
              <li key={i}>
                <VisibleText text={w} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <div className="columns">
        <SurfaceTabs serverId={server.id} detail={data} />
        <aside className="side">
          <ServerTokenTrend serverId={server.id} />
          <Timeline serverId={server.id} />
          <section aria-labelledby="status-heading">
            <h2 id="status-heading">Status history</h2>
            <ol className="transitions">
              {transitions.map((t, i) => (
                <li key={i}>
                  <StatusBadge status={t.to} /> <RelativeTime iso={t.at} />
                  {t.reason ? <div className="muted small"><VisibleText text={t.reason} /></div> : null}
                </li>
              ))}
            </ol>
          </section>
        </aside>
      </div>
    </article>
  );
}
