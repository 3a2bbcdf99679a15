"use client";
import type { AppRouter } from "@peloton/api";
import { transformer } from "@peloton/api/transformer";
import { QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { ThemeProvider } from "next-themes";
import { type ReactNode, useEffect, useState } from "react";
import { Toaster } from "sonner";
import { TRPCProvider } from "@/lib/trpc";

/**
 * A read answered 401 "sign in first": the session ended (expired, signed out
 * elsewhere, the person was disabled). Back to the sign-in page, then here.
 */
function signInAgainOn401(error: unknown) {
  const code = (error as { data?: { code?: string } } | null)?.data?.code;
  if (code !== "UNAUTHORIZED" || window.location.pathname.startsWith("/sign-in")) return;
  const here = `${window.location.pathname}${window.location.search}`;
  window.location.assign(`/sign-in?next=${encodeURIComponent(here)}`);
}

function makeQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError: signInAgainOn401 }),
    defaultOptions: {
      queries: {
        // Live updates invalidate what changed; until then data stays fresh.
        staleTime: 30_000,
        retry: 1,
        refetchOnWindowFocus: true,
      },
    },
  });
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  // Marks the page interactive (React has attached its handlers): browser
  // tests wait for it before they click, as a person waits for a page to load.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        // Subscriptions (live updates) over server-sent events, everything else batched.
        splitLink({
          condition: (op) => op.type === "subscription",
          true: httpSubscriptionLink({ url: "/api/trpc", transformer }),
          false: httpBatchLink({ url: "/api/trpc", transformer }),
        }),
      ],
    }),
  );
  return (
    <ThemeProvider attribute="class" defaultTheme="system" enableSystem disableTransitionOnChange>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          {children}
          <Toaster richColors closeButton position="bottom-right" />
        </TRPCProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
