/**
 * What the API asks of the scheduler, in one object its composition root
 * builds per process: every write, through the component that owns it (jobs
 * and tasks: job manager; pools: resource manager; hosts: host manager), and
 * the one read that needs the cluster's knowledge (runs' logs, through the
 * cluster kind's log reader; the lease and the cluster connection are
 * `schedulerStatus`, status.ts). Each write commits its state change with
 * its audit or event row in one transaction. Any replica may
 * serve them: they work from storage, not from the leader's live connection.
 */
import { readOnlyView, type StorageGateway } from "@peloton/storage";
import type { Acting } from "../common/acting.ts";
import { type ClusterKind, clusterLogs, DEFAULT_CLUSTER_KIND } from "../hostmgr/clusters.ts";
import { actOnHost, type HostAction, type HostActionResult } from "../hostmgr/host-actions.ts";
import type { TaskLogReader } from "../hostmgr/task-logs.ts";
import { createIdentityService, type IdentityService } from "../identity/index.ts";
import { actOnJob, type JobAction, type JobActionResult } from "../jobmgr/actions.ts";
import { type CreateJobResult, createJob, type JobSubmission } from "../jobmgr/create-job.ts";
import { createUpdate, type UpdateRequest } from "../jobmgr/updates/create-update.ts";
import type { UpdateResult } from "../jobmgr/updates/failures.ts";
import { actOnUpdate, type UpdateAction } from "../jobmgr/updates/update-actions.ts";
import {
  diffUpdate,
  type UpdateDiffRequest,
  type UpdateDiffResult,
} from "../jobmgr/updates/update-diff.ts";
import { createRespoolService, type RespoolService } from "../resmgr/respool/service.ts";

export interface SchedulerServices {
  jobs: {
    create(submission: JobSubmission): Promise<CreateJobResult>;
    act(
      jobId: string,
      action: JobAction,
      acting: Acting,
      expectedVersion?: number,
    ): Promise<JobActionResult>;
  };
  /** Updates (Peloton's update workflow): start one, pause, resume, abort, roll back. */
  updates: {
    create(request: UpdateRequest): Promise<UpdateResult>;
    /** What `create` with this config would do to each instance; nothing is written. */
    diff(request: UpdateDiffRequest): Promise<UpdateDiffResult>;
    act(updateId: string, action: UpdateAction, acting: Acting): Promise<UpdateResult>;
  };
  pools: RespoolService;
  hosts: {
    act(
      hostname: string,
      action: HostAction,
      acting: Acting,
      reason?: string,
    ): Promise<HostActionResult>;
  };
  /** Runs' logs, from any replica. */
  logs: TaskLogReader;
  /** People, teams, memberships and personal tokens (identity/service.ts). */
  identity: IdentityService;
  audit: {
    /** Records an attempt the policy refused (nothing else changes). */
    refused(attempt: RefusedAttempt): Promise<void>;
  };
}

/** Who tried what, and the policy's sentence for refusing it. */
export interface RefusedAttempt {
  actor: string;
  via: string;
  action: string;
  targetType: string;
  targetId: string;
  reason: string;
  requestId?: string;
}

export interface SchedulerServicesOptions {
  /** The cluster the system runs on (its log reader, its stored connection). Default Mesos. */
  cluster?: ClusterKind;
}

export function schedulerServices(
  gateway: StorageGateway,
  opts: SchedulerServicesOptions = {},
): SchedulerServices {
  const cluster = opts.cluster ?? DEFAULT_CLUSTER_KIND;
  return {
    jobs: {
      create: (submission) => createJob(gateway, submission),
      act: (jobId, action, acting, expectedVersion) =>
        actOnJob(gateway, jobId, action, acting, expectedVersion),
    },
    updates: {
      create: (request) => createUpdate(gateway, request),
      diff: (request) => diffUpdate(gateway, request),
      act: (updateId, action, acting) => actOnUpdate(gateway, updateId, action, acting),
    },
    pools: createRespoolService(gateway),
    hosts: {
      act: (hostname, action, acting, reason) =>
        actOnHost(gateway, hostname, action, acting, reason),
    },
    logs: clusterLogs(readOnlyView(gateway), cluster),
    identity: createIdentityService(gateway),
    audit: {
      refused: ({ reason, ...attempt }) => gateway.audit.record({ ...attempt, refusal: reason }),
    },
  };
}
