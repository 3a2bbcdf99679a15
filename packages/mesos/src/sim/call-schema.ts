/**
 * The JSON shape of scheduler Calls (scheduler.proto / mesos.proto) as
 * structural checks: what the master's JSON → protobuf conversion rejects.
 */
import { CALL_TYPES } from "../proto/calls.ts";
import {
  anyObject,
  arr,
  base64,
  bool,
  type Check,
  int64,
  integer,
  num,
  obj,
  oneOf,
  str,
} from "./schema.ts";

const id = obj({ value: str }, ["value"]);
const labels = obj({ labels: arr(obj({ key: str, value: str }, ["key"])) });
const range = obj({ begin: integer, end: integer }, ["begin", "end"]);
const reservation = obj({
  type: oneOf(["UNKNOWN", "STATIC", "DYNAMIC"]),
  role: str,
  principal: str,
  labels,
});

const resource = obj(
  {
    name: str,
    type: oneOf(["SCALAR", "RANGES", "SET"]),
    scalar: obj({ value: num }, ["value"]),
    ranges: obj({ range: arr(range) }),
    set: obj({ item: arr(str) }),
    role: str,
    reservation,
    reservations: arr(reservation),
    allocation_info: obj({ role: str }),
    disk: obj({
      persistence: obj({ id: str, principal: str }, ["id"]),
      volume: obj({ container_path: str, host_path: str, mode: oneOf(["RW", "RO"]) }, [
        "container_path",
        "mode",
      ]),
      source: anyObject,
    }),
    revocable: anyObject,
    shared: anyObject,
    provider_id: id,
  },
  ["name", "type"],
);
const resources = arr(resource);

const command = obj({
  value: str,
  shell: bool,
  arguments: arr(str),
  user: str,
  uris: arr(obj({ value: str, executable: bool, extract: bool, cache: bool }, ["value"])),
  environment: obj({
    variables: arr(
      obj({ name: str, value: str, type: oneOf(["UNKNOWN", "VALUE", "SECRET"]) }, ["name"]),
    ),
  }),
});

const duration = obj({ nanoseconds: int64 }, ["nanoseconds"]);
const killPolicy = obj({ grace_period: duration });

const executor = obj(
  {
    type: oneOf(["UNKNOWN", "DEFAULT", "CUSTOM"]),
    executor_id: id,
    framework_id: id,
    command,
    container: anyObject,
    resources,
    name: str,
    labels,
  },
  ["executor_id"],
);

const task = obj(
  {
    name: str,
    task_id: id,
    agent_id: id,
    resources,
    executor,
    command,
    container: anyObject,
    health_check: anyObject,
    check: anyObject,
    kill_policy: killPolicy,
    data: base64,
    labels,
    discovery: anyObject,
    max_completion_time: duration,
    limits: anyObject,
  },
  ["name", "task_id", "agent_id"],
);

const operation = obj(
  {
    type: oneOf(["UNKNOWN", "LAUNCH", "LAUNCH_GROUP", "RESERVE", "UNRESERVE", "CREATE", "DESTROY"]),
    id,
    launch: obj({ task_infos: arr(task) }),
    launch_group: obj({ executor, task_group: obj({ tasks: arr(task) }) }, [
      "executor",
      "task_group",
    ]),
    reserve: obj({ resources, source: resources }),
    unreserve: obj({ resources }),
    create: obj({ volumes: resources }),
    destroy: obj({ volumes: resources }),
  },
  ["type"],
);

const filters = obj({ refuse_seconds: num });

export const frameworkInfoSchema = obj(
  {
    user: str,
    name: str,
    id,
    failover_timeout: num,
    checkpoint: bool,
    role: str,
    roles: arr(str),
    hostname: str,
    principal: str,
    webui_url: str,
    capabilities: arr(
      obj({
        type: oneOf([
          "UNKNOWN",
          "REVOCABLE_RESOURCES",
          "TASK_KILLING_STATE",
          "GPU_RESOURCES",
          "SHARED_RESOURCES",
          "PARTITION_AWARE",
          "MULTI_ROLE",
          "RESERVATION_REFINEMENT",
          "REGION_AWARE",
        ]),
      }),
    ),
    labels,
  },
  ["user", "name"],
);

const roles = obj({ roles: arr(str) });
const inverse = obj({ inverse_offer_ids: arr(id), filters });

export const callSchema: Check = obj({
  type: oneOf(CALL_TYPES),
  framework_id: id,
  subscribe: obj({ framework_info: frameworkInfoSchema, suppressed_roles: arr(str) }, [
    "framework_info",
  ]),
  accept: obj({ offer_ids: arr(id), operations: arr(operation), filters }),
  decline: obj({ offer_ids: arr(id), filters }),
  accept_inverse_offers: inverse,
  decline_inverse_offers: inverse,
  revive: roles,
  suppress: roles,
  kill: obj({ task_id: id, agent_id: id, kill_policy: killPolicy }, ["task_id"]),
  shutdown: obj({ executor_id: id, agent_id: id }, ["executor_id", "agent_id"]),
  acknowledge: obj({ agent_id: id, task_id: id, uuid: base64 }, ["agent_id", "task_id", "uuid"]),
  acknowledge_operation_status: obj(
    { agent_id: id, resource_provider_id: id, uuid: base64, operation_id: id },
    ["uuid", "operation_id"],
  ),
  reconcile: obj({ tasks: arr(obj({ task_id: id, agent_id: id }, ["task_id"])) }),
  reconcile_operations: obj({
    operations: arr(
      obj({ operation_id: id, agent_id: id, resource_provider_id: id }, ["operation_id"]),
    ),
  }),
  message: obj({ agent_id: id, executor_id: id, data: base64 }, [
    "agent_id",
    "executor_id",
    "data",
  ]),
  request: obj({ requests: arr(obj({ agent_id: id, resources })) }),
  update_framework: obj({ framework_info: frameworkInfoSchema, suppressed_roles: arr(str) }, [
    "framework_info",
  ]),
});
