import { HOST_STATES } from "@peloton/api/schemas";
import { formatResourcePair } from "@peloton/engine/format";
import type { Command } from "commander";
import type { ApiClient } from "../api-client.ts";
import { hostList } from "../options.ts";
import { formatTable } from "../output.ts";
import { allPages } from "../pages.ts";

const n = (v: number) => String(Math.round(v * 100) / 100);

/**
 * `peloton host list | drain <hostname> | up <hostname>` (Peloton's `host`
 * commands: maintenance start/complete become drain/up here).
 */
export function registerHost(
  program: Command,
  client: () => ApiClient,
  print: (s: string) => void,
): void {
  const host = program
    .command("host")
    .description("list hosts, drain them for maintenance, bring them back");

  host
    .command("list")
    .description("list hosts with their state, resources (allocated/total) and task count")
    .option(
      "-s, --state <states>",
      `only these states, comma-separated (${HOST_STATES.join(", ")})`,
    )
    .option("-z, --zone <zone>", "only hosts of this zone attribute")
    .option("-q, --query <text>", "only hostnames containing this text")
    .option(
      "--sort <key>",
      "hostname, state, cpu, memMb, diskMb, gpu, tasks or lastSeenAt",
      "hostname",
    )
    .option("--desc", "sort descending")
    .option("--limit <n>", "hosts per page (the whole list is fetched page by page)", "500")
    .option("--json", "print JSON")
    .action(
      async (opts: {
        state?: string;
        zone?: string;
        query?: string;
        sort: string;
        desc?: boolean;
        limit: string;
        json?: boolean;
      }) => {
        const states = hostList.states(opts.state);
        const pageSize = hostList.limit(opts.limit);
        const items = await allPages(
          (cursor, limit) =>
            client().hosts.list.query({
              states,
              attributes: opts.zone ? { zone: opts.zone } : {},
              text: opts.query ?? "",
              sort: opts.sort as "hostname",
              order: opts.desc ? "desc" : "asc",
              limit,
              cursor,
            }),
          { pageSize },
        );
        if (opts.json) {
          print(JSON.stringify(items, null, 2));
          return;
        }
        if (items.length === 0) {
          print("No hosts match.");
          return;
        }
        print(
          formatTable(
            ["Hostname", "State", "CPU", "Memory", "Disk", "GPU", "Tasks", "Zone", "Agent ID"],
            items.map((h) => [
              h.hostname,
              h.state,
              `${n(h.allocated.cpu)}/${n(h.cpu)}`,
              formatResourcePair("memory", h.allocated.memMb, h.memMb),
              formatResourcePair("disk", h.allocated.diskMb, h.diskMb),
              h.gpu > 0 ? `${n(h.allocated.gpu)}/${n(h.gpu)}` : "-",
              String(h.tasks),
              h.attributes.zone ?? "-",
              h.agentId,
            ]),
          ),
        );
      },
    );

  host
    .command("drain <hostname>")
    .description("stop placing new tasks on a host; it becomes DRAINED once its tasks are gone")
    .option("-r, --reason <text>", "why (kept in the audit log)")
    .action(async (hostname: string, opts: { reason?: string }) => {
      const h = await client().hosts.drain.mutate({ hostname, reason: opts.reason ?? "" });
      print(`${h.hostname} is ${h.state} (${h.tasks} task${h.tasks === 1 ? "" : "s"} on it)`);
    });

  host
    .command("up <hostname>")
    .description("bring a drained or draining host back: new tasks may be placed on it")
    .option("-r, --reason <text>", "why (kept in the audit log)")
    .action(async (hostname: string, opts: { reason?: string }) => {
      const h = await client().hosts.up.mutate({ hostname, reason: opts.reason ?? "" });
      print(`${h.hostname} is ${h.state}`);
    });
}
