/** Peloton's job query flags in the API's terms: states, labels, sort, and asking before a bulk action. */
import { createInterface } from "node:readline/promises";
import type { JobListInput } from "@peloton/api/schemas";
import { CliError } from "../errors.ts";

type JobStates = NonNullable<JobListInput["states"]>;
type JobSort = NonNullable<JobListInput["sort"]>;

/** `RUNNING,pending` → ["RUNNING", "PENDING"]; the API names a state that does not exist. */
export function parseJobStates(text: string | undefined): JobStates {
  return (text ?? "")
    .split(",")
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean) as JobStates;
}

/** `team=infra,tier=1` (Peloton's `key=value` pairs, comma-separated). */
export function parseLabels(text: string | undefined): { key: string; value: string }[] {
  if (!text) return [];
  return text.split(",").map((pair) => {
    const parts = pair.split("=");
    if (parts.length !== 2 || !parts[0])
      throw new CliError(`invalid label "${pair}": labels are key=value, comma-separated`);
    return { key: parts[0].trim(), value: parts[1]!.trim() };
  });
}

/** Peloton's property names (creation_time, …) and ours. */
const SORT_NAMES: Record<string, JobSort> = {
  creation_time: "createdAt",
  created_at: "createdAt",
  createdat: "createdAt",
  update_time: "updatedAt",
  updated_at: "updatedAt",
  updatedat: "updatedAt",
  name: "name",
  state: "state",
  priority: "priority",
  instance_count: "instanceCount",
  instancecount: "instanceCount",
};

export function parseSort(sort: string, order: string): { sort: JobSort; order: "asc" | "desc" } {
  const key = SORT_NAMES[sort.toLowerCase()];
  if (!key)
    throw new CliError(
      `unknown sort property "${sort}" (creation_time, update_time, name, state, priority, instance_count)`,
    );
  const o = order.toUpperCase();
  if (o !== "ASC" && o !== "DESC") throw new CliError(`Invalid sort order ${order} (ASC or DESC)`);
  return { sort: key, order: o === "ASC" ? "asc" : "desc" };
}

/** Asks a yes/no question on a terminal; without one, says how to act without asking. */
export async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY)
    throw new CliError(
      "several jobs match and there is no terminal to ask: add --force to act on them",
    );
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    for (;;) {
      const answer = (await rl.question(`${question} [y/n]: `)).trim().toLowerCase();
      if (answer === "y" || answer === "yes") return true;
      if (answer === "n" || answer === "no") return false;
    }
  } finally {
    rl.close();
  }
}
