/**
 * `peloton task …`: Peloton's task commands over the API.
 *
 *   list <job> [-r FROM:TO]            Peloton's task table, every instance (or a range)
 *   get <job> <instance>               the same row for one instance
 *   logs <job> <instance> [taskId]     a run's stdout (or stderr), whole or followed
 *   stop | start | restart <job> [-r FROM:TO …]
 */
import type { Command } from "commander";
import type { ApiClient } from "../api-client.ts";
import { CliError } from "../errors.ts";
import { apiRanges, collectRange, goList, type RangeArg } from "../jobs/instance-ranges.ts";
import { taskOptions } from "../options.ts";
import { formatTable } from "../output.ts";
import { allPages } from "../pages.ts";
import { followLog, printLog } from "../tasks/task-logs.ts";
import { TASK_LIST_HEADER, taskListRow } from "../tasks/task-table.ts";

const JOB_ARG = "job identifier";
const RANGE_HELP = "range of instances FROM:TO (TO excluded; repeatable; default all)";

export interface TaskIo {
  print: (s: string) => void;
  /** Output as it comes (logs), no newline added. */
  write: (s: string) => void;
  warn: (s: string) => void;
}

const instanceOf = taskOptions.instance;

export function registerTask(program: Command, client: () => ApiClient, io: TaskIo): void {
  const task = program.command("task").description("manage tasks");

  task
    .command("list")
    .description("show the tasks of a job")
    .argument("<job>", JOB_ARG)
    .option("-r, --range <from:to>", "show a range of instances (FROM:TO, TO excluded)")
    .option("--json", "print JSON")
    .action(async (jobId: string, opts: { range?: string; json?: boolean }) => {
      const range = opts.range ? collectRange(opts.range)[0]! : undefined;
      const items = await allPages(
        (cursor, limit) =>
          client().tasks.list.query({
            jobId,
            ...(range && range.from > 0 ? { instanceFrom: range.from } : {}),
            ...(range?.to !== undefined ? { instanceTo: range.to - 1 } : {}),
            limit,
            cursor,
          }),
        { pageSize: 1000 },
      );
      if (opts.json) io.print(JSON.stringify(items, null, 2));
      else {
        const now = new Date();
        io.print(
          formatTable(
            TASK_LIST_HEADER,
            items.map((t) => taskListRow(t, now)),
          ),
        );
      }
    });

  task
    .command("get")
    .description("show a task's status")
    .argument("<job>", JOB_ARG)
    .argument("<instance>", "job instance id")
    .option("--json", "print JSON (with every run of the instance)")
    .action(async (jobId: string, instance: string, opts: { json?: boolean }) => {
      const t = await client().tasks.get.query({ jobId, instance: instanceOf(instance) });
      if (opts.json) io.print(JSON.stringify(t, null, 2));
      else io.print(formatTable(TASK_LIST_HEADER, [taskListRow(t, new Date())]));
    });

  task
    .command("logs")
    .description("show a task's logs (the current run, or the run of a task id)")
    .argument("<job>", JOB_ARG)
    .argument("<instance>", "job instance id")
    .argument("[taskId]", "the cluster task id of an earlier run")
    .option("-f, --filename <file>", "log file: stdout or stderr", "stdout")
    .option("--run <n>", "an earlier run of the instance, by number")
    .option("--follow", "keep printing new output until the run ends (Ctrl-C stops)")
    .action(
      async (
        jobId: string,
        instanceText: string,
        taskId: string | undefined,
        opts: { filename: string; run?: string; follow?: boolean },
      ) => {
        const file = taskOptions.filename(opts.filename);
        const instance = instanceOf(instanceText);
        let run = taskOptions.run(opts.run);
        if (taskId) {
          const t = await client().tasks.get.query({ jobId, instance });
          const found = t.runs.find((r) => r.clusterTaskId === taskId);
          if (!found)
            throw new CliError(
              `instance ${instance} of job ${jobId} has no run with task id ${taskId}`,
            );
          run = found.runId;
        }
        const target = { jobId, instance, run, file } as const;
        if (opts.follow) await followLog(client(), target, io);
        else await printLog(client(), target, io.write);
      },
    );

  const action = (name: "stop" | "start" | "restart", description: string) =>
    task
      .command(name)
      .description(description)
      .argument("<job>", JOB_ARG)
      .option("-r, --range <from:to>", RANGE_HELP, collectRange, [] as RangeArg[])
      .option("--json", "print JSON")
      .action(async (jobId: string, opts: { range: RangeArg[]; json?: boolean }) => {
        const api = client();
        const instances =
          opts.range.length > 0
            ? apiRanges(opts.range, (await api.jobs.get.query({ id: jobId })).instanceCount)
            : undefined;
        const r = await api.tasks[name].mutate({ jobId, ...(instances ? { instances } : {}) });
        if (opts.json) io.print(JSON.stringify(r, null, 2));
        else if (name === "stop")
          io.print(`Successfully signalled ${r.instances.length} tasks for stopping`);
        else if (name === "start")
          io.print(
            `Tasks started successfully for instances: ${goList(r.instances)} and failed instances are: []`,
          );
        else io.print(`Job restarted: instances ${goList(r.instances)} get a new run`);
      });
  action(
    "stop",
    "stop tasks of a job (every task when no range is given; stopping every task sets the job's goal to KILLED)",
  );
  action("start", "start stopped tasks of a job again, each as a new run");
  action("restart", "restart tasks of a job, each as a new run");
}
