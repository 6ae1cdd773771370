"use client";

export type KeyValueRow = { key: string; value: string; /** Set on the server already: its value is hidden. */ existing: boolean };

type Props = {
  legend: string;
  rows: KeyValueRow[];
  onChange: (rows: KeyValueRow[]) => void;
  keyLabel: string;
  error?: string | undefined;
  hint?: string;
};

/** Names and secret values (env variables, HTTP headers). Stored values are never shown, only that they are set. */
export function KeyValueEditor({ legend, rows, onChange, keyLabel, error, hint }: Props) {
  const update = (i: number, patch: Partial<KeyValueRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className={`kv${error ? " has-error" : ""}`}>
      <legend>{legend}</legend>
      {hint ? <p className="hint-text">{hint}</p> : null}
      {rows.map((row, i) => (
        <div className="kv-row" key={i}>
          <input
            aria-label={`${keyLabel} ${i + 1} name`}
            placeholder={keyLabel}
            value={row.key}
            readOnly={row.existing}
            spellCheck={false}
            onChange={(e) => update(i, { key: e.target.value })}
          />
          <input
            aria-label={`${keyLabel} ${i + 1} value`}
            type="password"
            autoComplete="off"
            placeholder={row.existing ? "•••••• set (leave blank to keep)" : "value"}
            value={row.value}
            onChange={(e) => update(i, { value: e.target.value })}
          />
          <button type="button" className="button small secondary" aria-label={`Remove ${row.key || `${keyLabel} ${i + 1}`}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            Remove
          </button>
        </div>
      ))}
      <button type="button" className="button small secondary" onClick={() => onChange([...rows, { key: "", value: "", existing: false }])}>
        Add {keyLabel.toLowerCase()}
      </button>
      {error ? <p className="field-error">{error}</p> : null}
    </fieldset>
  );
}
