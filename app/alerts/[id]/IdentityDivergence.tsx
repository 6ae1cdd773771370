import type { AlertDetail } from "@/lib/alerts/alert-dto";
import type { IdentityVariant } from "@/lib/identity-probes/types";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { VisibleText } from "@/app/_components/VisibleText";
import { DefinitionDetails } from "@/app/_components/diff/JsonBlock";
import { DiffBody } from "@/app/servers/[id]/diff/DiffBody";

/**
 * identity_divergence: per client identity, the list Toolwatch saw next to the one that client
 * got (side by side), then the diff between them with the same cards as the snapshot diff page.
 */
export function IdentityDivergenceDetails({ detail }: { detail: AlertDetail }) {
  const variants = detail.details.identity?.variants;
  if (!variants?.length) return null;
  return (
    <section aria-labelledby="identity-heading" className="card" data-testid="identity-divergence">
      <h2 id="identity-heading">What other clients are shown</h2>
      <p>
        Toolwatch listed this server&apos;s tools again while presenting itself as other clients (their <code>clientInfo</code>). The server answered
        differently: it shows a scanner one list and an agent another. Tools only the agent sees bypass every review.
      </p>
      {variants.map((v) => (
        <Variant key={v.identity} serverId={detail.alert.serverId} variant={v} />
      ))}
    </section>
  );
}

function Variant({ serverId, variant: v }: { serverId: string; variant: IdentityVariant }) {
  return (
    <article className="identity-variant" data-testid="identity-variant" data-identity={v.identity}>
      <h3>
        As {v.label} (<code>{v.clientInfo.name}</code> {v.clientInfo.version}) <span className="tag">{v.severity}</span>
      </h3>
      <p className="muted small">
        Probed <RelativeTime iso={v.probedAt} /> · {v.reference.length} tools for Toolwatch, {v.tools.length} for {v.label}
        {v.hiddenFindings.length ? ` · ${v.hiddenFindings.length} scanner finding(s) only in the agent's list` : ""}
      </p>
      <table className="side-by-side" aria-label={`Tool lists: Toolwatch and ${v.label}`}>
        <thead>
          <tr>
            <th scope="col">Toolwatch sees</th>
            <th scope="col">{v.label} sees</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td className="before" data-testid="reference-list">
              <ToolNames tools={v.reference} />
            </td>
            <td className="after" data-testid="variant-list">
              <ToolNames tools={v.tools} />
            </td>
          </tr>
        </tbody>
      </table>
      <DiffBody serverId={serverId} diff={v.diff} />
      <DefinitionDetails definition={v.tools} summary={`Everything ${v.label} was shown (JSON)`} />
    </article>
  );
}

function ToolNames({ tools }: { tools: IdentityVariant["tools"] }) {
  if (tools.length === 0) return <span className="muted small">(no tools)</span>;
  return (
    <ul className="flat-list">
      {tools.map((t, i) => (
        <li key={`${t.name}#${i}`}>
          <code>
            <VisibleText text={t.name} />
          </code>
        </li>
      ))}
    </ul>
  );
}
