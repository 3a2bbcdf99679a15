/**
 * PatchJob's new spec: the request's partial JobSpec merged over the job's
 * current one by protobuf's own merge rules (what the proto's "merged with
 * the existing spec" means on the wire): a set scalar replaces the current
 * value, a message field merges field by field, a map entry
 * (`instanceSpec.<n>`) replaces the current entry whole. Two things are
 * refused rather than guessed:
 *
 * - a list anywhere outside a map entry (`labels`, `defaultSpec.containers`,
 *   `ldapGroups`, …): protobuf appends to the current list, a client
 *   patching a label or a container's command almost surely means to
 *   replace it, and a patch cannot say which;
 * - a job whose stored config holds something a JobSpec cannot carry
 *   (created from YAML with v0-only fields): the merged spec would drop it
 *   silently.
 *
 * As in proto3, a scalar at its zero value (0, false, "") is "not set": a
 * patch cannot clear a field; ReplaceJob can.
 */
import { clone, type DescMessage, merge, toJson } from "@bufbuild/protobuf";
import { type ReflectMessage, reflect } from "@bufbuild/protobuf/reflect";
import { Code, ConnectError } from "@connectrpc/connect";
import { unimplemented } from "../calls/status.ts";
import { JobConfigSchema } from "../generated/peloton/api/v0/job/job_pb.ts";
import {
  type JobSpec,
  JobSpecSchema,
} from "../generated/peloton/api/v1alpha/job/stateless/stateless_pb.ts";
import { pelotonMessage } from "../v0/config.ts";
import { jobConfigOf } from "./job-spec.ts";

/** `patch` merged over `current`; `stored` is the job's config `current` was read from. */
export function patchedSpec(
  current: JobSpec,
  patch: JobSpec,
  stored: unknown,
  field: string,
): JobSpec {
  const list = firstList(reflect(JobSpecSchema, patch), field);
  if (list)
    throw unimplemented(
      `${list}: a patch cannot say whether a list replaces the current one or extends it; send the whole spec with ReplaceJob`,
    );
  const lost = notCarried(current, stored);
  if (lost.length > 0)
    throw new ConnectError(
      `jobId.value: a stateless JobSpec cannot carry this job's ${lost.join(", ")}, so a patch would change or drop it; change the job with ReplaceJob or \`peloton update\``,
      Code.FailedPrecondition,
    );
  const merged = clone(JobSpecSchema, current);
  merge(JobSpecSchema, merged, patch);
  return merged;
}

/** The path of the first non-empty list in `message` (map entries are replaced whole, not searched). */
function firstList(message: ReflectMessage, path: string): string | null {
  for (const f of message.fields) {
    if (!message.isSet(f)) continue;
    const at = `${path}.${f.jsonName}`;
    if (f.fieldKind === "list") return at;
    if (f.fieldKind === "message") {
      const found = firstList(message.get(f), at);
      if (found) return found;
    }
  }
  return null;
}

/** The v0 config fields `stored` has that do not survive a trip through `spec`. */
function notCarried(spec: JobSpec, stored: unknown): string[] {
  const through = configJson(JobConfigSchema, jobConfigOf(spec, "spec"));
  const original = configJson(JobConfigSchema, pelotonMessage(JobConfigSchema, stored));
  const keys = new Set([...Object.keys(through), ...Object.keys(original)]);
  return [...keys].filter((k) => JSON.stringify(through[k]) !== JSON.stringify(original[k]));
}

function configJson<D extends DescMessage>(
  schema: D,
  message: Parameters<typeof toJson<D>>[1],
): Record<string, unknown> {
  const json = toJson(schema, message) as Record<string, unknown>;
  // Set by the server, not part of what a client changes.
  delete json.changeLog;
  return json;
}
