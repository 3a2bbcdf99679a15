/**
 * Pure builders of scheduler calls: exactly the JSON the master expects, no
 * I/O. Only fields the caller set are written, so a call compares equal to
 * the reference JSON in shared/design/mesos-fixtures.
 */
import type {
  AcknowledgeOperationStatusBody,
  CallOf,
  ReconcileOperationsBody,
} from "../proto/calls.ts";
import type {
  ExecutorInfo,
  Filters,
  FrameworkInfo,
  Id,
  KillPolicy,
  Request,
  TaskInfo,
  TaskStatus,
} from "../proto/messages.ts";
import type { OfferOperation } from "../proto/operations.ts";

/** Ids may be given as plain strings or as `{value}` messages. */
export type IdLike = string | Id;

export function toId(id: IdLike): Id {
  return typeof id === "string" ? { value: id } : { value: id.value };
}

function fw(frameworkId: IdLike): { framework_id: Id } {
  return { framework_id: toId(frameworkId) };
}

export function subscribeCall(
  frameworkInfo: FrameworkInfo,
  frameworkId?: IdLike,
  suppressedRoles?: readonly string[],
): CallOf<"SUBSCRIBE"> {
  const { id: _ignored, ...info } = frameworkInfo;
  const framework_info: FrameworkInfo =
    frameworkId !== undefined ? { id: toId(frameworkId), ...info } : info;
  return {
    type: "SUBSCRIBE",
    ...(frameworkId !== undefined ? fw(frameworkId) : {}),
    subscribe: {
      framework_info,
      ...(suppressedRoles !== undefined ? { suppressed_roles: [...suppressedRoles] } : {}),
    },
  };
}

export function teardownCall(frameworkId: IdLike): CallOf<"TEARDOWN"> {
  return { type: "TEARDOWN", ...fw(frameworkId) };
}

export function acceptCall(
  frameworkId: IdLike,
  offerIds: readonly IdLike[],
  operations: readonly OfferOperation[],
  filters?: Filters,
): CallOf<"ACCEPT"> {
  return {
    type: "ACCEPT",
    ...fw(frameworkId),
    accept: {
      offer_ids: offerIds.map(toId),
      operations: [...operations],
      ...(filters !== undefined ? { filters } : {}),
    },
  };
}

export function launchOperation(tasks: readonly TaskInfo[]): OfferOperation {
  return { type: "LAUNCH", launch: { task_infos: [...tasks] } };
}

export function launchGroupOperation(
  executor: ExecutorInfo,
  tasks: readonly TaskInfo[],
): OfferOperation {
  return { type: "LAUNCH_GROUP", launch_group: { executor, task_group: { tasks: [...tasks] } } };
}

export function declineCall(
  frameworkId: IdLike,
  offerIds: readonly IdLike[],
  filters?: Filters,
): CallOf<"DECLINE"> {
  return {
    type: "DECLINE",
    ...fw(frameworkId),
    decline: { offer_ids: offerIds.map(toId), ...(filters !== undefined ? { filters } : {}) },
  };
}

export function acceptInverseOffersCall(
  frameworkId: IdLike,
  inverseOfferIds: readonly IdLike[],
  filters?: Filters,
): CallOf<"ACCEPT_INVERSE_OFFERS"> {
  return {
    type: "ACCEPT_INVERSE_OFFERS",
    ...fw(frameworkId),
    accept_inverse_offers: {
      inverse_offer_ids: inverseOfferIds.map(toId),
      ...(filters !== undefined ? { filters } : {}),
    },
  };
}

export function declineInverseOffersCall(
  frameworkId: IdLike,
  inverseOfferIds: readonly IdLike[],
  filters?: Filters,
): CallOf<"DECLINE_INVERSE_OFFERS"> {
  return {
    type: "DECLINE_INVERSE_OFFERS",
    ...fw(frameworkId),
    decline_inverse_offers: {
      inverse_offer_ids: inverseOfferIds.map(toId),
      ...(filters !== undefined ? { filters } : {}),
    },
  };
}

/** Roles are sent as `roles: [...]`; without roles the call applies to every role. */
export function reviveCall(frameworkId: IdLike, roles?: readonly string[]): CallOf<"REVIVE"> {
  return {
    type: "REVIVE",
    ...fw(frameworkId),
    ...(roles !== undefined && roles.length > 0 ? { revive: { roles: [...roles] } } : {}),
  };
}

export function suppressCall(frameworkId: IdLike, roles?: readonly string[]): CallOf<"SUPPRESS"> {
  return {
    type: "SUPPRESS",
    ...fw(frameworkId),
    ...(roles !== undefined && roles.length > 0 ? { suppress: { roles: [...roles] } } : {}),
  };
}

export function killCall(
  frameworkId: IdLike,
  taskId: IdLike,
  agentId?: IdLike,
  killPolicy?: KillPolicy,
): CallOf<"KILL"> {
  return {
    type: "KILL",
    ...fw(frameworkId),
    kill: {
      task_id: toId(taskId),
      ...(agentId !== undefined ? { agent_id: toId(agentId) } : {}),
      ...(killPolicy !== undefined ? { kill_policy: killPolicy } : {}),
    },
  };
}

export function shutdownCall(
  frameworkId: IdLike,
  executorId: IdLike,
  agentId: IdLike,
): CallOf<"SHUTDOWN"> {
  return {
    type: "SHUTDOWN",
    ...fw(frameworkId),
    shutdown: { executor_id: toId(executorId), agent_id: toId(agentId) },
  };
}

/** Answers an UPDATE. Only statuses with a uuid are acknowledged (see `needsAcknowledgement`). */
export function acknowledgeCall(frameworkId: IdLike, status: TaskStatus): CallOf<"ACKNOWLEDGE"> {
  if (status.uuid === undefined || status.agent_id === undefined) {
    throw new TypeError(
      `status of task ${status.task_id.value} carries no uuid/agent_id to acknowledge`,
    );
  }
  return {
    type: "ACKNOWLEDGE",
    ...fw(frameworkId),
    acknowledge: {
      agent_id: toId(status.agent_id),
      task_id: toId(status.task_id),
      uuid: status.uuid,
    },
  };
}

/** Master-generated updates (reconciliation, invalid offers) have no uuid and must not be acked. */
export function needsAcknowledgement(status: TaskStatus): boolean {
  return status.uuid !== undefined && status.agent_id !== undefined;
}

export function acknowledgeOperationStatusCall(
  frameworkId: IdLike,
  body: AcknowledgeOperationStatusBody,
): CallOf<"ACKNOWLEDGE_OPERATION_STATUS"> {
  return {
    type: "ACKNOWLEDGE_OPERATION_STATUS",
    ...fw(frameworkId),
    acknowledge_operation_status: body,
  };
}

/** An empty task list is implicit reconciliation and is sent as `reconcile: {}`. */
export function reconcileCall(
  frameworkId: IdLike,
  tasks: ReadonlyArray<{ taskId: IdLike; agentId?: IdLike }> = [],
): CallOf<"RECONCILE"> {
  return {
    type: "RECONCILE",
    ...fw(frameworkId),
    reconcile:
      tasks.length === 0
        ? {}
        : {
            tasks: tasks.map((t) => ({
              task_id: toId(t.taskId),
              ...(t.agentId !== undefined ? { agent_id: toId(t.agentId) } : {}),
            })),
          },
  };
}

export function reconcileOperationsCall(
  frameworkId: IdLike,
  body: ReconcileOperationsBody = {},
): CallOf<"RECONCILE_OPERATIONS"> {
  return { type: "RECONCILE_OPERATIONS", ...fw(frameworkId), reconcile_operations: body };
}

/** `data` is raw bytes on the wire: strings are sent as their UTF-8 bytes, base64-encoded. */
export function messageCall(
  frameworkId: IdLike,
  agentId: IdLike,
  executorId: IdLike,
  data: Uint8Array | string,
): CallOf<"MESSAGE"> {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : Buffer.from(data);
  return {
    type: "MESSAGE",
    ...fw(frameworkId),
    message: {
      agent_id: toId(agentId),
      executor_id: toId(executorId),
      data: bytes.toString("base64"),
    },
  };
}

export function requestCall(frameworkId: IdLike, requests: readonly Request[]): CallOf<"REQUEST"> {
  return { type: "REQUEST", ...fw(frameworkId), request: { requests: [...requests] } };
}

/** UPDATE_FRAMEWORK requires framework_id to equal framework_info.id; both are set here. */
export function updateFrameworkCall(
  frameworkId: IdLike,
  frameworkInfo: FrameworkInfo,
  suppressedRoles?: readonly string[],
): CallOf<"UPDATE_FRAMEWORK"> {
  const { id: _ignored, ...info } = frameworkInfo;
  return {
    type: "UPDATE_FRAMEWORK",
    ...fw(frameworkId),
    update_framework: {
      framework_info: { id: toId(frameworkId), ...info },
      ...(suppressedRoles !== undefined ? { suppressed_roles: [...suppressedRoles] } : {}),
    },
  };
}
