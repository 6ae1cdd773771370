import Link from "next/link";
import type { CostlyServer } from "@/lib/context-tokens/costliest-servers";
import { CONTEXT_TOKENS_LABEL, formatTokens } from "@/lib/context-tokens/encoding";

/** The servers whose latest tool lists cost most, largest first. Server names are untrusted: rendered as text only. */
export function CostliestServersTable({ servers, total }: { servers: CostlyServer[]; total: number }) {
  return (
    <table className="data" aria-label="Servers that cost most" data-testid="costliest-servers">
      <thead>
        <tr>
          <th scope="col">Server</th>
          <th scope="col" className="num">
            Tokens <span className="visually-hidden">({CONTEXT_TOKENS_LABEL})</span>
          </th>
          <th scope="col" className="num">
            Share of total
          </th>
          <th scope="col" className="num">
            Tools
          </th>
          <th scope="col" className="num">
            Tokens per tool
          </th>
        </tr>
      </thead>
      <tbody>
        {servers.map((s) => (
          <tr key={s.serverId}>
            <th scope="row">
              <Link href={`/servers/${encodeURIComponent(s.serverId)}`}>{s.serverName}</Link>
            </th>
            <td className="num">{formatTokens(s.contextTokens)}</td>
            <td className="num">{total > 0 ? `${Math.round((s.contextTokens / total) * 1000) / 10}%` : "—"}</td>
            <td className="num">{s.toolCount.toLocaleString("en-US")}</td>
            <td className="num">{formatTokens(s.tokensPerTool)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
