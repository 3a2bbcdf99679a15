/**
 * `peloton preemption list | get <id>`: the preemption history the console's
 * /preemptions page shows, with the same filters (the API's schema judges
 * them, so a bad one fails with the field and the rule).
 */
import {
  PREEMPTION_KIND_LABELS,
  type PreemptionFiltersInput,
  type PreemptionKind,
  preemptionFiltersToQuery,
} from "@peloton/api/schemas";
import { formatElapsed, formatMegabytes } from "@peloton/engine/format";
import type { Command } from "commander";
import type { ApiClient } from "../api-client.ts";
import { CliError } from "../errors.ts";
import { formatTable } from "../output.ts";

type Page = Awaited<ReturnType<ApiClient["preemptions"]["list"]["query"]>>;
type Preemption = Page["items"][number];

/** The spellings the command line accepts for each kind. */
const KINDS: Record<string, PreemptionKind> = {
  inter: "INTER_POOL",
  "inter-pool": "INTER_POOL",
  inter_pool: "INTER_POOL",
  intra: "INTRA_POOL",
  "intra-pool": "INTRA_POOL",
  intra_pool: "INTRA_POOL",
};

interface ListOptions {
  pool?: string;
  side?: string;
  subtree?: boolean;
  job?: string;
  instance?: string;
  task?: string;
  kind?: string;
  since?: string;
  until?: string;
  limit: string;
  json?: boolean;
  csv?: boolean;
}

function filtersOf(o: ListOptions): PreemptionFiltersInput {
  let kind: "INTER_POOL" | "INTRA_POOL" | undefined;
  if (o.kind !== undefined) {
    kind = KINDS[o.kind.toLowerCase()];
    if (!kind) throw new CliError(`--kind: inter or intra (got "${o.kind}")`);
  }
  let instance: number | undefined;
  if (o.instance !== undefined) {
    if (!/^\d+$/.test(o.instance))
      throw new CliError(`--instance: a whole number (got "${o.instance}")`);
    instance = Number(o.instance);
  }
  return {
    pool: o.pool,
    side: (o.side ?? "either") as PreemptionFiltersInput["side"],
    subtree: o.subtree ?? false,
    job: o.job,
    instance,
    task: o.task,
    kind,
    since: o.since,
    until: o.until,
  };
}

const time = (d: Date) => `${d.toISOString().slice(0, 19)}Z`;
const task = (t: { jobName: string; instanceId: number }) => `${t.jobName}/${t.instanceId}`;

function beneficiary(p: Preemption): string {
  const b = p.beneficiary;
  if (!b) return "-";
  if (b.task) return `${task(b.task)} (priority ${b.priority ?? "?"})`;
  return b.poolPath;
}

/** Whether the victim came back, in a few words. */
function cameBack(p: Preemption): string {
  if (p.rescheduled)
    return `after ${formatElapsed(p.rescheduled.at.getTime() - p.at.getTime())} (run ${p.rescheduled.runId})`;
  if (!p.taskNow) return "task deleted";
  return `not yet (${p.taskNow.state})`;
}

const n = (v: number) => String(Math.round(v * 100) / 100);
const KIND_UNITS = [
  ["cpu", "cores", (v: number) => n(v)],
  ["memory", "memory", (v: number) => formatMegabytes(v, 2)],
  ["disk", "disk", (v: number) => formatMegabytes(v, 2)],
  ["gpu", "GPUs", (v: number) => n(v)],
] as const;

function details(p: Preemption): string {
  const facts: [string, string][] = [
    ["Preemption", p.id],
    ["Time", time(p.at)],
    ["Kind", `${PREEMPTION_KIND_LABELS[p.kind]} (${p.kind})`],
    [
      "Victim",
      `${task(p.victim)} run ${p.victim.runId}, priority ${p.victim.priority}, job ${p.victim.jobId}`,
    ],
    ["Victim state", `${p.victim.state} → ${p.victim.stateAfter}`],
    ["Victim pool", p.victim.poolPath],
    ["Beneficiary", beneficiary(p)],
    ["Level", p.level ?? "-"],
    ["Resource class", p.numbers.resourceClass === "SLACK" ? "slack (revocable)" : "non-slack"],
    ["Rank", `${p.numbers.rank} among the pool's candidates`],
    ["Came back", cameBack(p)],
    ["Reason", p.reason],
  ];
  const width = Math.max(...facts.map(([k]) => k.length));
  const nums = p.numbers;
  const rows = KIND_UNITS.filter(([k]) =>
    [nums.allocation, nums.entitlement, nums.demand, nums.excess, nums.victim].some(
      (r) => r[k] > 0,
    ),
  ).map(([k, unit, fmt]) => [
    unit,
    fmt(nums.allocation[k]),
    fmt(nums.entitlement[k]),
    fmt(nums.demand[k]),
    fmt(nums.excess[k]),
    fmt(nums.remaining[k]),
    fmt(nums.victim[k]),
  ]);
  const out = [
    facts.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join("\n"),
    "",
    formatTable(
      ["Kind", "Allocation", "Entitlement", "Demand", "Excess", "Still to free", "Victim held"],
      rows,
    ),
  ];
  if (nums.beneficiaries.length > 0) {
    // A pool that waited, or one whose demand took the entitlement (with what it had before).
    out.push(
      "",
      formatTable(
        [
          "For pool",
          "Why",
          "Level",
          "Demand (cores)",
          "Allocation (cores)",
          "Entitlement before (cores)",
          "Entitlement (cores)",
        ],
        nums.beneficiaries.map((b) => [
          b.pool,
          b.entitlementBefore ? "took the entitlement" : "waited",
          b.level,
          n(b.demand.cpu),
          n(b.allocation.cpu),
          b.entitlementBefore ? n(b.entitlementBefore.cpu) : "-",
          n(b.entitlement.cpu),
        ]),
      ),
    );
  }
  return out.join("\n");
}

export function registerPreemption(
  program: Command,
  client: () => ApiClient,
  print: (s: string) => void,
  io: { baseUrl: () => string; write: (chunk: string) => void },
): void {
  const preemption = program
    .command("preemption")
    .description("the preemption history: which task was preempted, for whom, by which rule");

  preemption
    .command("list")
    .description("list preemptions, newest first")
    .option("-p, --pool <path>", "only preemptions involving this pool")
    .option(
      "--side <side>",
      "the pool's side: either (in and out), victim or beneficiary",
      "either",
    )
    .option("--subtree", "include the pools below --pool")
    .option("-j, --job <id>", "only victims of this job")
    .option("-i, --instance <n>", "only this instance of --job")
    .option("-t, --task <id>", "only this task")
    .option("-k, --kind <kind>", "inter (inter-pool fairness) or intra (intra-pool priority)")
    .option("--since <time>", "from this ISO time, or this long ago (30m, 24h, 7d)")
    .option("--until <time>", "to this ISO time, or this long ago")
    .option("-n, --limit <n>", "at most this many rows (newest first); 0 for all", "50")
    .option("--json", "print JSON")
    .option("--csv", "print CSV (every matching row; the console's export)")
    .action(async (opts: ListOptions) => {
      const filters = filtersOf(opts);
      if (opts.csv) {
        await streamCsv(io, filters);
        return;
      }
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 0)
        throw new CliError(`--limit: a whole number ≥ 0 (got "${opts.limit}")`);
      const items: Preemption[] = [];
      let cursor: string | null = null;
      do {
        const want = limit === 0 ? 500 : Math.min(500, limit - items.length);
        const page: Page = await client().preemptions.list.query({
          ...filters,
          limit: want,
          cursor,
        });
        items.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor && (limit === 0 || items.length < limit));
      if (opts.json) {
        print(JSON.stringify(items, null, 2));
        return;
      }
      if (items.length === 0) {
        print("No preemptions match.");
        return;
      }
      print(
        formatTable(
          [
            "Time",
            "Kind",
            "Victim task",
            "Victim pool",
            "Beneficiary",
            "Level",
            "Came back",
            "Reason",
          ],
          items.map((p) => [
            time(p.at),
            p.kind === "INTER_POOL" ? "inter-pool" : "intra-pool",
            task(p.victim),
            p.victim.poolPath,
            beneficiary(p),
            p.level ?? "-",
            cameBack(p),
            p.reason,
          ]),
        ),
      );
      if (cursor) print(`(newest ${items.length} shown; --limit 0 lists all)`);
    });

  preemption
    .command("get <id>")
    .description("one preemption: the rule in words and the numbers per kind")
    .option("--json", "print JSON")
    .action(async (id: string, opts: { json?: boolean }) => {
      const p = await client().preemptions.get.query({ id });
      print(opts.json ? JSON.stringify(p, null, 2) : details(p));
    });
}

/** The console's CSV export for the same filters, streamed to stdout. */
async function streamCsv(
  io: { baseUrl: () => string; write: (chunk: string) => void },
  filters: PreemptionFiltersInput,
): Promise<void> {
  const query = preemptionFiltersToQuery(filters).toString();
  const res = await fetch(`${io.baseUrl()}/api/preemptions.csv${query ? `?${query}` : ""}`);
  if (!res.ok || !res.body)
    throw new CliError((await res.text()).trim() || `export failed (HTTP ${res.status})`);
  const decoder = new TextDecoder();
  for await (const chunk of res.body) io.write(decoder.decode(chunk, { stream: true }));
}
