import type { z } from "zod";
import { CliError } from "./errors.ts";

/** An option's value parsed by the API's own schema; a refusal names the option. */
export function parseOption<S extends z.ZodType>(
  schema: S,
  value: unknown,
  option: string,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.length ? issue.path.join(".") : option;
  throw new CliError(`${field}: ${issue?.message ?? "invalid value"}`);
}
