/**
 * The agent's files API (Mesos `/files/read`, `/files/browse`,
 * `/files/download`), served by the sim for task sandboxes so logs can be
 * read over HTTP. Paths are absolute sandbox paths; anything outside the
 * sandbox root is 404, as if it did not exist.
 *
 *   GET /files/read?path=<file>&offset=<n>&length=<n>  → {"data": "...", "offset": n}
 *       offset=-1 answers the file size: {"data": "", "offset": <size>}
 */
import { createReadStream } from "node:fs";
import { open, readdir, stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { isInside } from "./sandbox.ts";

/** Without `length`, one read returns at most this much (Mesos pages its reads too). */
const DEFAULT_READ_BYTES = 1024 * 1024;

export async function serveFiles(
  root: string,
  action: "read" | "browse" | "download",
  url: URL,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (req.method !== "GET" && req.method !== "HEAD") {
    return reply(res, 405, `Expecting one of { 'GET' }, but received '${req.method}'`, {
      Allow: "GET",
    });
  }
  const path = url.searchParams.get("path");
  if (path === null || path === "") return reply(res, 400, "Expecting 'path' to be non-empty");
  if (!isInside(root, path)) return reply(res, 404, `No file or directory found at path '${path}'`);
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) return reply(res, 404, `No file or directory found at path '${path}'`);

  if (action === "browse") {
    if (!info.isDirectory()) return reply(res, 400, `'${path}' is not a directory`);
    const names = await readdir(path);
    const entries = await Promise.all(
      names.map(async (name) => {
        const s = await stat(join(path, name)).catch(() => undefined);
        return {
          path: join(path, name),
          size: s?.size ?? 0,
          mtime: Math.floor((s?.mtimeMs ?? 0) / 1000),
          mode: s?.isDirectory() ? "drwxr-xr-x" : "-rw-r--r--",
          nlink: s?.nlink ?? 1,
          uid: String(s?.uid ?? ""),
          gid: String(s?.gid ?? ""),
        };
      }),
    );
    return json(res, entries);
  }
  if (info.isDirectory()) return reply(res, 400, `Cannot read a directory: '${path}'`);
  if (action === "download") {
    res.writeHead(200, {
      "Content-Type": "application/octet-stream",
      "Content-Length": String(info.size),
    });
    createReadStream(path).pipe(res);
    return;
  }

  const offset = integerParam(url, "offset", 0);
  const length = integerParam(url, "length", DEFAULT_READ_BYTES);
  if (offset === undefined || offset < -1) return reply(res, 400, "Failed to parse offset");
  if (length === undefined || length < 0) return reply(res, 400, "Failed to parse length");
  if (offset === -1) return json(res, { data: "", offset: info.size });
  const start = Math.min(offset, info.size);
  const count = Math.min(length, info.size - start);
  const buf = Buffer.alloc(count);
  const fh = await open(path, "r");
  try {
    await fh.read(buf, 0, count, start);
  } finally {
    await fh.close();
  }
  return json(res, { data: buf.toString("utf8"), offset: start });
}

function integerParam(url: URL, name: string, fallback: number): number | undefined {
  const text = url.searchParams.get(name);
  if (text === null || text === "") return fallback;
  return /^-?\d+$/.test(text) ? Number(text) : undefined;
}

/** A JSON answer with its length (no chunking: clients read small answers whole). */
export function json(res: ServerResponse, body: unknown, status = 200): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(text)),
  });
  res.end(text);
}

export function reply(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(message)),
    ...headers,
  });
  res.end(message);
}
