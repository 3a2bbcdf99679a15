import { HOST_STATES } from "@peloton/api/schemas";
import { formatResourcePair } from "@peloton/engine/format";
import type { Command } from "commander";
import type { ApiClient } from "../api-client.ts";
import { hostList } from "../options.ts";
import { formatTable } from "../output.ts";
import { allPages } from "../pages.ts";

const n = (v: number) => String(Math.round(v * 100) / 100);

/**
 * `peloton host list | query [-s states] | maintenance start|complete
 * <hostname> [-r reason]` (Peloton's `host` commands; `drain` and `up` are
 * the older names of maintenance start and complete).
 */
export function registerHost(
  program: Command,
  client: () => ApiClient,
  print: (s: string) => void,
): void {
  const host = program
    .command("host")
    .description("list and query hosts, start and complete their maintenance");

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

  const startMaintenance = async (hostname: string, opts: { reason?: string }) => {
    const h = await client().hosts.startMaintenance.mutate({ hostname, reason: opts.reason ?? "" });
    print(`Host successfully submitted for maintenance: ${h.hostname}`);
    print(
      `${h.hostname} is ${h.state} (${h.tasks} task${h.tasks === 1 ? "" : "s"} on it to evict)`,
    );
  };
  const completeMaintenance = async (hostname: string, opts: { reason?: string }) => {
    const h = await client().hosts.completeMaintenance.mutate({
      hostname,
      reason: opts.reason ?? "",
    });
    print(`Host successfully submitted for maintenance completion: ${h.hostname}`);
    print(`${h.hostname} is ${h.state}, going ${h.goalState}`);
  };

  const maintenance = host
    .command("maintenance")
    .description("host maintenance: evict a host's tasks and take it DOWN, then bring it back UP");
  maintenance
    .command("start <hostname>")
    .description(
      "start maintenance on a host: nothing new is placed there, its tasks are evicted within their jobs' SLA, then it goes DOWN",
    )
    .option("-r, --reason <text>", "why (kept in the host's maintenance history and the audit log)")
    .action(startMaintenance);
  maintenance
    .command("complete <hostname>")
    .description("complete maintenance on a host: it comes back UP and takes tasks again")
    .option("-r, --reason <text>", "why (kept in the host's maintenance history and the audit log)")
    .action(completeMaintenance);

  host
    .command("query")
    .description("query hosts by state(s), as Peloton's `host query`")
    .option(
      "-s, --states <states>",
      `host state(s) to filter, comma-separated (${HOST_STATES.join(", ")}); all when absent`,
    )
    .action(async (opts: { states?: string }) => {
      const states = hostList.states(opts.states);
      const items = await allPages(
        (cursor, limit) => client().hosts.list.query({ states, limit, cursor }),
        { pageSize: 500 },
      );
      if (items.length === 0) {
        print("No hosts found");
        return;
      }
      // Peloton's columns, but HostPool: there are no host pools here.
      print(
        formatTable(
          ["Hostname", "IP", "State", "Goal State", "Reason"],
          items.map((h) => [h.hostname, h.ip ?? "-", h.state, h.goalState, h.stateReason ?? "-"]),
        ),
      );
    });

  // The commands before `host maintenance`, kept as its other names.
  host
    .command("drain <hostname>")
    .description("same as `host maintenance start`")
    .option("-r, --reason <text>", "why (kept in the host's maintenance history and the audit log)")
    .action(startMaintenance);
  host
    .command("up <hostname>")
    .description("same as `host maintenance complete`")
    .option("-r, --reason <text>", "why (kept in the host's maintenance history and the audit log)")
    .action(completeMaintenance);
}
