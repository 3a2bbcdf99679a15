/**
 * `peloton job …`: Peloton's job commands over the API.
 *
 *   create <respool> <config>   Peloton's job YAML into a leaf pool; prints the job id
 *   get <job> / status <job>    its JobInfo / RuntimeInfo (YAML, or --json)
 *   query                       jobs by pool, state, owner, label, name (Peloton's summary table)
 *   stop [job] [--batch-size N] one job (a batch at a time: a rolling stop), or every active job of an owner or with labels
 *   start | restart <job> [--batch-size N]   all at once, or a batch at a time (an update of kind START / RESTART)
 *   delete <job>, scale <job> <instances>
 */
import { readFileSync } from "node:fs";
import { JOB_SORT_NAMES } from "@peloton/api/schemas";
import type { Command } from "commander";
import type { ApiClient } from "../api-client.ts";
import { CliError, describeError, isFileError } from "../errors.ts";
import {
  formatDocument,
  JOB_QUERY_HEADER,
  jobGetResponse,
  jobQueryRow,
  runtimeInfo,
} from "../jobs/job-info.ts";
import { confirm, parseSort } from "../jobs/query-options.ts";
import { jobBatch, jobQuery, jobScale } from "../options.ts";
import { formatTable } from "../output.ts";
import { stopJobs } from "./job-stop.ts";

const JOB_ARG = "job identifier";

/** A rolling restart or start is an update of its own kind: its id is what `update get` takes. */
function rollingLine(
  jobId: string,
  what: "restart" | "start" | "stop",
  updateId: string,
  batchSize: number | undefined,
): string {
  return `Job ${jobId} rolling ${what} ${updateId} created (batches of ${batchSize}); follow it with \`peloton update get ${updateId}\``;
}

export function registerJob(
  program: Command,
  client: () => ApiClient,
  print: (s: string) => void,
): void {
  const job = program.command("job").description("manage jobs");

  job
    .command("create")
    .description("create a job from Peloton's job YAML; prints its id")
    .argument("<respool>", "complete path of the resource pool starting from the root")
    .argument("<config>", "YAML job configuration")
    .option("--json", "print Peloton's JSON response")
    .action(async (pool: string, file: string, opts: { json?: boolean }) => {
      let yaml: string;
      try {
        yaml = readFileSync(file, "utf8");
      } catch (err) {
        throw new CliError(`unable to open file ${file}: ${(err as Error).message}`);
      }
      const created = await client()
        .jobs.create.mutate({ pool, yaml })
        .catch((err: unknown) => {
          // Problems in the file name the file, then the field and its line.
          throw isFileError(err) ? new CliError(`${file}: ${describeError(err, "")}`) : err;
        });
      print(
        opts.json ? JSON.stringify({ jobId: { value: created.id } }) : `Job ${created.id} created`,
      );
    });

  job
    .command("get")
    .description("get a job: its config and runtime")
    .argument("<job>", JOB_ARG)
    .option("--json", "print JSON instead of YAML")
    .action(async (id: string, opts: { json?: boolean }) => {
      const detail = await client().jobs.get.query({ id });
      print(formatDocument(jobGetResponse(detail), opts.json));
    });

  job
    .command("status")
    .description("get a job's status (its runtime: state, task counts, times)")
    .argument("<job>", JOB_ARG)
    .option("--json", "print JSON instead of YAML")
    .action(async (id: string, opts: { json?: boolean }) => {
      const detail = await client().jobs.get.query({ id });
      print(formatDocument(runtimeInfo(detail), opts.json));
    });

  job
    .command("query")
    .description("query jobs by labels, resource pool, states, owner and name")
    .option("-l, --labels <labels>", "labels every job must have: key=value,key=value")
    .option("-r, --respool <path>", "resource pool path")
    .option("-s, --states <states>", "job states, comma-separated (RUNNING,PENDING,…)")
    .option("--owner <owner>", "job owner")
    .option("--name <name>", "part of the job name")
    .option("-n, --limit <n>", "maximum number of jobs to return", "100")
    .option(
      "-p, --sort <property>",
      `sort by property (creation_time, update_time, ${JOB_SORT_NAMES.join(", ")})`,
      "creation_time",
    )
    .option("-a, --sortorder <order>", "sort order (ASC or DESC)", "DESC")
    .option("--json", "print JSON")
    .action(
      async (opts: {
        labels?: string;
        respool?: string;
        states?: string;
        owner?: string;
        name?: string;
        limit: string;
        sort: string;
        sortorder: string;
        json?: boolean;
      }) => {
        const pool = jobQuery.respool(opts.respool);
        const owner = jobQuery.owner(opts.owner);
        const page = await client().jobs.list.query({
          states: jobQuery.states(opts.states),
          ...(pool ? { pool } : {}),
          ...(owner ? { owner } : {}),
          text: jobQuery.name(opts.name),
          labels: jobQuery.labels(opts.labels),
          ...parseSort(opts.sort, opts.sortorder),
          limit: jobQuery.limit(opts.limit),
        });
        if (opts.json) {
          print(JSON.stringify(page.items, null, 2));
          return;
        }
        if (page.items.length === 0) {
          print("No jobs found.");
          return;
        }
        print(formatTable(JOB_QUERY_HEADER, page.items.map(jobQueryRow)));
      },
    );

  job
    .command("stop")
    .description("stop a job, or every active job of an owner or with labels")
    .argument("[job]", JOB_ARG)
    .option("--owner <owner>", "stop the active jobs of this owner")
    .option("-l, --labels <labels>", "stop the active jobs with these labels: key=value,…")
    .option("-f, --force", "do not ask before stopping several jobs")
    .option("--batch-size <n>", "stop one job's instances a batch at a time (a rolling stop)")
    .action(
      async (
        id: string | undefined,
        opts: { owner?: string; labels?: string; force?: boolean; batchSize?: string },
      ) => {
        const batchSize = jobBatch.size(opts.batchSize);
        if (batchSize !== undefined) {
          if (!id || opts.owner || opts.labels)
            throw new CliError(
              "--batch-size: a rolling stop is of one job: name it, without --owner or --labels",
            );
          const r = await client().jobs.stop.mutate({ id, batchSize });
          print(rollingLine(r.id, "stop", r.updateId ?? "", batchSize));
          return;
        }
        await stopJobs(client(), print, {
          id,
          owner: jobQuery.owner(opts.owner),
          labels: jobQuery.labels(opts.labels),
          confirm: opts.force
            ? async () => true
            : () => confirm("The above jobs will be stopped. Are you sure you want to continue?"),
        });
      },
    );

  job
    .command("start")
    .description("start a stopped job again (ended instances get a new run)")
    .argument("<job>", JOB_ARG)
    .option("--batch-size <n>", "start the instances a batch at a time (a rolling start)")
    .action(async (id: string, opts: { batchSize?: string }) => {
      const batchSize = jobBatch.size(opts.batchSize);
      const r = await client().jobs.start.mutate({ id, ...(batchSize ? { batchSize } : {}) });
      print(
        r.updateId
          ? rollingLine(r.id, "start", r.updateId, batchSize)
          : `Job ${r.id} started: ${r.instances.length} instances get a new run (version ${r.version})`,
      );
    });

  job
    .command("restart")
    .description(
      "restart every instance of a job (running ones are killed first); with --batch-size, a batch at a time",
    )
    .argument("<job>", JOB_ARG)
    .option("--batch-size <n>", "restart the instances a batch at a time (a rolling restart)")
    .action(async (id: string, opts: { batchSize?: string }) => {
      const batchSize = jobBatch.size(opts.batchSize);
      const r = await client().jobs.restart.mutate({ id, ...(batchSize ? { batchSize } : {}) });
      print(
        r.updateId
          ? rollingLine(r.id, "restart", r.updateId, batchSize)
          : `Job ${r.id} restarted: ${r.instances.length} instances get a new run (version ${r.version})`,
      );
    });

  job
    .command("delete")
    .description("delete a job: its instances are killed, then it and they are marked DELETED")
    .argument("<job>", JOB_ARG)
    .action(async (id: string) => {
      const r = await client().jobs.delete.mutate({ id });
      print(`Job ${r.id} deleted`);
    });

  job
    .command("scale")
    .description("change a job's instance count")
    .argument("<job>", JOB_ARG)
    .argument("<instances>", "the new instance count")
    .action(async (id: string, count: string) => {
      const instanceCount = jobScale.instances(count);
      const r = await client().jobs.scale.mutate({ id, instanceCount });
      print(`Job ${r.id} scaled to ${count} instances (version ${r.version})`);
    });
}
