"use client";

import { useId, useState } from "react";
import { VisibleText } from "@/app/_components/VisibleText";

/** The tags a server must all carry: chips to remove, a box (suggesting the fleet's tags) to add. */
export function TagFilter({ tags, knownTags, onChange }: { tags: string[]; knownTags: string[]; onChange: (next: string[]) => void }) {
  const id = useId();
  const [draft, setDraft] = useState("");
  const add = () => {
    const tag = draft.trim();
    if (tag && !tags.includes(tag)) onChange([...tags, tag]);
    setDraft("");
  };
  return (
    <div className="filter-field tag-filter">
      <label className="filter-label" htmlFor={`${id}-tag`}>
        Tags (all of)
      </label>
      <div className="tag-filter-row">
        {tags.map((t) => (
          <span key={t} className="chip on" data-testid="tag-filter-chip">
            <VisibleText text={t} />
            <button type="button" className="chip-remove" aria-label={`Remove tag filter ${t}`} onClick={() => onChange(tags.filter((x) => x !== t))}>
              ×
            </button>
          </span>
        ))}
        <input
          id={`${id}-tag`}
          list={`${id}-known`}
          value={draft}
          placeholder={tags.length ? "and…" : "e.g. prod"}
          maxLength={100}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              add();
            }
          }}
          onBlur={() => draft.trim() && add()}
        />
        <datalist id={`${id}-known`}>
          {knownTags
            .filter((t) => !tags.includes(t))
            .map((t) => (
              <option key={t} value={t} />
            ))}
        </datalist>
      </div>
    </div>
  );
}
