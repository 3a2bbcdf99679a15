import type { Command } from "commander";
import type { ApiClient } from "../api-client.ts";
import { formatTable } from "../output.ts";

const byCount = (m: Partial<Record<string, number>>) =>
  Object.entries(m)
    .filter(([, n]) => (n ?? 0) > 0)
    .map(([s, n]) => `${s}=${n}`)
    .join(" ") || "-";

/** `peloton cluster`: the overview page's figures on the command line. */
export function registerCluster(
  program: Command,
  client: () => ApiClient,
  print: (s: string) => void,
): void {
  program
    .command("cluster")
    .description("show the cluster at a glance: pools, jobs, tasks and hosts by state, capacity")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const s = await client().overview.summary.query();
      if (opts.json) {
        print(JSON.stringify(s, null, 2));
        return;
      }
      print(
        formatTable(
          ["What", "Count", "By state"],
          [
            ["Pools", String(s.pools), "-"],
            ["Jobs", String(s.jobs), byCount(s.jobsByState)],
            ["Tasks", String(s.tasks), byCount(s.tasksByState)],
            ["Hosts", String(s.hosts), byCount(s.hostsByState)],
          ],
        ),
      );
    });
}
