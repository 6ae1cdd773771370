import type { Metadata } from "next";
import type { ReactNode } from "react";
import { AppShell } from "./_components/AppShell";
import { Providers } from "./providers";
import "./globals.css";

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
