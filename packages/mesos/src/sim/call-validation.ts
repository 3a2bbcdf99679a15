/**
 * Turns a request body into a typed Call or the master's 400 message:
 * first the JSON → protobuf conversion (shapes), then the semantic checks of
 * the master's `validation::scheduler::call::validate`.
 */
import type { Call, CallType } from "../proto/calls.ts";
import { callSchema } from "./call-schema.ts";
import { isValidStatusUuid } from "./status.ts";

export type CallParse = { ok: true; call: Call } | { ok: false; message: string };

/** The body field each call type must carry (TEARDOWN, REVIVE, SUPPRESS need none). */
const BODY: Partial<Record<CallType, string>> = {
  SUBSCRIBE: "subscribe",
  ACCEPT: "accept",
  DECLINE: "decline",
  ACCEPT_INVERSE_OFFERS: "accept_inverse_offers",
  DECLINE_INVERSE_OFFERS: "decline_inverse_offers",
  KILL: "kill",
  SHUTDOWN: "shutdown",
  ACKNOWLEDGE: "acknowledge",
  ACKNOWLEDGE_OPERATION_STATUS: "acknowledge_operation_status",
  RECONCILE: "reconcile",
  RECONCILE_OPERATIONS: "reconcile_operations",
  MESSAGE: "message",
  REQUEST: "request",
  UPDATE_FRAMEWORK: "update_framework",
};

export function parseCall(body: string): CallParse {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (err) {
    return {
      ok: false,
      message: `Failed to parse body into JSON: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  const shapeError = callSchema(json, "");
  if (shapeError !== undefined) {
    return { ok: false, message: `Failed to convert JSON into Call protobuf: ${shapeError}` };
  }
  const error = validate(json as Call);
  if (error !== undefined)
    return { ok: false, message: `Failed to validate scheduler::Call: ${error}` };
  return { ok: true, call: json as Call };
}

function validate(call: Call): string | undefined {
  if (call.type === undefined) return "Expecting 'type' to be present";
  const field = BODY[call.type];
  if (field !== undefined && (call as unknown as Record<string, unknown>)[field] === undefined) {
    return `Expecting '${field}' to be present`;
  }
  if (call.type === "SUBSCRIBE") {
    const infoId = call.subscribe.framework_info.id?.value ?? "";
    if ((call.framework_id?.value ?? "") !== infoId) {
      return "'framework_id' differs from 'subscribe.framework_info.id'";
    }
    return undefined;
  }
  if (call.framework_id === undefined) return "Expecting 'framework_id' to be present";
  if (call.type === "ACKNOWLEDGE" && !isValidStatusUuid(call.acknowledge.uuid)) {
    return "'acknowledge.uuid' is not a valid UUID";
  }
  if (
    call.type === "UPDATE_FRAMEWORK" &&
    call.update_framework.framework_info.id?.value !== call.framework_id.value
  ) {
    return "'framework_id' differs from 'update_framework.framework_info.id'";
  }
  return undefined;
}
