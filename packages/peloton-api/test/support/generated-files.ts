import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import type { GenFile } from "@bufbuild/protobuf/codegenv2";

const generatedDir = join(import.meta.dirname, "../../src/generated");

function pbFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return pbFiles(path);
    return entry.name.endsWith("_pb.ts") ? [path] : [];
  });
}

/** Every file descriptor our generated code declares (each `file_…` export), Google's included. */
export async function generatedFiles(): Promise<GenFile[]> {
  const files = new Map<string, GenFile>();
  for (const path of pbFiles(generatedDir)) {
    const module = (await import(`./${relative(import.meta.dirname, path)}`)) as Record<
      string,
      unknown
    >;
    for (const [name, value] of Object.entries(module)) {
      if (name.startsWith("file_")) {
        const file = value as GenFile;
        files.set(file.name, file);
        for (const dep of file.dependencies) files.set(dep.name, dep);
      }
    }
  }
  return [...files.values()];
}
