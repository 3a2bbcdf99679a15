import { AUDIT_OUTCOMES, type AuditOutcome, describeAuditChange } from "@peloton/api/schemas";
import type { Command } from "commander";
import type { ApiClient } from "../api-client.ts";
import { CliError } from "../errors.ts";
import { auditList } from "../options.ts";
import { formatTable } from "../output.ts";

function outcomeOf(text: string | undefined): AuditOutcome | undefined {
  if (text === undefined) return undefined;
  const outcome = AUDIT_OUTCOMES.find((o) => o === text);
  if (!outcome) throw new CliError(`--outcome is ${AUDIT_OUTCOMES.join(" or ")} (got "${text}")`);
  return outcome;
}

/** `peloton audit list`: who changed what, newest first, with the console's filters. */
export function registerAudit(
  program: Command,
  client: () => ApiClient,
  print: (s: string) => void,
): void {
  const audit = program.command("audit").description("read the audit log of changes");
  audit
    .command("list")
    .description(
      "changes newest first: who, how, when, what, the fields that moved, and refused attempts",
    )
    .option("--actor <login>", "only this actor's changes")
    .option("--action <action>", 'an action ("pool.update") or a family ("pool.")')
    .option("--type <type>", "only changes to this kind of target (pool, job, host)")
    .option("--target <text>", "only targets whose id contains this text")
    .option("--since <time>", "an ISO time, or a duration back from now (30m, 24h, 7d)")
    .option(
      "--outcome <outcome>",
      "allowed (changes made) or refused (attempts the policy refused)",
    )
    .option("--limit <n>", "at most this many changes", "50")
    .option("--json", "print JSON")
    .action(
      async (opts: {
        actor?: string;
        action?: string;
        type?: string;
        target?: string;
        since?: string;
        outcome?: string;
        limit: string;
        json?: boolean;
      }) => {
        const page = await client().audit.list.query({
          actor: auditList.actor(opts.actor),
          action: auditList.action(opts.action),
          targetType: auditList.type(opts.type),
          target: auditList.target(opts.target),
          since: auditList.since(opts.since),
          outcome: outcomeOf(opts.outcome),
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
            ["Time", "Actor", "Via", "Action", "Target", "Outcome", "Change"],
            page.items.map((e) => [
              e.at.toISOString(),
              e.actor,
              e.via || "-",
              e.action,
              `${e.targetType} ${e.targetId}`,
              e.outcome,
              e.outcome === "refused" ? (e.refusal ?? "") : describeAuditChange(e.before, e.after),
            ]),
          ),
        );
      },
    );
}
