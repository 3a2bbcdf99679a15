/**
 * A scheduler replica in a process of its own, for tests that kill it with
 * SIGKILL: `node --import tsx scheduler-process.ts` with DATABASE_URL,
 * MESOS_MASTER_URL and PELOTON_REPLICA set. Prints "leading <epoch>" once it
 * leads with its hosts recorded.
 */

import { startScheduler } from "../../src/assembly/replica.ts";
import { silentLogger } from "../../src/common/logger.ts";
import { mesosHostAdapter } from "../../src/hostmgr/mesos/mesos-adapter.ts";

const runtime = startScheduler({
  databaseUrl: process.env.DATABASE_URL!,
  adapter: mesosHostAdapter({
    master: process.env.MESOS_MASTER_URL!,
    hostRefreshMs: 500,
    client: { backoff: { initialMs: 20, maxMs: 200 } },
  }),
  log: silentLogger(),
  holder: process.env.PELOTON_REPLICA!,
  election: { retryMs: 100 },
  scheduling: {
    admissionPeriodMs: 200,
    placement: { periodMs: 200 },
    goalState: { periodMs: 500 },
  },
});
await runtime.ready(120_000);
process.stdout.write(`leading ${runtime.epoch}\n`);
process.on("SIGTERM", () => {
  void runtime.stop().then(() => process.exit(0));
});
