import type { Metadata } from "next";
import { cookies } from "next/headers";
import type { ReactNode } from "react";
import { AppShell } from "./_components/AppShell";
import { parseTheme, THEME_COOKIE } from "./_lib/theme";
import { Providers } from "./providers";
import "./globals.css";

// Every page is rendered per request: its scripts carry that request's CSP nonce (proxy.ts).
// A page prerendered at build time would have no nonce, and the CSP would block its scripts.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Toolwatch",
  description: "Every tool of every MCP server in your fleet, and every change to them.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The chosen theme is on <html> in the first byte of HTML, so there is no flash of the other one.
  const theme = parseTheme((await cookies()).get(THEME_COOKIE)?.value);
  return (
    <html lang="en" data-theme={theme === "system" ? undefined : theme}>
      <body>
        <Providers>
          <AppShell>{children}</AppShell>
        </Providers>
      </body>
    </html>
  );
}
