/**
 * The actions the command palette offers for a search hit: only those the
 * signed-in person may take now — the job's or host's state allows them
 * (the same rules as the page's buttons) and the API's policy (`decide`)
 * allows them. The API decides again when the action runs.
 */
import type { AccessRequest, PoolFacts } from "@peloton/api/policy";
import type { SearchHit } from "@/lib/api-types";
import { jobActionBlocks } from "../jobs/action-blocks";

type Target = SearchHit["target"];
export type JobTarget = Extract<Target, { type: "job" }>;
export type HostTarget = Extract<Target, { type: "host" }>;

export type PaletteAction =
  | { id: string; label: string; kind: "job"; verb: "stop" | "start" | "restart"; job: JobTarget }
  | {
      id: string;
      label: string;
      kind: "host";
      verb: "startMaintenance" | "completeMaintenance";
      host: HostTarget;
    }
  | { id: string; label: string; kind: "open"; href: string };

export interface ActionDeps {
  /** The policy's answer for the signed-in person (false while unknown). */
  allowed: (request: AccessRequest) => boolean;
  /** A pool's facts for the policy, null while not loaded. */
  poolFacts: (path: string) => PoolFacts | null;
}

const JOB_VERBS = [
  ["stop", "Stop job"],
  ["start", "Start job"],
  ["restart", "Restart every instance of"],
] as const;

export function paletteActions(target: Target, deps: ActionDeps): PaletteAction[] {
  switch (target.type) {
    case "job": {
      const pool = deps.poolFacts(target.poolPath);
      if (!pool) return [];
      const blocks = jobActionBlocks({
        state: target.state,
        goalState: target.goalState,
        type: target.jobType,
      });
      return JOB_VERBS.filter(
        ([verb]) => !blocks[verb] && deps.allowed({ kind: "job.act", verb, pool }),
      ).map(([verb, words]) => ({
        id: `job-${verb}-${target.id}`,
        label: `${words} ${target.name}`,
        kind: "job",
        verb,
        job: target,
      }));
    }
    case "host": {
      // A LOST host comes back by itself when its agent registers again: nothing to do here.
      if (target.state === "LOST") return [];
      const verb = target.state === "UP" ? "startMaintenance" : "completeMaintenance";
      if (!deps.allowed({ kind: "host.act", verb, hostname: target.hostname })) return [];
      return [
        {
          id: `host-${verb}-${target.hostname}`,
          label:
            verb === "startMaintenance"
              ? `Start maintenance on host ${target.hostname}`
              : `Complete maintenance on host ${target.hostname}`,
          kind: "host",
          verb,
          host: target,
        },
      ];
    }
    case "task":
      return [
        {
          id: `logs-${target.jobId}-${target.instance}`,
          label: `Open the logs of ${target.jobName}/${target.instance}`,
          kind: "open",
          href: `/jobs/${target.jobId}/tasks/${target.instance}#logs`,
        },
      ];
    case "pool":
    case "volume":
      return [];
  }
}
