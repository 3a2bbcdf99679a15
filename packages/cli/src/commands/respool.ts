/**
 * `peloton respool …`: Peloton's resource pool commands over the API.
 *
 *   create <path> <file>   Peloton's respool YAML; the path gives the parent
 *   update <path> <file>   replaces the pool's configuration
 *   delete <path>          an idle leaf pool
 *   dump                   every pool (Peloton's ResourcePoolInfo), YAML or JSON
 *   lookup <path>          one pool: its settings beside its entitlement and usage
 */
import { readFileSync } from "node:fs";
import { ConfigError, formatIssue, parsePelotonYaml } from "@peloton/api/config";
import { type RespoolConfig, respoolConfigSchema } from "@peloton/api/schemas";
import { type Command, Option } from "commander";
import type { ApiClient } from "../api-client.ts";
import { CliError } from "../errors.ts";
import { formatNumber, formatTable } from "../output.ts";
import { type DumpFormat, formatPoolInfos, poolInfo } from "../respool/pool-info.ts";

const PATH_ARG = "complete path of the resource pool starting from the root";
const KINDS = ["cpu", "memory", "disk", "gpu"] as const;

function readConfig(file: string): RespoolConfig {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new CliError(`unable to open file ${file}: ${(err as Error).message}`);
  }
  try {
    return parsePelotonYaml(text, respoolConfigSchema);
  } catch (err) {
    if (err instanceof ConfigError)
      throw new CliError(`${file}: ${err.issues.map(formatIssue).join("; ")}`);
    throw err;
  }
}

const formatOption = () =>
  new Option("--format <format>", "output format").choices(["yaml", "yml", "json"]);

export function registerRespool(
  program: Command,
  client: () => ApiClient,
  print: (s: string) => void,
): void {
  const respool = program.command("respool").description("manage resource pools");

  respool
    .command("create")
    .description("create a resource pool")
    .argument("<respool>", PATH_ARG)
    .argument("<config>", "YAML resource pool configuration")
    .action(async (path: string, file: string) => {
      const created = await client().pools.create.mutate({ path, config: readConfig(file) });
      print(`Resource Pool ${created.id} created at ${created.path}`);
    });

  respool
    .command("update")
    .description("update an existing resource pool (its whole configuration)")
    .argument("<respool>", PATH_ARG)
    .argument("<config>", "YAML resource pool configuration")
    .action(async (path: string, file: string) => {
      const config = readConfig(file);
      // The version read here is the one replaced: a change in between is a conflict.
      const { version } = await client().pools.get.query({ path });
      await client().pools.update.mutate({ path, version, config });
      print(`Resource Pool ${path} updated`);
    });

  respool
    .command("delete")
    .description("delete a resource pool (an idle leaf)")
    .argument("<respool>", PATH_ARG)
    .action(async (path: string) => {
      await client().pools.delete.mutate({ path });
      print(`Resource Pool ${path} is deleted`);
    });

  respool
    .command("dump")
    .description("dump all resource pools")
    .addOption(formatOption().default("yaml"))
    .action(async (opts: { format: DumpFormat }) => {
      const { pools } = await client().pools.tree.query();
      const childIds = (path: string) =>
        pools.filter((p) => p.parentPath === path).map((p) => p.id);
      print(
        formatPoolInfos(
          pools.map((p) => poolInfo(p, childIds(p.path))),
          opts.format,
        ),
      );
    });

  respool
    .command("lookup")
    .description("show a resource pool: settings, entitlement and usage per kind")
    .argument("<respool>", PATH_ARG)
    .addOption(formatOption())
    .action(async (path: string, opts: { format?: DumpFormat }) => {
      const pool = await client().pools.get.query({ path });
      if (opts.format) {
        const childIds = pool.childPools.map((c) => c.id);
        print(formatPoolInfos([poolInfo(pool, childIds)], opts.format));
        return;
      }
      print(
        formatTable(
          ["ID", "PATH", "OWNING TEAM", "PARENT", "CHILDREN", "JOBS", "VERSION"],
          [
            [
              pool.id,
              pool.path,
              pool.owningTeam || "-",
              pool.parentPath,
              String(pool.children),
              String(pool.jobs),
              String(pool.version),
            ],
          ],
        ),
      );
      print("");
      print(
        formatTable(
          ["KIND", "RESERVATION", "LIMIT", "SHARE", "TYPE", "ENTITLEMENT", "ALLOCATION", "DEMAND"],
          KINDS.map((k) => {
            const r = pool.resources[k];
            return [
              k,
              formatNumber(r.reservation),
              formatNumber(r.limit),
              formatNumber(r.share),
              r.type,
              formatNumber(r.entitlement),
              formatNumber(r.allocation),
              formatNumber(r.demand),
            ];
          }),
        ),
      );
    });
}
