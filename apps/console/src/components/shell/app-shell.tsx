"use client";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { LiveProvider } from "@/lib/live";
import { isPublicPage } from "./public-pages";

/**
 * The console's frame (header, navigation, live updates) around every page
 * but the sign-in page: before signing in there is nothing to navigate to,
 * and no live stream the server would answer.
 */
export function AppShell({
  header,
  nav,
  children,
}: {
  header: ReactNode;
  nav: ReactNode;
  children: ReactNode;
}) {
  const pathname = usePathname();
  if (isPublicPage(pathname)) {
    return (
      <main id="main" className="flex min-h-screen items-start justify-center px-4 pt-[12vh]">
        {children}
      </main>
    );
  }
  return (
    <LiveProvider>
      {header}
      <div className="flex">
        {nav}
        <main id="main" className="min-w-0 flex-1 px-6 py-5">
          {children}
        </main>
      </div>
    </LiveProvider>
  );
}
