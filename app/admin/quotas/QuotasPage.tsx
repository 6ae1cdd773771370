"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { Quota, QuotaSource } from "@/lib/tenants/team-quota";
import { api } from "@/app/_hooks/api";
import { useMeQuery } from "@/app/_hooks/queries";

type TeamQuota = { teamId: string; slug: string; name: string; quota: Quota; source: QuotaSource; usage: { servers: number } };
const FIELDS: { key: keyof Quota; label: string; hint: string }[] = [
  { key: "maxServers", label: "Servers", hint: "most servers the team may register" },
  { key: "minPollSeconds", label: "Min. poll (s)", hint: "shortest poll interval a server may ask for" },
  { key: "listingsPerMinute", label: "Listings / min", hint: "listings the worker starts for the team per minute (0 = no limit)" },
];

/**
 * Instance administrators: every team's limits and usage (GET /api/v1/admin/quotas), editable per
 * team (PATCH /api/v1/admin/teams/{id}/quota). An empty field goes back to the instance default.
 */
export function QuotasPage() {
  const { data: me } = useMeQuery();
  const query = useQuery({ queryKey: ["admin", "quotas"], queryFn: () => api<{ items: TeamQuota[] }>("/api/v1/admin/quotas"), enabled: Boolean(me?.user.instanceAdmin) });
  if (!me) return null;
  if (!me.user.instanceAdmin) return <p role="alert">Team quotas are for instance administrators.</p>;
  return (
    <section aria-labelledby="quotas-heading">
      <h1 id="quotas-heading">Team quotas</h1>
      <p className="summary">
        One instance serves many teams. Each team&apos;s limits default to the instance&apos;s (<code>TOOLWATCH_QUOTA_*</code>); set a
        number to give a team its own, clear it to go back. Registration past the server limit is refused with a 403, a poll interval
        below the minimum with a 400; listings past the rate wait in the worker&apos;s queue, none is dropped.
      </p>
      {query.isPending ? <p aria-busy="true">Loading quotas…</p> : null}
      {query.error ? <p role="alert">Could not load quotas: {query.error.message}</p> : null}
      {query.data ? (
        <table className="fleet quotas">
          <thead>
            <tr>
              <th scope="col">Team</th>
              <th scope="col" className="num">Servers in use</th>
              {FIELDS.map((f) => (
                <th key={f.key} scope="col" title={f.hint}>
                  {f.label}
                </th>
              ))}
              <th scope="col">
                Save
              </th>
            </tr>
          </thead>
          <tbody>
            {query.data.items.map((team) => (
              <QuotaRow key={team.teamId} team={team} />
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

function QuotaRow({ team }: { team: TeamQuota }) {
  const client = useQueryClient();
  const own = (key: keyof Quota) => (team.source[key] === "team" ? String(team.quota[key]) : "");
  const [values, setValues] = useState<Record<keyof Quota, string>>({ maxServers: own("maxServers"), minPollSeconds: own("minPollSeconds"), listingsPerMinute: own("listingsPerMinute") });
  const save = useMutation({
    mutationFn: () =>
      api(`/api/v1/admin/teams/${team.teamId}/quota`, {
        method: "PATCH",
        body: Object.fromEntries(FIELDS.map((f) => [f.key, values[f.key].trim() === "" ? null : Number(values[f.key])])),
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ["admin", "quotas"] }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const formId = `quota-${team.teamId}`;
  const over = team.usage.servers >= team.quota.maxServers;
  return (
    <tr data-testid="quota-row">
      <th scope="row">
        {team.name} <span className="subtle">({team.slug})</span>
      </th>
      <td className="num">
        {team.usage.servers} / {team.quota.maxServers}
        {over ? <span className="warn-text"> (at the limit)</span> : null}
      </td>
      {FIELDS.map((f) => (
        <td key={f.key}>
          <input
            form={formId}
            type="number"
            min={0}
            inputMode="numeric"
            aria-label={`${f.label} for ${team.name}`}
            placeholder={`${team.quota[f.key]} (instance)`}
            value={values[f.key]}
            onChange={(e) => setValues({ ...values, [f.key]: e.target.value })}
          />
        </td>
      ))}
      <td>
        <form id={formId} onSubmit={submit}>
          <button type="submit" disabled={save.isPending}>
            Save
          </button>
          {save.error ? <span role="alert"> {save.error.message}</span> : null}
          {save.isSuccess && !save.isPending ? <span role="status"> saved</span> : null}
        </form>
      </td>
    </tr>
  );
}
