/**
 * The folder order inside a package (rules.ts FOLDER_LAYERS): imports point
 * down the list only, and every folder is on it. Pure, like check.ts: it
 * takes repository-relative paths.
 */
import { posix } from "node:path";
import type { SourceFile, Violation } from "./check.ts";
import { FOLDER_LAYERS } from "./rules.ts";

/** Where a path sits: the ordered source folder it is under, and its folder there (null: a file directly in it). */
function placeOf(
  path: string,
  layers: Readonly<Record<string, readonly string[]>>,
): { root: string; folder: string | null } | null {
  for (const root of Object.keys(layers)) {
    if (!path.startsWith(`${root}/`)) continue;
    const parts = path.slice(root.length + 1).split("/");
    return { root, folder: parts.length > 1 ? parts[0]! : null };
  }
  return null;
}

/** The folder-direction violation of one import, if it points up the order. */
export function folderDirectionOf(
  file: string,
  specifier: string,
  layers: Readonly<Record<string, readonly string[]>> = FOLDER_LAYERS,
): Violation | null {
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) return null;
  const from = placeOf(file, layers);
  if (!from || from.folder === null) return null;
  const target = posix.normalize(posix.join(posix.dirname(file), specifier));
  const to = placeOf(target, layers);
  if (!to || to.root !== from.root || to.folder === from.folder) return null;
  const order = layers[from.root]!;
  const own = order.indexOf(from.folder);
  // An unplaced folder is reported once as folder-unplaced, not at each import.
  if (own < 0 || (to.folder !== null && !order.includes(to.folder))) return null;
  if (to.folder !== null && order.indexOf(to.folder) > own) return null;
  const below = order.slice(own + 1);
  return {
    rule: "folder-direction",
    file,
    specifier,
    message:
      `${from.root}/${from.folder}/ may import ${below.length ? below.join(", ") : "no other folder"}` +
      `, not ${to.folder === null ? `${target} (the package's index, above every folder)` : `${to.folder}/ (above it)`}`,
  };
}

/** One folder-unplaced violation per folder (at its first file) that its source folder's order does not name. */
export function unplacedFolders(
  files: readonly Pick<SourceFile, "path">[],
  layers: Readonly<Record<string, readonly string[]>> = FOLDER_LAYERS,
): Violation[] {
  const found = new Map<string, Violation>();
  for (const { path } of files) {
    const place = placeOf(path, layers);
    if (!place || place.folder === null || layers[place.root]!.includes(place.folder)) continue;
    const folder = `${place.root}/${place.folder}/`;
    if (found.has(folder)) continue;
    found.set(folder, {
      rule: "folder-unplaced",
      file: path,
      specifier: folder,
      message:
        `${folder} is not in the folder order of ${place.root} ` +
        `(${layers[place.root]!.join(" → ")}); add it to FOLDER_LAYERS in scripts/architecture/rules.ts`,
    });
  }
  return [...found.values()];
}
