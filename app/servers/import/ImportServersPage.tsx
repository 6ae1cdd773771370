"use client";

import Link from "next/link";
import { useMemo, useState, type ChangeEvent, type FormEvent } from "react";
import { Field } from "@/app/_components/Field";
import { useImportMutation, type ImportRequest } from "@/app/_hooks/import-queries";
import { useCan, useMeQuery } from "@/app/_hooks/queries";
import { describeConfigText } from "@/lib/import/detect-format";
import { CONFIG_FORMATS, FORMAT_LABELS, type ConfigFormat } from "@/lib/import/types";
import { ImportTable } from "./ImportTable";
import { FLEET_PATH } from "@/app/_lib/links";

// Add servers from a config file people already have: pasted, or read in the browser from a file
// (File.text(); nothing leaves the browser before "Preview"). The preview is the API's dry run;
// "Import" sends the very text that was previewed.

const MAX_FILE_BYTES = 1_000_000;

export function ImportServersPage() {
  const can = useCan();
  const me = useMeQuery();
  return (
    <section className="narrow" aria-labelledby="import-heading">
      <p>
        <Link href={FLEET_PATH}>← Fleet</Link> · <Link href="/servers/new">Add one server by hand</Link>
      </p>
      <h1 id="import-heading">Import servers from a config</h1>
      {me.isPending ? (
        <p aria-busy="true">Loading…</p>
      ) : can("server:write") ? (
        <ImportForm />
      ) : (
        <p role="alert">Your role may not add servers. Ask a team admin.</p>
      )}
    </section>
  );
}

function ImportForm() {
  const [text, setText] = useState("");
  const [format, setFormat] = useState<ConfigFormat | "">("");
  const [fileError, setFileError] = useState<string | null>(null);
  const [previewed, setPreviewed] = useState<ImportRequest | null>(null);
  const preview = useImportMutation();
  const apply = useImportMutation();
  const detected = useMemo(() => (text.trim() ? describeConfigText(text) : null), [text]);

  const edit = (next: string) => {
    setText(next);
    setPreviewed(null);
    preview.reset();
    apply.reset();
  };
  const pickFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setFileError(null);
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) return setFileError(`${file.name} is larger than 1 MB: that is not an MCP config.`);
    edit(await file.text());
  };
  const submitPreview = (event: FormEvent) => {
    event.preventDefault();
    const request: ImportRequest = { config: text, ...(format ? { format } : {}), dryRun: true };
    apply.reset();
    preview.mutate(request, { onSuccess: () => setPreviewed(request) });
  };
  const plan = previewed ? preview.data : undefined;
  const toImport = plan ? plan.summary.create + plan.summary.update : 0;

  return (
    <>
      <p className="muted">
        Paste or upload the MCP config of Claude Desktop, Claude Code (<code>.mcp.json</code>), Cursor, VS Code (<code>mcp.json</code> or settings), Windsurf or Zed, or a{" "}
        <code>toolwatch export</code> file. Servers are matched by name: existing ones are updated when they differ, never duplicated. Header and env values are stored encrypted
        and never shown again; <code>{"${env:NAME}"}</code> and <code>{"${input:id}"}</code> references are kept as written.
      </p>
      <form className="card form" onSubmit={submitPreview} aria-label="Config to import">
        <Field label="Upload a config file" error={fileError ?? undefined} hint="Read in your browser; nothing is sent before the preview.">
          {({ id, describedBy }) => <input id={id} type="file" accept=".json,.jsonc,application/json,text/plain" aria-describedby={describedBy} onChange={(e) => void pickFile(e)} />}
        </Field>
        <Field label="Config (JSON)" hint="Comments and trailing commas are fine.">
          {({ id, describedBy }) => (
            <textarea id={id} rows={14} value={text} spellCheck={false} onChange={(e) => edit(e.target.value)} aria-describedby={describedBy} placeholder={'{\n  "mcpServers": {\n    "docs": { "url": "https://example.com/mcp" }\n  }\n}'} />
          )}
        </Field>
        <p className="small" data-testid="detected-format" aria-live="polite">
          {detected === null ? (
            <span className="muted">Paste a config or choose a file.</span>
          ) : "error" in detected ? (
            <span className="warn-text">Not readable yet: {detected.error}</span>
          ) : (
            <>
              Detected: <strong>{FORMAT_LABELS[detected.format]}</strong>, {detected.servers} server{detected.servers === 1 ? "" : "s"}
            </>
          )}
        </p>
        <Field label="Format">
          {({ id }) => (
            <select id={id} value={format} onChange={(e) => (setFormat(e.target.value as ConfigFormat | ""), setPreviewed(null), preview.reset())}>
              <option value="">Detect automatically</option>
              {CONFIG_FORMATS.map((f) => (
                <option key={f} value={f}>
                  {FORMAT_LABELS[f]}
                </option>
              ))}
            </select>
          )}
        </Field>
        {preview.error ? (
          <p className="form-error" role="alert">
            {preview.error.message}
          </p>
        ) : null}
        <div className="actions">
          <button type="submit" className="button" disabled={!text.trim() || preview.isPending}>
            {preview.isPending ? "Checking…" : "Preview"}
          </button>
        </div>
      </form>

      {apply.data ? (
        <section aria-labelledby="import-result-heading" data-testid="import-result">
          <h2 id="import-result-heading">Imported</h2>
          <p role="status">
            {apply.data.summary.create} created · {apply.data.summary.update} updated · {apply.data.summary.unchanged} unchanged · {apply.data.summary.refused} refused.{" "}
            <Link href={FLEET_PATH}>Go to the fleet</Link>
          </p>
          <ImportTable result={apply.data} />
        </section>
      ) : plan && previewed ? (
        <section aria-labelledby="import-preview-heading" data-testid="import-preview">
          <h2 id="import-preview-heading">Preview: {FORMAT_LABELS[plan.format]}</h2>
          <p className="summary">
            {plan.summary.create} to create · {plan.summary.update} to update · {plan.summary.unchanged} unchanged · {plan.summary.refused} refused
          </p>
          <ImportTable result={plan} />
          {apply.error ? (
            <p className="form-error" role="alert">
              {apply.error.message}
            </p>
          ) : null}
          <div className="actions import-actions">
            {toImport > 0 ? (
              <button type="button" className="button" disabled={apply.isPending} onClick={() => apply.mutate({ ...previewed, dryRun: false })}>
                {apply.isPending ? "Importing…" : `Import ${toImport} server${toImport === 1 ? "" : "s"}`}
              </button>
            ) : (
              <p className="muted">Nothing to import: every server is already here as written, or refused.</p>
            )}
          </div>
        </section>
      ) : null}
    </>
  );
}
