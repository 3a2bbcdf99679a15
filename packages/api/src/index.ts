export type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
export { type Actor, type ChangeFeed, type Context, defaultActor } from "./context.ts";
export { type ApiIssue, issuesOf } from "./issues.ts";
export { type AppRouter, appRouter, createCaller } from "./root.ts";
export type { LiveFeedState, LiveMessage } from "./routers/live.ts";
