// The colour theme a person picked: "system" follows prefers-color-scheme (no attribute on <html>);
// "light" and "dark" set data-theme, which app/globals.css turns into color-scheme. Kept in a
// cookie so the server renders <html data-theme> on the first paint (no flash of the wrong theme).
export const THEME_COOKIE = "toolwatch-theme";
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

export const parseTheme = (value: string | undefined | null): Theme => (value === "light" || value === "dark" ? value : "system");
