/**
 * `peloton update …`: Peloton's job update commands (cmd/cli/main.go,
 * pkg/cli/update_actions.go) over the API.
 *
 *   create <job> <config> <batch-size> <respool> [flags]   a new configuration in rolling batches; prints the update id
 *   get <update-id>                                       its state and counts
 *   list <job>                                            the job's updates, newest first
 *   pause | resume | abort <update-id>
 *   rollback <update-id>                                  ours: back to the version it started from, by the same batches
 */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import type { ApiClient } from "../api-client.ts";
import { CliError, describeError, isFileError } from "../errors.ts";
import { updateCreate } from "../options.ts";
import { formatTable } from "../output.ts";
import { allPages } from "../pages.ts";
import {
  UPDATE_LIST_HEADER,
  updateActed,
  updateCreated,
  updateRow,
} from "../updates/update-table.ts";

const JOB_ARG = "job identifier";
const UPDATE_ARG = "update identifier";

interface CreateFlags {
  configurationVersion?: string;
  override?: boolean;
  maxattempts: string;
  maxfailureInstances: string;
  rollbackOnFailure?: boolean;
  startPaused?: boolean;
  inPlace?: boolean;
  json?: boolean;
}

export function registerUpdate(
  program: Command,
  client: () => ApiClient,
  print: (s: string) => void,
): void {
  const update = program.command("update").description("manage job updates");

  update
    .command("create")
    .description("create a new job update: the job's new configuration, rolled out in batches")
    .argument("<job>", JOB_ARG)
    .argument("<config>", "YAML job configuration")
    .argument("<batch-size>", "batch size for the update")
    .argument("<respool>", "complete path of the resource pool starting from the root")
    .option("-c, --configuration-version <version>", "current configuration version")
    .option("-o, --override", "override the existing update")
    .option(
      "--maxattempts <n>",
      "maximum retry attempts to bring up the instance after updating before marking it failed (0: no limit)",
      "0",
    )
    .option(
      "--maxfailureInstances <n>",
      "maximum number of instance failures tolerable before failing the update (0: no limit)",
      "0",
    )
    .option("--rollbackOnFailure", "rollback an update if it fails")
    .option("--start-paused", "start the update in a paused state")
    .option("--in-place", "start the update with best effort in-place update")
    .option("--json", "print the API's answer as JSON")
    .action(
      async (jobId: string, file: string, batch: string, respool: string, opts: CreateFlags) => {
        // Every value is checked before the file is read or anything is asked.
        const options = {
          batchSize: updateCreate.batchSize(batch),
          maxInstanceAttempts: updateCreate.maxAttempts(opts.maxattempts),
          maxFailureInstances: updateCreate.maxFailureInstances(opts.maxfailureInstances),
          rollbackOnFailure: opts.rollbackOnFailure ?? false,
          startPaused: opts.startPaused ?? false,
          inPlace: opts.inPlace ?? false,
        };
        const configVersion = updateCreate.configVersion(opts.configurationVersion);
        let yaml: string;
        try {
          yaml = readFileSync(file, "utf8");
        } catch (err) {
          throw new CliError(`unable to open file ${file}: ${(err as Error).message}`);
        }
        // An update keeps the job in its pool (Peloton refuses a change of RespoolID).
        const job = await client().jobs.get.query({ id: jobId });
        if (job.poolPath !== respool)
          throw new CliError(
            `respool: job ${jobId} runs in ${job.poolPath}; an update cannot move it to ${respool}`,
          );
        const created = await client()
          .updates.create.mutate({
            jobId,
            yaml,
            options,
            ...(configVersion !== undefined ? { configVersion } : {}),
            ...(opts.override ? { override: true } : {}),
          })
          .catch((err: unknown) => {
            // Problems in the file name the file, then the field and its line.
            throw isFileError(err) ? new CliError(`${file}: ${describeError(err, "")}`) : err;
          });
        print(
          opts.json
            ? JSON.stringify(created, null, 2)
            : updateCreated(created.updateId, created.overriddenUpdateId),
        );
      },
    );

  update
    .command("get")
    .description("get status of a job update")
    .argument("<update-id>", UPDATE_ARG)
    .option("--json", "print JSON (with its batches and options)")
    .action(async (id: string, opts: { json?: boolean }) => {
      const u = await client().updates.get.query({ id });
      print(
        opts.json ? JSON.stringify(u, null, 2) : formatTable(UPDATE_LIST_HEADER, [updateRow(u)]),
      );
    });

  update
    .command("list")
    .description("list status of all updates for a given job, newest first")
    .argument("<job>", JOB_ARG)
    .option("--json", "print JSON")
    .action(async (jobId: string, opts: { json?: boolean }) => {
      const items = await allPages(
        (cursor, limit) => client().updates.list.query({ jobId, limit, cursor }),
        { pageSize: 100 },
      );
      if (opts.json) print(JSON.stringify(items, null, 2));
      else if (items.length === 0) print(`Job ${jobId} has no updates.`);
      else print(formatTable(UPDATE_LIST_HEADER, items.map(updateRow)));
    });

  const verbs = [
    ["pause", "pause a job update"],
    ["resume", "resume a paused job update"],
    ["abort", "abort a job update"],
    [
      "rollback",
      "roll a job update back: instances return to the version it started from, in the same batches",
    ],
  ] as const;
  for (const [verb, description] of verbs) {
    update
      .command(verb)
      .description(description)
      .argument("<update-id>", UPDATE_ARG)
      .action(async (id: string) => {
        const u = await client().updates[verb].mutate({ id });
        print(updateActed(verb, u));
      });
  }
}
