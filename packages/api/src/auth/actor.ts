/**
 * Who is acting (docs/identity.md): the signed-in person, or the person a
 * token belongs to. Resolved once per request by the HTTP edge from the
 * session cookie or the `Authorization: Bearer` token; null when neither is
 * present or valid. The policy (policy.ts) decides from these fields alone,
 * never from strings a request carries (a job's `owner`).
 */
import type { Role } from "@peloton/engine";

export interface Actor {
  userId: string;
  /** The sign-in name; what the audit log and `submittedBy` record. */
  login: string;
  displayName: string;
  role: Role;
  /** Names of the teams the person belongs to (pools name these in owningTeam and ldapGroups). */
  teams: readonly string[];
  /** Granted host maintenance (drain, up) without being an admin. */
  hostMaintenance: boolean;
  /** How the request proved it: a console session, or a named personal token. */
  via: ActorChannel;
}

export type ActorChannel = (
  | { kind: "session" }
  | { kind: "token"; tokenId: string; tokenName: string }
) & {
  /** Peloton's own API the request came through (packages/peloton-api); absent for tRPC. */
  api?: PelotonApiProtocol;
};

/** gRPC on PELOTON_GRPC_PORT, or YARPC's JSON over HTTP at /api/v1. */
export type PelotonApiProtocol = "grpc" | "yarpc";

/** The audit log's `via` column: "session" or "token:<name>", then " via grpc" or " via yarpc". */
export function channelLabel(via: ActorChannel): string {
  const proof = via.kind === "session" ? "session" : `token:${via.tokenName}`;
  return via.api ? `${proof} via ${via.api}` : proof;
}
