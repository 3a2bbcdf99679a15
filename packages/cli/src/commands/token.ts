import { tokenCreateInput, tokenNameSchema } from "@peloton/api/schemas";
import type { Command } from "commander";
import type { ApiClient } from "../api-client.ts";
import { parseOption } from "../options.ts";
import { formatTable } from "../output.ts";

const when = (d: Date | null) => (d ? d.toISOString().replace(/\.\d+Z$/, "Z") : "-");

/** `peloton token create <name> [--expires-in-days N] | list | revoke <name>`: your own tokens. */
export function registerToken(
  program: Command,
  client: () => ApiClient,
  print: (s: string) => void,
): void {
  const token = program.command("token").description("your personal API tokens");

  token
    .command("create <name>")
    .description("make a token (printed once: keep it, it cannot be shown again)")
    .option("--expires-in-days <n>", "it stops working after this many days (1-3650)")
    .action(async (name: string, opts: { expiresInDays?: string }) => {
      const input = parseOption(
        tokenCreateInput,
        {
          name,
          ...(opts.expiresInDays === undefined
            ? {}
            : { expiresInDays: Number(opts.expiresInDays) }),
        },
        opts.expiresInDays === undefined ? "name" : "name or --expires-in-days",
      );
      const made = await client().tokens.create.mutate(input);
      print(made.token);
      console.error(`token ${made.name} created: shown once, keep it now (PELOTON_TOKEN=...)`);
    });

  token
    .command("list")
    .description("your tokens: name, prefix, created, last used, expiry, revoked")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const items = await client().tokens.list.query({});
      if (opts.json) {
        print(JSON.stringify(items, null, 2));
        return;
      }
      if (items.length === 0) {
        print("No tokens.");
        return;
      }
      print(
        formatTable(
          ["Name", "Prefix", "Created", "Last used", "Expires", "Revoked"],
          items.map((t) => [
            t.name,
            t.prefix,
            when(t.createdAt),
            when(t.lastUsedAt),
            when(t.expiresAt),
            when(t.revokedAt),
          ]),
        ),
      );
    });

  token
    .command("revoke <name>")
    .description("stop a token from working, at once")
    .action(async (name: string) => {
      await client().tokens.revoke.mutate({ name: parseOption(tokenNameSchema, name, "name") });
      print(`token ${name} revoked`);
    });
}
