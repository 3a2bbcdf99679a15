/**
 * Scheduler calls (include/mesos/v1/scheduler/scheduler.proto, `Call`).
 * The body field is named after the type in lower case; every call but the
 * first SUBSCRIBE carries the top-level `framework_id`.
 */
import type {
  AgentID,
  ExecutorID,
  Filters,
  FrameworkID,
  FrameworkInfo,
  Id,
  KillPolicy,
  OfferID,
  Request,
  TaskID,
} from "./messages.ts";
import type { OfferOperation } from "./operations.ts";

export interface SubscribeBody {
  framework_info: FrameworkInfo;
  /** Roles that start suppressed (Mesos >= 1.9). */
  suppressed_roles?: string[];
}
export interface AcceptBody {
  offer_ids: OfferID[];
  operations?: OfferOperation[];
  filters?: Filters;
}
export interface DeclineBody {
  offer_ids: OfferID[];
  filters?: Filters;
}
export interface InverseOffersBody {
  inverse_offer_ids: OfferID[];
  filters?: Filters;
}
export interface RolesBody {
  /** Empty or absent = every role of the framework. A singular `role` key is ignored by Mesos. */
  roles?: string[];
}
export interface KillBody {
  task_id: TaskID;
  agent_id?: AgentID;
  kill_policy?: KillPolicy;
}
export interface ShutdownBody {
  executor_id: ExecutorID;
  agent_id: AgentID;
}
export interface AcknowledgeBody {
  agent_id: AgentID;
  task_id: TaskID;
  /** base64, copied from the acknowledged status. */
  uuid: string;
}
export interface AcknowledgeOperationStatusBody {
  agent_id?: AgentID;
  resource_provider_id?: Id;
  /** base64 */
  uuid: string;
  operation_id: Id;
}
export interface ReconcileTask {
  task_id: TaskID;
  agent_id?: AgentID;
}
export interface ReconcileBody {
  /** Empty or absent = implicit reconciliation (every task the master knows). */
  tasks?: ReconcileTask[];
}
export interface ReconcileOperationsBody {
  operations?: Array<{ operation_id: Id; agent_id?: AgentID; resource_provider_id?: Id }>;
}
export interface MessageBody {
  agent_id: AgentID;
  executor_id: ExecutorID;
  /** base64 */
  data: string;
}
export interface RequestBody {
  requests: Request[];
}
export interface UpdateFrameworkBody {
  framework_info: FrameworkInfo;
  suppressed_roles?: string[];
}

interface Base {
  framework_id?: FrameworkID;
}

export type Call =
  | (Base & { type: "SUBSCRIBE"; subscribe: SubscribeBody })
  | (Base & { type: "TEARDOWN" })
  | (Base & { type: "ACCEPT"; accept: AcceptBody })
  | (Base & { type: "DECLINE"; decline: DeclineBody })
  | (Base & { type: "ACCEPT_INVERSE_OFFERS"; accept_inverse_offers: InverseOffersBody })
  | (Base & { type: "DECLINE_INVERSE_OFFERS"; decline_inverse_offers: InverseOffersBody })
  | (Base & { type: "REVIVE"; revive?: RolesBody })
  | (Base & { type: "SUPPRESS"; suppress?: RolesBody })
  | (Base & { type: "KILL"; kill: KillBody })
  | (Base & { type: "SHUTDOWN"; shutdown: ShutdownBody })
  | (Base & { type: "ACKNOWLEDGE"; acknowledge: AcknowledgeBody })
  | (Base & {
      type: "ACKNOWLEDGE_OPERATION_STATUS";
      acknowledge_operation_status: AcknowledgeOperationStatusBody;
    })
  | (Base & { type: "RECONCILE"; reconcile: ReconcileBody })
  | (Base & { type: "RECONCILE_OPERATIONS"; reconcile_operations: ReconcileOperationsBody })
  | (Base & { type: "MESSAGE"; message: MessageBody })
  | (Base & { type: "REQUEST"; request: RequestBody })
  | (Base & { type: "UPDATE_FRAMEWORK"; update_framework: UpdateFrameworkBody });

export type CallType = Call["type"];

export const CALL_TYPES: readonly CallType[] = [
  "SUBSCRIBE",
  "TEARDOWN",
  "ACCEPT",
  "DECLINE",
  "ACCEPT_INVERSE_OFFERS",
  "DECLINE_INVERSE_OFFERS",
  "REVIVE",
  "SUPPRESS",
  "KILL",
  "SHUTDOWN",
  "ACKNOWLEDGE",
  "ACKNOWLEDGE_OPERATION_STATUS",
  "RECONCILE",
  "RECONCILE_OPERATIONS",
  "MESSAGE",
  "REQUEST",
  "UPDATE_FRAMEWORK",
];

/** The call of type `T`. */
export type CallOf<T extends CallType> = Extract<Call, { type: T }>;
