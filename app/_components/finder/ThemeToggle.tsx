"use client";

import { useEffect, useState } from "react";
import { parseTheme, THEME_COOKIE, THEMES, type Theme } from "@/app/_lib/theme";

const LABELS: Record<Theme, string> = { system: "◐ System", light: "☀ Light", dark: "☾ Dark" };
const ONE_YEAR_S = 365 * 24 * 3600;

function apply(theme: Theme): void {
  const root = document.documentElement;
  if (theme === "system") delete root.dataset.theme;
  else root.dataset.theme = theme;
  document.cookie = `${THEME_COOKIE}=${theme}; path=/; max-age=${ONE_YEAR_S}; samesite=lax`;
  try {
    localStorage.setItem(THEME_COOKIE, theme);
  } catch {
    // storage may be disabled; the cookie is what the server reads
  }
}

/** System / Light / Dark, remembered in a cookie the server reads when rendering <html>. */
export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>("system");
  useEffect(() => setTheme(parseTheme(document.documentElement.dataset.theme)), []);
  return (
    <label className="theme-toggle">
      <span className="visually-hidden">Theme</span>
      <select
        value={theme}
        data-testid="theme-toggle"
        onChange={(e) => {
          const next = parseTheme(e.target.value);
          setTheme(next);
          apply(next);
        }}
      >
        {THEMES.map((t) => (
          <option key={t} value={t}>
            {LABELS[t]}
          </option>
        ))}
      </select>
    </label>
  );
}
