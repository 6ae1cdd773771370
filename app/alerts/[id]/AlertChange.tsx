import Link from "next/link";
import type { AlertDetail } from "@/lib/alerts/alert-dto";
import { ChangeDetails } from "@/app/_components/diff/ToolChangeView";
import { DefinitionDetails, JsonBlock } from "@/app/_components/diff/JsonBlock";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { VisibleText } from "@/app/_components/VisibleText";
import { kindLabel, shortHash as short } from "@/app/_components/alerts/labels";
import { serverHref, toolHref } from "@/app/_lib/links";


/** The version under review against the approved baseline: side by side when both exist. */
export function AlertChange({ detail }: { detail: AlertDetail }) {
  const { alert, diff, baselineVersion, candidateVersion, details } = detail;
  if (!alert.toolName || (!alert.candidateHash && !alert.baselineHash)) return null;
  return (
    <section aria-labelledby="change-heading" className="alert-change" data-testid="alert-diff">
      <h2 id="change-heading">Change against the approved baseline</h2>
      <p className="muted small">
        Baseline <code className="hash" data-testid="baseline-hash">{short(alert.baselineHash)}</code> → under review{" "}
        <code className="hash" data-testid="candidate-hash">{short(alert.candidateHash)}</code>
        {details.notified === false ? " · found by polling: no list_changed notification preceded it" : details.notified ? " · announced by list_changed" : ""}
        {details.serverVersionChanged === false && details.notified === false ? " and no version bump (a silent change)" : ""}
        {" · "}
        <Link href={toolHref(alert.serverId, alert.toolName)}>every version of this tool</Link>
      </p>
      {details.baselineMissing ? (
        <p className="notice warn">The baseline version is no longer stored (pruned by retention), so there is nothing to compare against.</p>
      ) : null}
      {details.blocked ? <p className="notice warn">A reviewer rejected exactly this version before: the tool stays blocked until a version is approved.</p> : null}
      {diff ? (
        <div className="diff-tool" data-level={diff.highest ?? ""}>
          <ChangeDetails change={diff} />
        </div>
      ) : candidateVersion && !baselineVersion ? (
        <>
          <p className="muted">
            {details.firstSeen ? "This tool has no approved baseline yet: this is the first version Toolwatch saw." : "There is no approved version to compare with."}
          </p>
          <JsonBlock value={candidateVersion.definition} className="json-after" />
        </>
      ) : baselineVersion && !candidateVersion ? (
        <>
          <p className="muted">The tool is no longer offered. Its last approved definition:</p>
          <JsonBlock value={baselineVersion.definition} className="json-before" />
        </>
      ) : (
        <p className="muted">The version under review is the approved one: nothing differs.</p>
      )}
      {diff && baselineVersion ? <DefinitionDetails definition={baselineVersion.definition} summary="Full baseline definition" /> : null}
      {diff && candidateVersion ? <DefinitionDetails definition={candidateVersion.definition} summary="Full definition under review" /> : null}
      {details.revisions && details.revisions.length > 1 ? (
        <details className="definition">
          <summary>Versions this alert has been about ({details.revisions.length})</summary>
          <ol className="flat-list">
            {details.revisions.map((r, i) => (
              <li key={i}>
                <code className="hash">{short(r.candidateHash)}</code> {kindLabel(r.kind)}, {r.severity} · <RelativeTime iso={r.at} />
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </section>
  );
}

/** Alerts about a whole server or list: outages, recoveries, collapsed lists and name collisions. */
export function ServerLevelDetails({ detail }: { detail: AlertDetail }) {
  const { details } = detail;
  const { status, collapse, collisions, serverCount, divergence } = details;
  if (!status && !collapse && !collisions?.length && !divergence) return null;
  return (
    <section aria-labelledby="server-details-heading" className="card">
      <h2 id="server-details-heading">What happened</h2>
      {status ? (
        <dl className="facts compact">
          {status.reason ? (
            <>
              <dt>Reason</dt>
              <dd>
                <VisibleText text={status.reason} />
              </dd>
            </>
          ) : null}
          {status.error ? (
            <>
              <dt>Error</dt>
              <dd>
                <code>{status.error.code}</code> <VisibleText text={status.error.message} />
              </dd>
            </>
          ) : null}
          {status.downSince ? (
            <>
              <dt>Down since</dt>
              <dd>
                <RelativeTime iso={status.downSince} />
              </dd>
            </>
          ) : null}
          {status.downForMs !== undefined ? (
            <>
              <dt>Down for</dt>
              <dd>{Math.round(status.downForMs / 1000)} s</dd>
            </>
          ) : null}
        </dl>
      ) : null}
      {collapse ? (
        <>
          <p>
            The tool list went from {collapse.fromCount} to {collapse.toCount} tools. Gone:
          </p>
          <ToolNameList names={collapse.removed} />
        </>
      ) : null}
      {divergence ? <DivergenceDetails divergence={divergence} /> : null}
      {collisions?.length ? (
        <>
          <p>
            {serverCount ?? collisions.length} servers of this team offer a tool of this name (an agent may call the wrong one)
            {serverCount && serverCount > collisions.length ? `; the first ${collisions.length}:` : ":"}
          </p>
          <ul className="flat-list">
            {collisions.map((c) => (
              <li key={c.serverId}>
                <Link href={serverHref(c.serverId)}>
                  <VisibleText text={c.serverName} />
                </Link>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

/** R31: what this server's public list looks like next to another authorization context's. */
function DivergenceDetails({ divergence: d }: { divergence: NonNullable<AlertDetail["details"]["divergence"]> }) {
  return (
    <div data-testid="divergence">
      <p>
        The server marked its tool list <code>public</code> (the same for every caller), yet with {d.ownContext} it listed {d.ownCount} tools
        while a request {d.otherContext === "anonymous" ? "without credentials" : "with other credentials"} (
        <RelativeTime iso={d.otherFetchedAt} />) got {d.otherCount}. A server that shows different tools to different callers under a
        public scope breaks the protocol and may be targeting someone (rule R31).
      </p>
      {d.onlyHere.length ? (
        <>
          <p>Only this server sees:</p>
          <ToolNameList names={d.onlyHere} />
        </>
      ) : null}
      {d.differing.length ? (
        <>
          <p>Defined differently for the other caller:</p>
          <ToolNameList names={d.differing} />
        </>
      ) : null}
      {d.missingHereCount ? <p>{d.missingHereCount} tool(s) the other caller sees are missing here (their names are not shown: they may belong to another team).</p> : null}
      <p className="muted small">
        List hashes: <code>{d.ownHash.slice(-12)}</code> here, <code>{d.otherHash.slice(-12)}</code> for the other caller.
      </p>
    </div>
  );
}

/** Tool names are untrusted server text: shown as code, hidden characters visible. */
function ToolNameList({ names }: { names: string[] }) {
  return (
    <ul className="flat-list">
      {names.map((name) => (
        <li key={name}>
          <code>
            <VisibleText text={name} />
          </code>
        </li>
      ))}
    </ul>
  );
}
