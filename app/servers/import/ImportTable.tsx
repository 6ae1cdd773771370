"use client";

import Link from "next/link";
import { TRANSPORT_LABELS } from "@/app/_components/fleet/filter-labels";
import { VisibleText } from "@/app/_components/VisibleText";
import type { ImportAction, ImportResult } from "@/lib/import/types";

// One row per server of the config. Names, targets and reasons come from a pasted file: rendered
// as text (VisibleText shows invisible characters), never as HTML.

const DONE: Record<ImportAction, string> = { create: "created", update: "updated", unchanged: "unchanged", refused: "refused" };
const BADGE: Record<ImportAction, string> = { create: "status-live", update: "status-polling", unchanged: "status-stopped", refused: "status-down" };

export function ImportTable({ result }: { result: ImportResult }) {
  return (
    <table className="data import-table" data-testid="import-table">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Transport</th>
          <th scope="col">Target</th>
          <th scope="col">Action</th>
          <th scope="col">Details</th>
        </tr>
      </thead>
      <tbody>
        {result.items.map((item, i) => (
          <tr key={`${i}-${item.name}`} data-testid="import-row" data-action={item.action}>
            <th scope="row">
              {item.id && !result.dryRun && item.action !== "refused" ? (
                <Link href={`/servers/${item.id}`}>
                  <VisibleText text={item.name} />
                </Link>
              ) : (
                <VisibleText text={item.name} />
              )}
            </th>
            <td className="nowrap">{item.transport ? (TRANSPORT_LABELS[item.transport] ?? item.transport) : "—"}</td>
            <td className="details-cell">{item.target ? <code><VisibleText text={item.target} /></code> : "—"}</td>
            <td>
              <span className={`badge ${BADGE[item.action]}`}>{result.dryRun ? item.action : DONE[item.action]}</span>
            </td>
            <td className="details-cell">
              {item.reason ? <VisibleText text={item.reason} /> : null}
              {item.changes?.length ? <>changes: {item.changes.join(", ")}</> : null}
              {item.notes.length ? (
                <ul className="plain-list small muted">
                  {item.notes.map((note, n) => (
                    <li key={n}>
                      <VisibleText text={note} />
                    </li>
                  ))}
                </ul>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
