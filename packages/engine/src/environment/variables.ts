/**
 * Every environment variable Peloton reads, declared once: its rule (a zod
 * schema over the raw string), the default a reader sees, what it means, and
 * whether its value is a secret. Processes read them at start with
 * `readEnvironment(process.env, [names])`, which fails with one line naming
 * each bad variable and its rule; nothing else reads `process.env`.
 *
 * README.md's environment table is generated from this one
 * (`npm run docs:env -- --write`) and a unit test fails when they differ.
 *
 * Pure: the environment is an argument, so the engine stays free of I/O.
 */
import { z } from "zod";

/** The raw environment, as `process.env` holds it. */
export type RawEnvironment = Readonly<Record<string, string | undefined>>;

interface VariableSpec<S extends z.ZodType> {
  /** The value's rule; it receives the trimmed string, or undefined when unset or blank. */
  schema: S;
  /** The default as the README shows it (the schema's own default, or who decides). */
  shown: string;
  /** What it means (one line of the README's table). */
  meaning: string;
  /** A password, key or URL with credentials: never printed, in errors or logs. */
  secret?: boolean;
  /** Read by the `peloton` CLI rather than the console's processes. */
  cli?: boolean;
}

const variable = <S extends z.ZodType>(spec: VariableSpec<S>) => spec;

// Rules. Each message is the rule as the error line states it after the name.
const text = () => z.string().optional();
const port = (rule = "must be a port number (1-65535)") =>
  z
    .string()
    .regex(/^\d+$/, rule)
    .transform(Number)
    .refine((n) => n >= 1 && n <= 65535, rule);
const httpUrl = (rule = "must be an http:// or https:// URL") =>
  z.string().refine((s) => {
    try {
      return ["http:", "https:"].includes(new URL(s).protocol);
    } catch {
      return false;
    }
  }, rule);
const flag = (fallback: boolean) =>
  z
    .enum(["0", "1", "true", "false"], { error: "must be 1 or 0" })
    .optional()
    .transform((v) => (v === undefined ? fallback : v === "1" || v === "true"));

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

export const VARIABLES = {
  DATABASE_URL: variable({
    schema: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
      .optional(),
    shown: "embedded PostgreSQL",
    meaning:
      "`postgres://user[:password]@host:port/db`: use this server instead; the database is created when missing and migrated on start",
    secret: true,
  }),
  HOST: variable({
    schema: z.string().default("127.0.0.1"),
    shown: "`127.0.0.1`",
    meaning: "the interface the console listens on (`0.0.0.0`: every interface)",
  }),
  PORT: variable({
    schema: port().default(3000),
    shown: "`3000`",
    meaning: "the console's HTTP port",
  }),
  PELOTON_GRPC_PORT: variable({
    schema: z
      .string()
      .regex(/^\d+$/, "must be a port number (0-65535)")
      .transform(Number)
      .refine((n) => n <= 65535, "must be a port number (0-65535)")
      .default(5397),
    shown: "`5397`",
    meaning:
      "Peloton's gRPC API (`packages/peloton-api`), on `HOST`; `0`: any free port (logged at start)",
  }),
  PELOTON_DATA_DIR: variable({
    schema: text(),
    shown: "`.data/postgres`",
    meaning:
      "the embedded PostgreSQL's data folder; one launcher at a time may use it (lock: `<folder>.launcher.json`)",
  }),
  PELOTON_DEMO: variable({
    schema: flag(true),
    shown: "`1`",
    meaning: "`0` skips the demo pool tree (and the demo teams and users) on an empty database",
  }),
  MESOS_MASTER_URL: variable({
    schema: z
      .string()
      .refine(
        (s) => s.split(",").every((m) => /^https?:\/\/[^\s,]+$/.test(m.trim())),
        "must be http://host:port URLs, comma-separated",
      )
      .optional(),
    shown: "in-process mesos-sim",
    meaning:
      "`http://host:5050` (comma-separated for several masters): subscribe to this Mesos master instead",
  }),
  PELOTON_SIM_AGENTS: variable({
    schema: text(),
    shown: "the demo cluster",
    meaning:
      "a count (demo cluster of that size) or an agent file (format in `packages/mesos/README.md`)",
  }),
  PELOTON_SIM_PORT: variable({
    schema: port().optional(),
    shown: "any free port",
    meaning: "the in-process mesos-sim's port (logged at start)",
  }),
  PELOTON_SIM_DIR: variable({
    schema: text(),
    shown: "`.data/mesos-sim`",
    meaning:
      "where the in-process mesos-sim keeps task sandboxes, volumes and its checkpoint (one sim per dir); with `DATABASE_URL` set, also the folder one launcher at a time may use (lock: `<folder>.launcher.json`)",
  }),
  PELOTON_SIM_FAST: variable({
    schema: flag(false),
    shown: "`0`",
    meaning:
      "`1`: the in-process cluster's hosts refresh and drain every second (tests that watch hosts change)",
  }),
  PELOTON_REPLICA: variable({
    schema: text(),
    shown: "set by `npm start`",
    meaning:
      "this replica's scheduler id, for `/api/health`'s `leads` when the console's server runs on its own",
  }),
  PELOTON_LOG_LEVEL: variable({
    schema: z
      .enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` })
      .default("info"),
    shown: "`info`",
    meaning: "the scheduler's log level (pino)",
  }),
  PELOTON_LOG_FORMAT: variable({
    schema: z.enum(["auto", "json"], { error: "must be auto or json" }).default("auto"),
    shown: "`auto`",
    meaning:
      "`json`: JSON log lines on a terminal too (`auto`: readable lines on a terminal, JSON elsewhere)",
  }),
  PELOTON_PREEMPTION_PERIOD_SECONDS: variable({
    schema: z
      .string()
      .refine((s) => Number.isFinite(Number(s)) && Number(s) >= 0, {
        error: "must be a number of seconds ≥ 0 (0 turns preemption off)",
      })
      .transform(Number)
      .optional(),
    shown: "`10`",
    meaning: "how often the preemptor checks the pools (Peloton: 60); `0` turns preemption off",
  }),
  PELOTON_PREEMPTION_SUSTAINED_PERIODS: variable({
    schema: z
      .string()
      .refine((s) => Number.isInteger(Number(s)) && Number(s) >= 1, {
        error: "must be a whole number ≥ 1",
      })
      .transform(Number)
      .optional(),
    shown: "`3`",
    meaning:
      "periods in a row a pool must be over its entitlement before its tasks are preempted (Peloton: 5)",
  }),
  PELOTON_DEBUG: variable({
    schema: flag(false),
    shown: "unset",
    meaning:
      "`1`: a failed start-up also prints its stack trace, and the embedded PostgreSQL's own log goes to stderr",
  }),
  PELOTON_ADMIN_PASSWORD: variable({
    schema: z.string().min(12, "must be at least 12 characters").optional(),
    shown: "(random, printed once)",
    meaning: "the password of the `admin` user created on an empty database",
    secret: true,
  }),
  PELOTON_AUTH_SECRET: variable({
    schema: z.string().min(32, "must be at least 32 characters").optional(),
    shown: "(random, kept in the data dir)",
    meaning: "signs session cookies; set it when replicas share a database",
    secret: true,
  }),
  PELOTON_PUBLIC_URL: variable({
    schema: httpUrl().optional(),
    shown: "`http://<HOST>:<PORT>`",
    meaning: "the console's origin as browsers see it (cookies, OpenID redirect, CSRF check)",
  }),
  PELOTON_OIDC_ISSUER: variable({
    schema: httpUrl().optional(),
    shown: "unset",
    meaning:
      'the OpenID provider (discovery at `<issuer>/.well-known/openid-configuration`); enables "Sign in with SSO"',
  }),
  PELOTON_OIDC_CLIENT_ID: variable({
    schema: text(),
    shown: "unset",
    meaning: "the console's client id at that provider",
  }),
  PELOTON_OIDC_CLIENT_SECRET: variable({
    schema: text(),
    shown: "unset",
    meaning: "the console's client secret at that provider",
    secret: true,
  }),
  PELOTON_OIDC_NAME: variable({
    schema: z.string().max(40, "must be at most 40 characters").default("SSO"),
    shown: "`SSO`",
    meaning: "the label of the SSO sign-in button",
  }),
  PELOTON_URL: variable({
    schema: httpUrl()
      .transform((s) => s.replace(/\/+$/, ""))
      .default("http://localhost:3000"),
    shown: "`http://localhost:3000`",
    meaning: "CLI: where it finds the API",
    cli: true,
  }),
  PELOTON_TOKEN: variable({
    schema: text(),
    shown: "unset",
    meaning: "CLI: a token that overrides the stored one",
    secret: true,
    cli: true,
  }),
};

export type VariableName = keyof typeof VARIABLES;

/** Every variable's typed value, defaults applied. */
export type Environment = {
  [K in VariableName]: z.output<(typeof VARIABLES)[K]["schema"]>;
};

export const VARIABLE_NAMES = Object.keys(VARIABLES) as VariableName[];

/** What the console's processes read: everything but the CLI's own. */
export const SERVER_VARIABLES = VARIABLE_NAMES.filter((n) => !isCli(n)) as Exclude<
  VariableName,
  "PELOTON_URL" | "PELOTON_TOKEN"
>[];

function isCli(name: VariableName): boolean {
  return (VARIABLES[name] as VariableSpec<z.ZodType>).cli === true;
}

export function isSecret(name: VariableName): boolean {
  return (VARIABLES[name] as VariableSpec<z.ZodType>).secret === true;
}

/** Bad variables, all of them, in one line: "NAME must … (got "x"); OTHER …". */
export class EnvironmentError extends Error {
  override name = "EnvironmentError";
  constructor(readonly problems: readonly { name: VariableName; rule: string }[]) {
    super(problems.map((p) => `${p.name} ${p.rule}`).join("; "));
  }
}

/** A value as errors and logs may show it: a secret's never is. */
export function shownValue(name: VariableName, value: unknown): string {
  if (value === undefined) return "unset";
  return isSecret(name) ? "(hidden)" : JSON.stringify(value);
}

/**
 * Reads `names` (default: every variable) from `env`. A blank value counts as
 * unset. Throws EnvironmentError naming every variable that breaks its rule.
 */
export function readEnvironment<K extends VariableName = VariableName>(
  env: RawEnvironment,
  names: readonly K[] = VARIABLE_NAMES as K[],
): Pick<Environment, K> {
  const values: Partial<Record<VariableName, unknown>> = {};
  const problems: { name: VariableName; rule: string }[] = [];
  for (const name of names) {
    const raw = env[name]?.trim() || undefined;
    const parsed = (VARIABLES[name].schema as z.ZodType).safeParse(raw);
    if (parsed.success) values[name] = parsed.data;
    else {
      const rule = parsed.error.issues[0]?.message ?? "is invalid";
      const got = isSecret(name) ? "value hidden: secret" : `got ${JSON.stringify(raw)}`;
      problems.push({ name, rule: `${rule} (${got})` });
    }
  }
  if (problems.length) throw new EnvironmentError(problems);
  return values as Pick<Environment, K>;
}

/** The values with every secret hidden: for a log line or a debug dump. */
export function redacted(values: Partial<Environment>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    out[name] = shownValue(name as VariableName, value);
  }
  return out;
}
