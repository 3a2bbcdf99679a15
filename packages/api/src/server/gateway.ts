import { readEnvironment } from "@peloton/engine/environment";
import { type SchedulerServices, schedulerServices } from "@peloton/scheduler";
import {
  ChangeListener,
  createDb,
  createGateway,
  type Db,
  type ReadOnlyGateway,
  readOnlyView,
  type StorageGateway,
} from "@peloton/storage";
import { serverLog } from "./log.ts";

/**
 * One storage gateway and one change listener per server process. Kept on
 * globalThis so that module re-evaluation (Next's dev server) does not open a
 * new pool or LISTEN connection each time. Resolvers get the gateway's
 * read-only view; the scheduler's services write through the gateway itself.
 */
const holder = globalThis as unknown as {
  __pelotonDb?: Db;
  __pelotonGateway?: StorageGateway;
  __pelotonChanges?: ChangeListener;
  __pelotonServices?: SchedulerServices;
  __pelotonReads?: ReadOnlyGateway;
};

function databaseUrl(): string {
  const url = readEnvironment(process.env, ["DATABASE_URL"]).DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start the console with `npm start`");
  return url;
}

/**
 * The process's Prisma client: under the gateway, and what better-auth and
 * the request's actor lookup use (auth/), sharing one connection pool.
 */
export function processDb(): Db {
  holder.__pelotonDb ??= createDb(databaseUrl());
  return holder.__pelotonDb;
}

/** The whole gateway: for the scheduler's services and for closing; resolvers never see it. */
export function processGateway(): StorageGateway {
  holder.__pelotonGateway ??= createGateway(processDb());
  return holder.__pelotonGateway;
}

/** The process's gateway, reads only (what resolvers see as `ctx.gateway`). */
export function processReads(): ReadOnlyGateway {
  holder.__pelotonReads ??= readOnlyView(processGateway());
  return holder.__pelotonReads;
}

/** The scheduler's services on the process's gateway: the API's only way to write. */
export function processServices(): SchedulerServices {
  holder.__pelotonServices ??= schedulerServices(processGateway());
  return holder.__pelotonServices;
}

export function processChanges(): ChangeListener {
  holder.__pelotonChanges ??= new ChangeListener(databaseUrl(), {
    onError: (err) => serverLog().warn({ err }, "live updates: connection lost (reconnecting)"),
  });
  return holder.__pelotonChanges;
}
