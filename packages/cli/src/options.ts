/**
 * Command-line option values, checked by the API's own zod schemas before any
 * request: the CLI cannot drift from what the API accepts, and a bad value is
 * one line naming the option and the rule ("--limit: at most 500 (got 5000)")
 * instead of a round trip and the API's field name.
 *
 * One entry per option that carries a value the API constrains; commands call
 * these and pass the result on unchanged.
 */
import {
  auditListInput,
  HOST_STATES,
  instanceRangeSchema,
  jobListInput,
  jobRollingInput,
  jobScaleInput,
  taskLogsInput,
  updateCreateInput,
  updateOptionsSchema,
  volumeListInput,
} from "@peloton/api/schemas";
import { z } from "zod";
import { CliError } from "./errors.ts";
import { parseJobStates, parseLabels } from "./jobs/query-options.ts";

/** The rule an issue states, in the words of a command line. */
function ruleOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "too_big":
      return issue.origin === "array"
        ? `at most ${issue.maximum} values`
        : `at most ${issue.maximum}`;
    case "too_small":
      return issue.origin === "array"
        ? `at least ${issue.minimum} values`
        : `at least ${issue.minimum}`;
    case "invalid_value":
      return `one of ${issue.values.map(String).join(", ")}`;
    case "invalid_type":
      return issue.expected === "int" ? "a whole number" : `a ${issue.expected}`;
    default:
      return issue.message;
  }
}

/**
 * `value` checked by `schema`; otherwise a CliError "<option>: <rule> (got <shown>)".
 * `shown` is what the user typed (the option's text, not its conversion).
 */
export function optionValue<S extends z.ZodType>(
  option: string,
  schema: S,
  value: unknown,
  shown: string | undefined,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const rule = issue ? ruleOf(issue) : "is invalid";
  // Which element of a list was wrong, when the issue says.
  const at = issue?.path.find((p) => typeof p === "number");
  const got =
    at !== undefined && Array.isArray(value) ? JSON.stringify(value[at]) : JSON.stringify(shown);
  // Some of the API's rules quote the value themselves ("must be ≥ 0 (got -1)").
  const quoted = rule.includes("(got ") || (shown !== undefined && rule.includes(shown));
  throw new CliError(quoted ? `${option}: ${rule}` : `${option}: ${rule} (got ${got})`);
}

/** "500" → 500; anything that is not a plain number becomes NaN (the schema names the rule). */
function numberOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  return /^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : Number.NaN;
}

const hostStates = z.array(z.enum(HOST_STATES)).max(HOST_STATES.length);
/** The API's page size for hosts.list (packages/api/src/schemas/hosts.ts; that module reaches storage). */
const hostPageSize = z.number().int().min(1).max(500);

/** `peloton job query`. */
export const jobQuery = {
  limit: (text: string) => optionValue("--limit", jobListInput.shape.limit, numberOf(text), text),
  states: (text: string | undefined) =>
    optionValue("--states", jobListInput.shape.states, parseJobStates(text), text),
  respool: (text: string | undefined) =>
    optionValue("--respool", jobListInput.shape.pool, text, text),
  owner: (text: string | undefined) => optionValue("--owner", jobListInput.shape.owner, text, text),
  name: (text: string | undefined) => optionValue("--name", jobListInput.shape.text, text, text),
  labels: (text: string | undefined) =>
    optionValue("--labels", jobListInput.shape.labels, parseLabels(text), text),
};

/** `peloton job scale <job> <instances>`. */
export const jobScale = {
  instances: (text: string) =>
    optionValue("instances", jobScaleInput.shape.instanceCount, numberOf(text), text),
};

/** `peloton job restart|start <job> --batch-size N` (a rolling restart or start). */
export const jobBatch = {
  size: (text: string | undefined) =>
    text === undefined
      ? undefined
      : optionValue("--batch-size", jobRollingInput.shape.batchSize.unwrap(), numberOf(text), text),
};

/** `peloton task …`: an instance id, a run number, a log file. */
export const taskOptions = {
  instance: (text: string) =>
    optionValue("instance", instanceRangeSchema.shape.from, numberOf(text), text),
  run: (text: string | undefined) =>
    optionValue("--run", taskLogsInput.shape.run, numberOf(text), text),
  filename: (text: string) => optionValue("--filename", taskLogsInput.shape.file, text, text),
};

/** `peloton audit list`. */
export const auditList = {
  limit: (text: string) => optionValue("--limit", auditListInput.shape.limit, numberOf(text), text),
  actor: (text: string | undefined) =>
    optionValue("--actor", auditListInput.shape.actor, text, text),
  action: (text: string | undefined) =>
    optionValue("--action", auditListInput.shape.action, text, text),
  type: (text: string | undefined) =>
    optionValue("--type", auditListInput.shape.targetType, text, text),
  target: (text: string | undefined) =>
    optionValue("--target", auditListInput.shape.target, text, text),
  since: (text: string | undefined) =>
    optionValue("--since", auditListInput.shape.since, text, text),
};

/** A comma-separated list, upper-cased: "running,pending" → ["RUNNING", "PENDING"]. */
const upperList = (text: string | undefined) =>
  (text ?? "")
    .split(",")
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean);

/** `peloton volume list`. */
export const volumeList = {
  states: (text: string | undefined) =>
    optionValue("--state", volumeListInput.shape.states, upperList(text), text),
  sort: (text: string) => optionValue("--sort", volumeListInput.shape.sort, text, text),
  job: (text: string | undefined) => optionValue("--job", volumeListInput.shape.jobId, text, text),
  host: (text: string | undefined) => optionValue("--host", volumeListInput.shape.host, text, text),
  query: (text: string | undefined) =>
    optionValue("--query", volumeListInput.shape.text, text, text),
};

/** `peloton host list`. */
export const hostList = {
  states: (text: string | undefined) => optionValue("--state", hostStates, upperList(text), text),
  limit: (text: string) => optionValue("--limit", hostPageSize, numberOf(text), text),
};

/**
 * An argument or a set of them (`{ login, role }`) parsed by the API's own
 * input schema: a refusal names the field the rule is about, else `option`,
 * and says the schema's own message.
 */
export function parseOption<S extends z.ZodType>(
  schema: S,
  value: unknown,
  option: string,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.length ? issue.path.join(".") : option;
  // These schemas word their own rules ("a password has at least 12 characters").
  throw new CliError(`${field}: ${issue?.message ?? "is invalid"}`);
}

/** `peloton update create <job> <config> <batch-size> <respool> [flags]` (Peloton's names). */
export const updateCreate = {
  batchSize: (text: string) =>
    optionValue("batch-size", updateOptionsSchema.shape.batchSize, numberOf(text), text),
  maxAttempts: (text: string) =>
    optionValue(
      "--maxattempts",
      updateOptionsSchema.shape.maxInstanceAttempts,
      numberOf(text),
      text,
    ),
  maxFailureInstances: (text: string) =>
    optionValue(
      "--maxfailureInstances",
      updateOptionsSchema.shape.maxFailureInstances,
      numberOf(text),
      text,
    ),
  /** Peloton's -c: 0 (its default) or absent means "whatever the job has now". */
  configVersion: (text: string | undefined) =>
    text === undefined || text === "0"
      ? undefined
      : optionValue(
          "--configuration-version",
          updateCreateInput.shape.configVersion.unwrap(),
          numberOf(text),
          text,
        ),
};
