/** Offer.Operation (mesos.proto): what an ACCEPT call does with its offers. */
import type { OperationState } from "./enums.ts";
import type {
  ExecutorInfo,
  Id,
  OperationID,
  Resource,
  TaskGroupInfo,
  TaskInfo,
} from "./messages.ts";

interface OperationBase {
  /** Set only when the framework wants UPDATE_OPERATION_STATUS feedback. */
  id?: OperationID;
}

export interface LaunchOperation extends OperationBase {
  type: "LAUNCH";
  launch: { task_infos: TaskInfo[] };
}
export interface LaunchGroupOperation extends OperationBase {
  type: "LAUNCH_GROUP";
  launch_group: { executor: ExecutorInfo; task_group: TaskGroupInfo };
}
export interface ReserveOperation extends OperationBase {
  type: "RESERVE";
  reserve: { resources: Resource[]; source?: Resource[] };
}
export interface UnreserveOperation extends OperationBase {
  type: "UNRESERVE";
  unreserve: { resources: Resource[] };
}
export interface CreateOperation extends OperationBase {
  type: "CREATE";
  create: { volumes: Resource[] };
}
export interface DestroyOperation extends OperationBase {
  type: "DESTROY";
  destroy: { volumes: Resource[] };
}

export type OfferOperation =
  | LaunchOperation
  | LaunchGroupOperation
  | ReserveOperation
  | UnreserveOperation
  | CreateOperation
  | DestroyOperation;

/** Status of an operation that carried an `id` (UPDATE_OPERATION_STATUS). */
export interface OperationStatus {
  operation_id?: OperationID;
  state: OperationState;
  message?: string;
  resources?: Resource[];
  agent_id?: Id;
  resource_provider_id?: Id;
  /** Unlike a task update's plain base64 `uuid`, this one is a `{value}` object. */
  uuid?: { value: string };
}
