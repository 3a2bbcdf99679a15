import { VOLUME_SORT_NAMES, VOLUME_STATES } from "@peloton/api/schemas";
import { formatMegabytes } from "@peloton/engine/format";
import type { Command } from "commander";
import type { ApiClient } from "../api-client.ts";
import { volumeList } from "../options.ts";
import { formatTable } from "../output.ts";
import { allPages } from "../pages.ts";

const size = (mb: number) => formatMegabytes(mb, 2);

/** `peloton volume list`: the persistent volumes of stateful instances, as the console's /volumes shows them. */
export function registerVolume(
  program: Command,
  client: () => ApiClient,
  print: (s: string) => void,
): void {
  const volume = program
    .command("volume")
    .description("list the persistent volumes of stateful jobs' instances");

  volume
    .command("list")
    .description("list volumes: job, instance, host, size, container path and state")
    .option("-j, --job <id>", "only this job's volumes")
    .option("--host <hostname>", "only the volumes on this host")
    .option(
      "-s, --state <states>",
      `only these states, comma-separated (${VOLUME_STATES.join(", ")}; default: all but DELETED)`,
    )
    .option("-q, --query <text>", "only volumes whose id or job name contains this text")
    .option("--sort <key>", VOLUME_SORT_NAMES.join(", "), "job")
    .option("--desc", "sort descending")
    .option("--json", "print JSON")
    .action(
      async (opts: {
        job?: string;
        host?: string;
        state?: string;
        query?: string;
        sort: string;
        desc?: boolean;
        json?: boolean;
      }) => {
        const states = volumeList.states(opts.state);
        const sort = volumeList.sort(opts.sort);
        const host = volumeList.host(opts.host);
        const jobId = volumeList.job(opts.job);
        const items = await allPages(
          (cursor, limit) =>
            client().volumes.list.query({
              states,
              ...(host ? { host } : {}),
              ...(jobId ? { jobId } : {}),
              text: volumeList.query(opts.query),
              sort,
              order: opts.desc ? "desc" : "asc",
              limit,
              cursor,
            }),
          { pageSize: 500 },
        );
        if (opts.json) {
          print(JSON.stringify(items, null, 2));
          return;
        }
        if (items.length === 0) {
          print("No volumes match.");
          return;
        }
        print(
          formatTable(
            ["Volume ID", "Job", "Instance", "Host", "Size", "Container Path", "State"],
            items.map((v) => [
              v.id,
              v.jobName,
              String(v.instanceId),
              v.hostname,
              size(v.sizeMb),
              v.containerPath,
              v.state,
            ]),
          ),
        );
      },
    );
}
