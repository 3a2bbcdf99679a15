import { describeAuditChange } from "@peloton/api/schemas";
import type { Command } from "commander";
import type { ApiClient } from "../api-client.ts";
import { auditList } from "../options.ts";
import { formatTable } from "../output.ts";

/** `peloton audit list`: who changed what, newest first, with the console's filters. */
export function registerAudit(
  program: Command,
  client: () => ApiClient,
  print: (s: string) => void,
): void {
  const audit = program.command("audit").description("read the audit log of changes");
  audit
    .command("list")
    .description("changes newest first: who, when, what, and the fields that moved")
    .option("--actor <login>", "only this actor's changes")
    .option("--action <action>", 'an action ("pool.update") or a family ("pool.")')
    .option("--type <type>", "only changes to this kind of target (pool, job, host)")
    .option("--target <text>", "only targets whose id contains this text")
    .option("--since <time>", "an ISO time, or a duration back from now (30m, 24h, 7d)")
    .option("--limit <n>", "at most this many changes", "50")
    .option("--json", "print JSON")
    .action(
      async (opts: {
        actor?: string;
        action?: string;
        type?: string;
        target?: string;
        since?: string;
        limit: string;
        json?: boolean;
      }) => {
        const page = await client().audit.list.query({
          actor: auditList.actor(opts.actor),
          action: auditList.action(opts.action),
          targetType: auditList.type(opts.type),
          target: auditList.target(opts.target),
          since: auditList.since(opts.since),
          limit: auditList.limit(opts.limit),
        });
        if (opts.json) {
          print(JSON.stringify(page.items, null, 2));
          return;
        }
        if (page.items.length === 0) {
          print("No change matches.");
          return;
        }
        print(
          formatTable(
            ["Time", "Actor", "Action", "Target", "Change"],
            page.items.map((e) => [
              e.at.toISOString(),
              e.actor,
              e.action,
              `${e.targetType} ${e.targetId}`,
              describeAuditChange(e.before, e.after),
            ]),
          ),
        );
      },
    );
}
