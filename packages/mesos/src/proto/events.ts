/**
 * Scheduler events (scheduler.proto, `Event`) and a tolerant parser for the
 * JSON records of the SUBSCRIBE stream.
 */
import type {
  AgentID,
  ExecutorID,
  FrameworkID,
  InverseOffer,
  MasterInfo,
  Offer,
  OfferID,
  TaskStatus,
} from "./messages.ts";
import type { OperationStatus } from "./operations.ts";

export interface SubscribedBody {
  framework_id: FrameworkID;
  /** Set when the master sends heartbeats (it always does; default 15). */
  heartbeat_interval_seconds?: number;
  master_info?: MasterInfo;
}
export interface FailureBody {
  agent_id?: AgentID;
  executor_id?: ExecutorID;
  /** Exit status of a terminated executor, when known. */
  status?: number;
}
export interface MessageEventBody {
  agent_id: AgentID;
  executor_id: ExecutorID;
  /** base64 */
  data: string;
}

export type Event =
  | { type: "SUBSCRIBED"; subscribed: SubscribedBody }
  | { type: "OFFERS"; offers: { offers?: Offer[] } }
  | { type: "INVERSE_OFFERS"; inverse_offers: { inverse_offers?: InverseOffer[] } }
  | { type: "RESCIND"; rescind: { offer_id: OfferID } }
  | { type: "RESCIND_INVERSE_OFFER"; rescind_inverse_offer: { inverse_offer_id: OfferID } }
  | { type: "UPDATE"; update: { status: TaskStatus } }
  | { type: "UPDATE_OPERATION_STATUS"; update_operation_status: { status: OperationStatus } }
  | { type: "MESSAGE"; message: MessageEventBody }
  | { type: "FAILURE"; failure: FailureBody }
  | { type: "ERROR"; error: { message: string } }
  | { type: "HEARTBEAT" };

export type EventType = Event["type"];
export type EventOf<T extends EventType> = Extract<Event, { type: T }>;

/** Event types and the body field each one requires. */
const BODY_FIELD: Record<EventType, string | null> = {
  SUBSCRIBED: "subscribed",
  OFFERS: "offers",
  INVERSE_OFFERS: "inverse_offers",
  RESCIND: "rescind",
  RESCIND_INVERSE_OFFER: "rescind_inverse_offer",
  UPDATE: "update",
  UPDATE_OPERATION_STATUS: "update_operation_status",
  MESSAGE: "message",
  FAILURE: "failure",
  ERROR: "error",
  HEARTBEAT: null,
};

export type ParsedEvent =
  | { ok: true; event: Event }
  /** A type this client does not know (a newer master): skip it, keep the stream. */
  | { ok: false; kind: "unknown_type"; type: string }
  | { ok: false; kind: "malformed"; message: string };

/**
 * Checks the envelope only (type and its body object): the master is trusted
 * for the inner shapes, and a stricter check would break on additive proto
 * changes.
 */
export function parseEvent(json: unknown): ParsedEvent {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return { ok: false, kind: "malformed", message: "event is not a JSON object" };
  }
  const record = json as Record<string, unknown>;
  const type = record.type;
  if (typeof type !== "string") {
    return { ok: false, kind: "malformed", message: "event has no 'type'" };
  }
  if (!Object.hasOwn(BODY_FIELD, type)) return { ok: false, kind: "unknown_type", type };
  const field = BODY_FIELD[type as EventType];
  if (field !== null) {
    const body = record[field];
    if (typeof body !== "object" || body === null) {
      return { ok: false, kind: "malformed", message: `${type} event without '${field}'` };
    }
  }
  return { ok: true, event: json as Event };
}
