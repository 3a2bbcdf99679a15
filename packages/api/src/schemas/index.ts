/**
 * `@peloton/api/schemas`: the zod schemas the API validates with, for the
 * console's forms and the CLI. Imports nothing but zod, so it is safe in a
 * browser bundle.
 */
export * from "./audit.ts";
export * from "./identity.ts";
export * from "./jobs.ts";
export * from "./limits.ts";
export * from "./pools.ts";
export * from "./preemptions.ts";
export * from "./tasks.ts";
export * from "./updates.ts";
export * from "./vocabulary.ts";
export * from "./volumes.ts";
