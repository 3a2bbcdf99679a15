/**
 * @peloton/mesos: the Mesos v1 scheduler HTTP API — a client for schedulers
 * and mesos-sim, a protocol-faithful master with simulated agents.
 */

export {
  findSandboxDirectory,
  readSandboxFile,
  type SandboxFileChunk,
  type SandboxFileRequest,
} from "./agent/sandbox-files.ts";
export type { IdLike } from "./client/calls.ts";
export * as calls from "./client/calls.ts";
// The scheduler client.
export { MesosSchedulerClient } from "./client/client.ts";
export type {
  ClientState,
  DisconnectInfo,
  MesosClientEvents,
  MesosClientOptions,
  SubscribedInfo,
} from "./client/connection.ts";
export { MesosError, type MesosErrorKind } from "./client/errors.ts";
export { HeartbeatWatchdog } from "./client/heartbeat.ts";
export {
  getMaintenanceSchedule,
  getMaintenanceStatus,
  startMaintenance,
  stopMaintenance,
  updateMaintenanceSchedule,
} from "./client/maintenance.ts";
export {
  getAgents,
  type OperatorOptions,
  operatorCall,
  operatorUrl,
} from "./client/operator.ts";
export type * from "./proto/calls.ts";
export {
  isTerminalState,
  type OfferOperationType,
  type OperationState,
  TASK_STATES,
  type TaskState,
  type TaskStatusReason,
  type TaskStatusSource,
} from "./proto/enums.ts";
export type {
  Event,
  EventOf,
  EventType,
  FailureBody,
  MessageEventBody,
  SubscribedBody,
} from "./proto/events.ts";
export { parseEvent } from "./proto/events.ts";
// Protocol messages (JSON form of the Mesos protos).
export type * from "./proto/messages.ts";
export type * from "./proto/operations.ts";
export type * from "./proto/operator.ts";
export { encodeRecord, RecordIODecoder, RecordIOError } from "./proto/recordio.ts";
// Resource arithmetic and builders.
export { ResourceBag } from "./resources/bag.ts";
export {
  type ResourceOptions,
  rangesResource,
  scalarResource,
  volumeResource,
} from "./resources/builders.ts";
export { reservationRole, resourceKey } from "./resources/identity.ts";
export { parseRanges } from "./resources/ranges.ts";
// mesos-sim.
export type { RecoveryReport } from "./sim/checkpoint/recovery.ts";
export {
  type AgentResourcesSpec,
  type AgentSpec,
  agentsFromArgument,
  type DemoClusterOptions,
  demoCluster,
  parseAgentFile,
} from "./sim/cluster.ts";
export { SIM_DURATION_KEY, SIM_EXIT_CODE_KEY } from "./sim/simulated-run.ts";
export {
  type MesosSim,
  type MesosSimOptions,
  type MesosSimStopOptions,
  type SimAgentSnapshot,
  type SimTaskSnapshot,
  startMesosSim,
} from "./sim/start.ts";
