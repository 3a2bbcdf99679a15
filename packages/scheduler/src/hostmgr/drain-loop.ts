/**
 * Finishes host drains: a DRAINING host on which no task holds resources any
 * more becomes DRAINED. Runs on the leader, on a period.
 */
import type { StorageGateway } from "@peloton/storage";
import type { Logger } from "../common/logger.ts";
import { PeriodicLoop } from "../common/loop.ts";

export function drainLoop(gateway: StorageGateway, log: Logger, periodMs = 5_000): PeriodicLoop {
  return new PeriodicLoop({
    name: "host-drains",
    periodMs,
    log,
    tick: async () => {
      const drained = await gateway.hosts.completeDrains();
      if (drained.length > 0) log.info({ hosts: drained }, "hosts drained");
    },
  });
}
