"use client";
import type { AppRouter } from "@peloton/api";
import { createTRPCContext } from "@trpc/tanstack-react-query";

/** Typed hooks for the console: `const trpc = useTRPC()`. Only the router's type crosses over. */
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();
