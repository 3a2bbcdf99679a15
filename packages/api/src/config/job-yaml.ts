/**
 * A Peloton job file checked as `jobs.create` checks it — decoded with the
 * engine's schema, then the engine's rules between fields — with every
 * problem at its field (in the file's own spelling) and line. The console's
 * editor runs it as the user types; the server's answer on submit stays
 * authoritative (it also checks the pool, which only the server knows).
 */
import { type JobConfig, jobConfigSchema, validateJobConfig } from "@peloton/engine";
import { ConfigError, type ConfigIssue, decodePelotonYaml } from "./peloton-yaml.ts";

export type JobYamlCheck =
  | { ok: true; config: JobConfig }
  | { ok: false; issues: (ConfigIssue & { code?: string })[] };

export function checkJobYaml(text: string): JobYamlCheck {
  let decoded: ReturnType<typeof decodePelotonYaml<typeof jobConfigSchema>>;
  try {
    decoded = decodePelotonYaml(text, jobConfigSchema);
  } catch (err) {
    if (err instanceof ConfigError) return { ok: false, issues: err.issues };
    throw err;
  }
  const problems = validateJobConfig(decoded.value);
  if (problems.length === 0) return { ok: true, config: decoded.value };
  return {
    ok: false,
    issues: problems.map((p) => ({
      code: p.code,
      message: p.message,
      ...decoded.positionOf(p.field),
    })),
  };
}
