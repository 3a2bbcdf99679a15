/**
 * The file `respool update` reads, and the version it was made from. Two
 * forms are accepted:
 *
 *   - Peloton's respool YAML (what `respool create` reads), with an optional
 *     top-level `version: N`;
 *   - one pool as `respool lookup --format yaml|json` or `respool dump`
 *     print it (a list: the entry whose path is the pool's): its `config` is
 *     the configuration and its `version` the version it showed. Its `config.parent` (an id) is left
 *     out: an update keeps the pool's parent anyway.
 *
 * The version is what makes an edit safe: the API refuses it when the pool
 * has changed since (issue 14, "lost update from the CLI").
 */
import { ConfigError, formatIssue, parsePelotonYaml } from "@peloton/api/config";
import { type RespoolConfig, respoolConfigSchema } from "@peloton/api/schemas";
import { isMap, isScalar, isSeq, parseDocument, stringify, type YAMLMap } from "yaml";
import { CliError } from "../errors.ts";

export interface UpdateFile {
  readonly config: RespoolConfig;
  /** The version the file was made from; null when it names none. */
  readonly version: number | null;
}

export function readUpdateFile(file: string, text: string, path: string): UpdateFile {
  const doc = parseDocument(text, { uniqueKeys: true });
  // Broken YAML is reported by the config parser below, with its line.
  const top = doc.errors.length === 0 ? poolNode(file, doc.contents, path) : null;
  const versionPair = top?.items.find((p) => isScalar(p.key) && p.key.value === "version");
  const version = versionPair ? versionOf(file, versionPair.value) : null;
  const configNode = top?.get("config", true);
  if (top && configNode) {
    const config = configNode.toJSON() as Record<string, unknown> | null;
    if (config && typeof config === "object") delete config.parent;
    return { config: parse(`${file} (its config)`, stringify(config)), version };
  }
  // Blank the version's characters rather than delete its line, so that
  // problems found in the rest of the file keep their line numbers.
  let rest = text;
  const range = versionPair && spanOf(versionPair);
  if (range) {
    const [from, to] = range;
    rest = text.slice(0, from) + text.slice(from, to).replace(/[^\n]/g, " ") + text.slice(to);
  }
  return { config: parse(file, rest), version };
}

/**
 * The mapping to read: the document itself, or — `lookup` and `dump` print
 * a list — the entry whose `path.value` is the pool's (or the only entry).
 */
function poolNode(file: string, contents: unknown, path: string): YAMLMap | null {
  if (isMap(contents)) return contents;
  if (!isSeq(contents)) return null;
  const maps = contents.items.filter(isMap);
  const pathOf = (m: YAMLMap) => (m.toJSON() as { path?: { value?: unknown } }).path?.value;
  const entry = maps.length === 1 ? maps[0] : maps.find((m) => pathOf(m) === path);
  if (!entry)
    throw new CliError(
      `${file}: a list of pools with no entry for ${path} (path.value); give that pool's entry alone`,
    );
  return entry;
}

function parse(what: string, text: string): RespoolConfig {
  try {
    return parsePelotonYaml(text, respoolConfigSchema);
  } catch (err) {
    if (err instanceof ConfigError)
      throw new CliError(`${what}: ${err.issues.map(formatIssue).join("; ")}`);
    throw err;
  }
}

function versionOf(file: string, node: unknown): number {
  const value = isScalar(node) ? node.value : node;
  if (typeof value === "number" && Number.isInteger(value) && value >= 1) return value;
  throw new CliError(
    `${file}: version must be the pool's version as \`respool lookup\` prints it (a whole number ≥ 1); got ${JSON.stringify(value ?? null)}`,
  );
}

/** Where a top-level `version: N` pair is written: from its key to the end of its value. */
function spanOf(pair: { key: unknown; value: unknown }): [number, number] | null {
  const start = (pair.key as { range?: [number, number, number] } | null)?.range?.[0];
  const end = (pair.value as { range?: [number, number, number] } | null)?.range?.[1];
  return start === undefined || end === undefined ? null : [start, end];
}
