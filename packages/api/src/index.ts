export type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
export { type ActorChannel, channelLabel, type PelotonApiProtocol } from "./auth/actor.ts";
export {
  type Access,
  actingOf,
  authorizedProcedure,
  protectedProcedure,
  SIGN_IN_FIRST,
  type SignedInContext,
} from "./auth/authorize.ts";
export { hashPassword, verifyPassword } from "./auth/passwords.ts";
export type { AccessKind, AccessRequest, Decision, PolicyActor, PoolFacts } from "./auth/policy.ts";
export { hashApiToken, newApiToken } from "./auth/tokens.ts";
export type { Actor, ChangeFeed, Context } from "./context.ts";
export { answerFor } from "./errors/answers.ts";
export { type ApiIssue, IssuesError, issuesOf } from "./issues.ts";
export { type AppRouter, appRouter, createCaller } from "./root.ts";
export type { LiveFeedState, LiveMessage } from "./routers/live.ts";
