import { auditRouter } from "./routers/audit.ts";
import { hostsRouter } from "./routers/hosts.ts";
import { jobsRouter } from "./routers/jobs.ts";
import { liveRouter } from "./routers/live.ts";
import { meRouter } from "./routers/me.ts";
import { overviewRouter } from "./routers/overview.ts";
import { poolsRouter } from "./routers/pools.ts";
import { preemptionsRouter } from "./routers/preemptions.ts";
import { searchRouter } from "./routers/search.ts";
import { systemRouter } from "./routers/system.ts";
import { tasksRouter } from "./routers/tasks.ts";
import { teamsRouter } from "./routers/teams.ts";
import { tokensRouter } from "./routers/tokens.ts";
import { updatesRouter } from "./routers/updates.ts";
import { usersRouter } from "./routers/users.ts";
import { volumesRouter } from "./routers/volumes.ts";
import { createCallerFactory, router } from "./trpc.ts";

export const appRouter = router({
  system: systemRouter,
  overview: overviewRouter,
  pools: poolsRouter,
  search: searchRouter,
  hosts: hostsRouter,
  jobs: jobsRouter,
  tasks: tasksRouter,
  updates: updatesRouter,
  volumes: volumesRouter,
  preemptions: preemptionsRouter,
  audit: auditRouter,
  live: liveRouter,
  me: meRouter,
  tokens: tokensRouter,
  users: usersRouter,
  teams: teamsRouter,
});

export type AppRouter = typeof appRouter;

/** Calls procedures directly (no HTTP): API tests and server components. */
export const createCaller = createCallerFactory(appRouter);
