"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { MAX_SEARCH_QUERY, type SearchResult } from "@/lib/search/search-dto";
import { useSearchQuery } from "@/app/_hooks/finder-queries";
import { alertHref, serverHref, toolHref } from "@/app/_lib/links";
import { kindLabel } from "@/app/_components/alerts/labels";
import { VisibleText } from "@/app/_components/VisibleText";

type Option = { id: string; href: string; group: "Servers" | "Tools" | "Alerts"; label: string; detail: string | null };

function toOptions(result: SearchResult | undefined): Option[] {
  if (!result) return [];
  return [
    ...result.servers.map((s): Option => ({ id: `server-${s.id}`, href: serverHref(s.id), group: "Servers", label: s.name, detail: s.status })),
    ...result.tools.map((t): Option => ({ id: `tool-${t.serverId}-${t.name}`, href: toolHref(t.serverId, t.name), group: "Tools", label: t.name, detail: `${t.serverName}${t.description ? ` — ${t.description}` : ""}` })),
    ...result.alerts.map((a): Option => ({ id: `alert-${a.id}`, href: alertHref(a.id), group: "Alerts", label: a.title, detail: `${kindLabel(a.kind)} · ${a.severity} · ${a.status} · ${a.serverName}` })),
  ];
}

/** ⌘K / Ctrl-K from anywhere in the signed-in app, or the Search button in the top bar. */
export function useCommandPaletteShortcut(open: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.metaKey || e.ctrlKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "k") {
        e.preventDefault();
        open();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);
}

/**
 * A modal <dialog> (showModal: the page behind is inert, so focus stays inside, and Esc closes it)
 * holding a combobox input and a listbox of results. Arrows move the active option, Enter opens it.
 * Results are untrusted server text: rendered as text.
 */
export function CommandPalette({ open, onClose }: { open: boolean; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const [text, setText] = useState("");
  const [debounced, setDebounced] = useState("");
  const [active, setActive] = useState(0);
  const router = useRouter();
  const listId = useId();
  const hintId = useId();

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (open && !el.open) {
      returnFocus.current = document.activeElement as HTMLElement | null;
      el.showModal();
      input.current?.focus();
      input.current?.select();
    } else if (!open && el.open) {
      el.close();
    }
  }, [open]);

  useEffect(() => {
    const t = setTimeout(() => setDebounced(text), 150);
    return () => clearTimeout(t);
  }, [text]);

  const { data, isFetching, error } = useSearchQuery(debounced);
  const options = useMemo(() => (debounced.trim() ? toOptions(data) : []), [data, debounced]);
  const current = options.length ? options[Math.min(active, options.length - 1)] : undefined;
  useEffect(() => setActive(0), [data]);

  const close = useCallback(() => {
    onClose();
    returnFocus.current?.focus?.();
  }, [onClose]);

  const go = (option: Option | undefined) => {
    if (!option) return;
    close();
    setText("");
    setDebounced("");
    router.push(option.href);
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (!options.length) return;
      const step = e.key === "ArrowDown" ? 1 : -1;
      setActive((i) => (Math.min(i, options.length - 1) + step + options.length) % options.length);
    } else if (e.key === "Home" && options.length) {
      setActive(0);
    } else if (e.key === "End" && options.length) {
      setActive(options.length - 1);
    } else if (e.key === "Enter") {
      e.preventDefault();
      go(current);
    }
  };

  useEffect(() => {
    if (current) document.getElementById(current.id)?.scrollIntoView({ block: "nearest" });
  }, [current]);

  const tooLong = text.trim().length > MAX_SEARCH_QUERY;
  const groups = (["Servers", "Tools", "Alerts"] as const).map((g) => [g, options.filter((o) => o.group === g)] as const).filter(([, list]) => list.length > 0);
  const status = !debounced.trim()
    ? "Type to search servers, tools and alerts."
    : tooLong
      ? `At most ${MAX_SEARCH_QUERY} characters.`
      : error
        ? `Search failed: ${error.message}`
        : data && !isFetching && options.length === 0
          ? `Nothing matches “${debounced.trim()}”.`
          : `${options.length} results`;

  return (
    <dialog
      ref={dialog}
      className="palette"
      aria-label="Search"
      data-testid="command-palette"
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      onClick={(e) => {
        // A click on the backdrop (the dialog element itself, outside its panel) closes it.
        if (e.target === dialog.current) close();
      }}
    >
      <div className="palette-panel">
        <input
          ref={input}
          type="text"
          role="combobox"
          aria-label="Search servers, tools and alerts"
          aria-expanded={options.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={current?.id}
          aria-describedby={hintId}
          placeholder="Search servers, tools and alerts…"
          autoComplete="off"
          spellCheck={false}
          value={text}
          maxLength={MAX_SEARCH_QUERY + 20}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <div id={listId} role="listbox" aria-label="Results" className="palette-results">
          {groups.map(([group, list]) => (
            <div role="group" aria-label={group} key={group}>
              <div className="palette-group" aria-hidden="true">
                {group}
              </div>
              {list.map((o) => (
                <div
                  key={o.id}
                  id={o.id}
                  role="option"
                  aria-selected={o === current}
                  className="palette-option"
                  data-testid="palette-option"
                  onMouseMove={() => setActive(options.indexOf(o))}
                  onClick={() => go(o)}
                >
                  <span className="palette-label">
                    <VisibleText text={o.label} />
                  </span>
                  {o.detail ? <span className="palette-detail">{o.detail}</span> : null}
                </div>
              ))}
            </div>
          ))}
        </div>
        <p id={hintId} className="palette-hint" role="status" aria-live="polite">
          {status} <span className="muted">↑↓ to move · Enter to open · Esc to close</span>
        </p>
      </div>
    </dialog>
  );
}
