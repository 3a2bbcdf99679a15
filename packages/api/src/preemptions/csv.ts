/**
 * The preemption history as CSV (console "Export CSV", `peloton preemption
 * list --csv`): the list's filters, every matching row newest first, streamed
 * in keyset batches so a long history never sits in memory. One row per
 * preemption, numbers per kind in their own columns (cores, MB, GPUs).
 */
import { RESOURCE_KINDS } from "@peloton/engine";
import type {
  Amounts,
  PreemptionFilters,
  PreemptionRecord,
  ReadOnlyGateway,
} from "@peloton/storage";
import type { PreemptionFiltersValue } from "../schemas/preemptions.ts";

const NUMBER_COLUMNS = [
  "allocation",
  "entitlement",
  "demand",
  "excess",
  "remaining",
  "victim",
] as const;

export const CSV_HEADER: readonly string[] = [
  "id",
  "time",
  "kind",
  "victim_job_id",
  "victim_job",
  "victim_instance",
  "victim_run",
  "victim_task_id",
  "victim_priority",
  "victim_state",
  "victim_state_after",
  "victim_pool",
  "beneficiary_pool",
  "beneficiary_job_id",
  "beneficiary_job",
  "beneficiary_instance",
  "beneficiary_priority",
  "level",
  "resource_class",
  "rank",
  ...NUMBER_COLUMNS.flatMap((n) => RESOURCE_KINDS.map((k) => `${n}_${k}`)),
  "rescheduled_at",
  "rescheduled_run",
  "reason",
];

/**
 * RFC 4180 quoting; and a text cell that a spreadsheet would run as a
 * formula (=, +, -, @ first) gets a leading apostrophe (job names are user
 * input).
 */
function cell(v: string | number | null): string {
  if (v === null) return "";
  if (typeof v === "number") return String(v);
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvRow(p: PreemptionRecord): string {
  const b = p.beneficiary;
  const numbers = NUMBER_COLUMNS.flatMap((n) =>
    RESOURCE_KINDS.map((k) => (p.numbers[n] as Amounts)[k]),
  );
  return [
    p.id,
    p.at.toISOString(),
    p.kind,
    p.victim.jobId,
    p.victim.jobName,
    p.victim.instanceId,
    p.victim.runId,
    p.victim.taskId,
    p.victim.priority,
    p.victim.state,
    p.victim.stateAfter,
    p.victim.poolPath,
    b?.poolPath ?? null,
    b?.task?.jobId ?? null,
    b?.task?.jobName ?? null,
    b?.task?.instanceId ?? null,
    b?.priority ?? null,
    p.level,
    p.numbers.resourceClass,
    p.numbers.rank,
    ...numbers,
    p.rescheduled?.at.toISOString() ?? null,
    p.rescheduled?.runId ?? null,
    p.reason,
  ]
    .map(cell)
    .join(",");
}

/** The CSV text, header first, one chunk per keyset batch. */
export function preemptionsCsv(
  gateway: ReadOnlyGateway,
  filters: PreemptionFilters,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const batches = gateway.preemptions.exportBatches(filters, 1000);
  let headerSent = false;
  return new ReadableStream({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(`${CSV_HEADER.map(cell).join(",")}\r\n`));
        return;
      }
      const next = await batches.next();
      if (next.done) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(next.value.map((p) => `${csvRow(p)}\r\n`).join("")));
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
}

const slug = (path: string) => path.replace(/^\//, "").replace(/[^A-Za-z0-9_.-]+/g, "-") || "root";
const stamp = (d: Date) => d.toISOString().slice(0, 16).replace(/[-:]/g, "").replace("T", "-");

/**
 * "preemptions-web-inter-pool-20261123-1015.csv": what was selected and when
 * it was exported (UTC), so files saved from different views never collide.
 */
export function csvFilename(f: PreemptionFiltersValue, now: Date): string {
  const parts = ["preemptions"];
  if (f.pool) parts.push(slug(f.pool) + (f.subtree ? "-and-below" : ""));
  if (f.job)
    parts.push(`job-${f.job.slice(0, 8)}${f.instance !== undefined ? `-${f.instance}` : ""}`);
  if (f.kind) parts.push(f.kind === "INTER_POOL" ? "inter-pool" : "intra-pool");
  parts.push(stamp(now));
  return `${parts.join("-")}.csv`;
}
