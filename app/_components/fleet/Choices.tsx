"use client";

import { useEffect, useRef, type ReactNode } from "react";

// Multi-choice controls of the filter bar: real checkboxes (keyboard and screen readers work as
// usual), styled as chips or packed into a dropdown when there are many choices.

type Option<T extends string> = { value: T; label: ReactNode; disabled?: boolean };

function toggle<T extends string>(selected: readonly T[], value: T, on: boolean, order: readonly T[]): T[] {
  const next = on ? [...selected, value] : selected.filter((v) => v !== value);
  return order.filter((v) => next.includes(v));
}

/** Chips for a handful of choices; none checked = no filter. */
export function ChipChoices<T extends string>({ legend, options, selected, onChange }: { legend: string; options: Option<T>[]; selected: readonly T[]; onChange: (next: T[]) => void }) {
  const order = options.map((o) => o.value);
  return (
    <fieldset className="chip-choices">
      <legend className="filter-label">{legend}</legend>
      <div className="chip-row">
        {options.map((o) => {
          const on = selected.includes(o.value);
          return (
            <label key={o.value} className={`chip${on ? " on" : ""}`}>
              <input type="checkbox" checked={on} disabled={o.disabled} onChange={(e) => onChange(toggle(selected, o.value, e.target.checked, order))} />
              {o.label}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/** A dropdown of checkboxes for longer lists (alert kinds, columns); the summary says what is picked. */
export function DropdownChoices<T extends string>({
  label,
  summary,
  options,
  selected,
  onChange,
  footer,
}: {
  label: string;
  summary: string;
  options: Option<T>[];
  selected: readonly T[];
  onChange: (next: T[]) => void;
  footer?: ReactNode;
}) {
  const order = options.map((o) => o.value);
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    // A <details> stays open until its summary is clicked again; a dropdown closes on any click or Escape elsewhere.
    const close = (e: Event) => {
      const details = ref.current;
      if (!details?.open) return;
      if (e instanceof KeyboardEvent ? e.key === "Escape" : !details.contains(e.target as Node)) details.open = false;
    };
    document.addEventListener("pointerdown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("pointerdown", close);
      document.removeEventListener("keydown", close);
    };
  }, []);
  return (
    <div className="filter-field">
      <span className="filter-label">{label}</span>
      <details className="dropdown" ref={ref}>
        <summary aria-label={`${label}: ${summary}`}>{summary}</summary>
        <fieldset className="dropdown-panel">
          <legend className="visually-hidden">{label}</legend>
          {options.map((o) => (
            <label key={o.value} className="dropdown-option">
              <input type="checkbox" checked={selected.includes(o.value)} disabled={o.disabled} onChange={(e) => onChange(toggle(selected, o.value, e.target.checked, order))} />
              {o.label}
            </label>
          ))}
          {footer}
        </fieldset>
      </details>
    </div>
  );
}
