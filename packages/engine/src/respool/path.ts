/**
 * Pool paths: `/` is the root, `/infra/batch` is the pool `batch` under `infra`
 * (Peloton's `ResourcePoolPathDelimiter` is "/"; its paths begin with it).
 */
export const ROOT_PATH = "/";

export type PathProblem =
  | { problem: "EMPTY" }
  | { problem: "NOT_ABSOLUTE" }
  | { problem: "TRAILING_SLASH" }
  | { problem: "EMPTY_SEGMENT" }
  | { problem: "INVALID_NAME"; name: string; reason: NameProblem };

export type NameProblem = "EMPTY" | "SLASH" | "DOT" | "WHITESPACE" | "CONTROL";

export type ParsedPath = { ok: true; segments: string[] } | ({ ok: false } & PathProblem);

/**
 * Why a pool name is not acceptable, or null. Peloton accepts any name; we only
 * refuse what would make paths ambiguous or unreadable.
 */
export function poolNameProblem(name: string): NameProblem | null {
  if (name.length === 0) return "EMPTY";
  if (name.includes("/")) return "SLASH";
  if (name === "." || name === "..") return "DOT";
  if (name.trim() !== name) return "WHITESPACE";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(name)) return "CONTROL";
  return null;
}

export function parsePoolPath(path: string): ParsedPath {
  if (path.length === 0) return { ok: false, problem: "EMPTY" };
  if (!path.startsWith("/")) return { ok: false, problem: "NOT_ABSOLUTE" };
  if (path === ROOT_PATH) return { ok: true, segments: [] };
  if (path.endsWith("/")) return { ok: false, problem: "TRAILING_SLASH" };
  const segments = path.slice(1).split("/");
  for (const name of segments) {
    if (name.length === 0) return { ok: false, problem: "EMPTY_SEGMENT" };
    const reason = poolNameProblem(name);
    if (reason) return { ok: false, problem: "INVALID_NAME", name, reason };
  }
  return { ok: true, segments };
}

export function isValidPoolPath(path: string): boolean {
  return parsePoolPath(path).ok;
}

/** The parent's path; null for the root. Assumes a valid path. */
export function parentPath(path: string): string | null {
  if (path === ROOT_PATH) return null;
  const cut = path.lastIndexOf("/");
  return cut <= 0 ? ROOT_PATH : path.slice(0, cut);
}

/** The pool's own name (the last segment); "" for the root. */
export function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

export function joinPoolPath(parent: string, name: string): string {
  return parent === ROOT_PATH ? `/${name}` : `${parent}/${name}`;
}

/** Depth of a valid path: 0 for the root, 1 for `/a`, 2 for `/a/b`. */
export function pathDepth(path: string): number {
  if (path === ROOT_PATH) return 0;
  let depth = 0;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) depth++;
  return depth;
}

/** True when `ancestor` is a strict ancestor of `path` (the root is everyone's). */
export function isAncestorPath(ancestor: string, path: string): boolean {
  if (ancestor === path) return false;
  if (ancestor === ROOT_PATH) return path.startsWith("/");
  return path.startsWith(`${ancestor}/`);
}

export function describePathProblem(path: string, p: PathProblem): string {
  switch (p.problem) {
    case "EMPTY":
      return "the path is empty";
    case "NOT_ABSOLUTE":
      return `path "${path}" should begin with /`;
    case "TRAILING_SLASH":
      return `path "${path}" ends with /`;
    case "EMPTY_SEGMENT":
      return `path "${path}" has an empty segment (//)`;
    case "INVALID_NAME":
      return `path "${path}": ${describeNameProblem(p.name, p.reason)}`;
  }
}

export function describeNameProblem(name: string, reason: NameProblem): string {
  switch (reason) {
    case "EMPTY":
      return "the name is empty";
    case "SLASH":
      return `name "${name}" contains /`;
    case "DOT":
      return `name "${name}" is not allowed`;
    case "WHITESPACE":
      return `name "${name}" begins or ends with whitespace`;
    case "CONTROL":
      return `name ${JSON.stringify(name)} contains control characters`;
  }
}
