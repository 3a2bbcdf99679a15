/**
 * Every bound on what a user may send, in one place: the API's schemas, the
 * console's forms and the CLI all read these, so each shows the same numbers.
 * A bound is generous for real use and small enough that one request cannot
 * make the server (or PostgreSQL: an index row holds ~2,700 bytes) do
 * unbounded work or store an unbounded row. README of @peloton/api lists them.
 */

// ─── text (characters) ──────────────────────────────────────────────────────

/** Names: jobs, tasks, ports, owners, owning teams, LDAP groups, label keys, images. */
export const MAX_NAME_LENGTH = 200;
/** A pool's name (one path segment). */
export const MAX_POOL_NAME_LENGTH = 100;
/** A pool path ("/a/b/c"): deep trees fit, and a path still fits in an index row. */
export const MAX_POOL_PATH_LENGTH = 1_000;
/** Descriptions (pools, jobs). */
export const MAX_DESCRIPTION_LENGTH = 4_096;
/** Short values: label values, environment values, arguments, URIs, hostnames, reasons. */
export const MAX_VALUE_LENGTH = 4_096;
/** File system paths (container, host, health check), as Linux's PATH_MAX. */
export const MAX_PATH_LENGTH = 4_096;
/** A shell command (Mesos `CommandInfo.value`). */
export const MAX_COMMAND_LENGTH = 65_536;
/**
 * A job or pool YAML document (128 KiB). Peloton's own job files are a few
 * KB; the `yaml` parser needs 30–400 µs per key (idle or busy machine), so
 * this and MAX_YAML_KEYS bound one parse.
 */
export const MAX_YAML_LENGTH = 131_072;
/** Search boxes and "part of the name" filters. */
export const MAX_SEARCH_LENGTH = 200;
/** Opaque page cursors handed back by the server. */
export const MAX_CURSOR_LENGTH = 500;
/** Enum names ("BATCH", "PLACEMENT_STRATEGY_PACK_HOST"). */
export const MAX_ENUM_NAME_LENGTH = 64;

// ─── YAML documents ─────────────────────────────────────────────────────────

/** Nesting of mappings and lists (flow or block); Peloton's deepest job file nests 8. */
export const MAX_YAML_DEPTH = 64;
/** Mapping keys in one document (every level counted): 400 overrides of 4 fields fit. */
export const MAX_YAML_KEYS = 2_000;
/** Alias expansions (the `yaml` package's maxAliasCount): an alias bomb stops here. */
export const MAX_YAML_ALIASES = 100;
/** Problems listed in one answer; the rest are counted ("and 12 more"). */
export const MAX_REPORTED_ISSUES = 50;

// ─── lists (entries) ────────────────────────────────────────────────────────

export const MAX_LABELS = 100;
export const MAX_LDAP_GROUPS = 100;
/** A pool's resource entries (cpu, memory, disk, gpu; a few spare for a clear "unknown kind"). */
export const MAX_POOL_RESOURCES = 16;
/** Ports of one task. */
export const MAX_PORTS = 100;
/** Operands of one and/or constraint. */
export const MAX_CONSTRAINTS = 100;
/** A command's arguments and environment variables. */
export const MAX_ARGUMENTS = 1_000;
export const MAX_ENVIRONMENT_VARIABLES = 1_000;
/** A command's URIs, a container's volumes and docker parameters. */
export const MAX_URIS = 100;
export const MAX_VOLUMES = 100;
export const MAX_DOCKER_PARAMETERS = 100;
/** Label filters, attribute filters and similar search terms. */
export const MAX_SEARCH_TERMS = 20;
/** Instance ranges of one task action. */
export const MAX_INSTANCE_RANGES = 100;

// ─── numbers ────────────────────────────────────────────────────────────────

/** PostgreSQL `integer`: instance ids, runs, versions, counts and seconds are stored as one. */
export const MAX_INT32 = 2_147_483_647;
/**
 * Peloton's priority is a uint32; it is stored as PostgreSQL `integer`, so
 * the range is its lower half, 0 … 2,147,483,647.
 */
export const MAX_PRIORITY = MAX_INT32;
/** Peloton's jobsvc `MaxTasksPerJob`: instances of one job. */
export const MAX_INSTANCES = 100_000;
/**
 * Per task: no more than the largest host could have. Larger asks could never
 * be placed and would wait at the head of their pool's queue for ever.
 */
export const MAX_TASK_CPU = 1_024; // cores
export const MAX_TASK_MEM_MB = 16 * 1024 * 1024; // 16 TiB
export const MAX_TASK_DISK_MB = 64 * 1024 * 1024; // 64 TiB
export const MAX_TASK_GPU = 64; // devices
export const MAX_TASK_FD = 1_048_576; // Linux's default nr_open
/** A pool's reservation or limit, in its kind's unit: above any cluster, exact in a double. */
export const MAX_POOL_AMOUNT = 1e12;
/** A pool's share (a weight). */
export const MAX_POOL_SHARE = 1_000_000;
/** A byte offset in a log file (1 PiB). */
export const MAX_LOG_OFFSET = 2 ** 50;
/** A database row id in a cursor (PostgreSQL `bigint`). */
export const MAX_ROW_ID = 9_223_372_036_854_775_807n;

// ─── HTTP requests (the API's edge) ─────────────────────────────────────────

/** A request body (2 MiB): the largest YAML document in JSON, with room to spare. */
export const MAX_REQUEST_BYTES = 2 * 1024 * 1024;
/** Calls in one tRPC batch (the console batches a page's queries: about ten). */
export const MAX_BATCH_CALLS = 50;
/** How long a request may take before it is answered 504 (streams are exempt). */
export const REQUEST_TIME_BUDGET_MS = 10_000;

/** The limits by name, for documentation and for forms that show them. */
export const INPUT_LIMITS = {
  MAX_NAME_LENGTH,
  MAX_POOL_NAME_LENGTH,
  MAX_POOL_PATH_LENGTH,
  MAX_DESCRIPTION_LENGTH,
  MAX_VALUE_LENGTH,
  MAX_PATH_LENGTH,
  MAX_COMMAND_LENGTH,
  MAX_YAML_LENGTH,
  MAX_SEARCH_LENGTH,
  MAX_CURSOR_LENGTH,
  MAX_YAML_DEPTH,
  MAX_YAML_KEYS,
  MAX_YAML_ALIASES,
  MAX_REPORTED_ISSUES,
  MAX_LABELS,
  MAX_LDAP_GROUPS,
  MAX_POOL_RESOURCES,
  MAX_PORTS,
  MAX_CONSTRAINTS,
  MAX_ARGUMENTS,
  MAX_ENVIRONMENT_VARIABLES,
  MAX_URIS,
  MAX_VOLUMES,
  MAX_DOCKER_PARAMETERS,
  MAX_SEARCH_TERMS,
  MAX_INSTANCE_RANGES,
  MAX_INT32,
  MAX_PRIORITY,
  MAX_INSTANCES,
  MAX_TASK_CPU,
  MAX_TASK_MEM_MB,
  MAX_TASK_DISK_MB,
  MAX_TASK_GPU,
  MAX_TASK_FD,
  MAX_POOL_AMOUNT,
  MAX_POOL_SHARE,
  MAX_REQUEST_BYTES,
  MAX_BATCH_CALLS,
  REQUEST_TIME_BUDGET_MS,
} as const;
