import type { Metadata } from "next";
import type { ReactNode } from "react";
import { AppShell } from "./_components/AppShell";
import { Providers } from "./providers";
import "./globals.css";

// Every page is rendered per request: its scripts carry that request's CSP nonce (proxy.ts).
// A page prerendered at build time would have no nonce, and the CSP would block its scripts.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Toolwatch",
  description: "Every tool of every MCP server in your fleet, and every change to them.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>
          <AppShell>{children}</AppShell>
        </Providers>
      </body>
    </html>
  );
}
