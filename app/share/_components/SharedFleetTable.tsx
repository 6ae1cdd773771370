"use client";

import { Fragment, useState } from "react";
import type { SharedViewDto } from "@/lib/views/view-dto";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { StatusBadge } from "@/app/_components/StatusBadge";
import { VisibleText } from "@/app/_components/VisibleText";
import { SharedToolList } from "./SharedToolList";

const TRANSPORT: Record<string, string> = { stdio: "stdio", streamable_http: "Streamable HTTP", sse: "HTTP+SSE" };
const COLUMNS = 7;

type SharedServer = SharedViewDto["servers"][number];

/** The view's servers, read-only: no links into the team's pages, no actions; tools expand in place. */
export function SharedFleetTable({ servers }: { servers: SharedServer[] }) {
  // By server id, so a live refetch (new order, new tools) keeps what the reader opened.
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  if (servers.length === 0) {
    return (
      <p className="empty" data-testid="shared-empty">
        No server matches this view right now.
      </p>
    );
  }
  return (
    <table className="fleet shared-fleet">
      <thead>
        <tr>
          <th scope="col">Server</th>
          <th scope="col">Status</th>
          <th scope="col">Transport</th>
          <th scope="col">Protocol</th>
          <th scope="col" className="num">
            Tools
          </th>
          <th scope="col">Last change</th>
          <th scope="col">
            <span className="visually-hidden">Tool list</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {servers.map((s) => {
          const expanded = open.has(s.id);
          const panelId = `shared-tools-${s.id}`;
          return (
            <Fragment key={s.id}>
              <tr data-testid="shared-server" data-server-name={s.name}>
                <th scope="row">
                  <VisibleText text={s.name} />
                  <div className="tags">
                    {s.tags.map((t) => (
                      <span key={t} className="tag">
                        <VisibleText text={t} />
                      </span>
                    ))}
                  </div>
                </th>
                <td>
                  <StatusBadge status={s.status} />
                </td>
                <td>{TRANSPORT[s.transport] ?? s.transport}</td>
                <td>{s.protocolVersion ?? <span className="muted">—</span>}</td>
                <td className="num" data-testid="tool-count">
                  {s.toolCount ?? <span className="muted">—</span>}
                </td>
                <td>
                  <RelativeTime iso={s.lastChangeAt} />
                </td>
                <td className="actions-col">
                  <button type="button" className="button small secondary" aria-expanded={expanded} aria-controls={panelId} onClick={() => toggle(s.id)} data-testid="tools-toggle">
                    {expanded ? "Hide tools" : `Show ${s.tools.length} tool${s.tools.length === 1 ? "" : "s"}`}
                  </button>
                </td>
              </tr>
              {expanded ? (
                <tr className="tools-row">
                  <td colSpan={COLUMNS} id={panelId}>
                    <SharedToolList tools={s.tools} />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}
