import type { Metadata } from "next";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import { AppShell } from "@/components/shell/app-shell";
import { Header } from "@/components/shell/header";
import { SideNav } from "@/components/shell/side-nav";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Peloton", template: "%s · Peloton" },
  description: "Unified resource scheduler console",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // next-themes sets the theme class before hydration; React would warn about it.
    <html lang="en" suppressHydrationWarning>
      <body className="min-h-screen font-sans text-sm antialiased">
        <Providers>
          <a
            href="#main"
            className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-surface focus:px-3 focus:py-2"
          >
            Skip to content
          </a>
          <AppShell header={<Header />} nav={<SideNav />}>
            {children}
          </AppShell>
        </Providers>
      </body>
    </html>
  );
}
