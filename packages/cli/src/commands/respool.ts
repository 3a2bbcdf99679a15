/**
 * `peloton respool …`: Peloton's resource pool commands over the API.
 *
 *   create <path> <file>   Peloton's respool YAML; the path gives the parent
 *   update <path> <file>   replaces the pool's configuration, if still at the file's
 *                          version (or --version N); --force writes over any version
 *   delete <path>          an idle leaf pool
 *   dump                   every pool (Peloton's ResourcePoolInfo), YAML or JSON
 *   lookup <path>          one pool: its settings beside its entitlement and usage
 */
import { readFileSync } from "node:fs";
import { ConfigError, formatIssue, parsePelotonYaml } from "@peloton/api/config";
import { type RespoolConfig, respoolConfigSchema } from "@peloton/api/schemas";
import { TRPCClientError } from "@trpc/client";
import { type Command, Option } from "commander";
import type { ApiClient } from "../api-client.ts";
import { CliError } from "../errors.ts";
import { formatNumber, formatTable } from "../output.ts";
import { type DumpFormat, formatPoolInfos, KIND_COLUMNS, poolInfo } from "../respool/pool-info.ts";
import { readUpdateFile } from "../respool/update-file.ts";

const PATH_ARG = "complete path of the resource pool starting from the root";

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw new CliError(`unable to open file ${file}: ${(err as Error).message}`);
  }
}

function readConfig(file: string): RespoolConfig {
  const text = readText(file);
  try {
    return parsePelotonYaml(text, respoolConfigSchema);
  } catch (err) {
    if (err instanceof ConfigError)
      throw new CliError(`${file}: ${err.issues.map(formatIssue).join("; ")}`);
    throw err;
  }
}

function versionOption(text: string | undefined): number | null {
  if (text === undefined) return null;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new CliError(`--version must be a whole number ≥ 1 (the pool's version); got ${text}`);
  return n;
}

/** The API's answer to a stale version (HTTP 409). */
function isConflict(err: unknown): boolean {
  return (
    err instanceof TRPCClientError &&
    (err.data as { code?: string } | undefined)?.code === "CONFLICT"
  );
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
    .description(
      "update an existing resource pool (its whole configuration), if it is still at the version the file was made from",
    )
    .argument("<respool>", PATH_ARG)
    .argument(
      "<config>",
      "YAML resource pool configuration (with `version: N`), or the pool as `respool lookup --format yaml` prints it",
    )
    .option("--version <n>", "the pool's version the file was made from (instead of the file's)")
    .option("--force", "write over the pool whatever its version (an edit made since is lost)")
    .action(async (path: string, file: string, opts: { version?: string; force?: boolean }) => {
      const { config, version: fileVersion } = readUpdateFile(file, readText(file), path);
      const based = opts.force ? null : (versionOption(opts.version) ?? fileVersion);
      if (!opts.force && based === null)
        throw new CliError(
          `${file} does not say which version of ${path} it was made from: start from \`peloton respool lookup ${path} --format yaml\` (it prints the version), add \`version: N\` to the file or pass --version N, or pass --force to write over any change`,
        );
      // --force: the version read now is the one replaced (Peloton's plain update).
      const version = based ?? (await client().pools.get.query({ path })).version;
      try {
        await client().pools.update.mutate({ path, version, config });
      } catch (err) {
        if (!isConflict(err)) throw err;
        const now = await client()
          .pools.get.query({ path })
          .then((p) => String(p.version))
          .catch(() => "deleted");
        throw new CliError(
          `${path} was changed since version ${version} (now ${now}): run \`peloton respool lookup ${path} --format yaml\` and edit again, or pass --force`,
        );
      }
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
          KIND_COLUMNS.map((k) => {
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
