/**
 * The agent's files API (Mesos `/files/read`, `/files/browse`,
 * `/files/download`), served by the sim for task sandboxes so logs can be
 * read over HTTP. Paths are absolute sandbox paths; anything outside the
 * sandbox root is 404, as if it did not exist.
 *
 * Links are resolved before anything is served: a task owns its sandbox and
 * may replace `stdout` with a symlink to /etc/passwd, so a path that
 * resolves outside the agent's root (its sandboxes and volumes) is refused
 * with 403. The file is opened with O_NOFOLLOW and its real path checked
 * again through /proc/self/fd, so swapping a link in between changes nothing.
 *
 *   GET /files/read?path=<file>&offset=<n>&length=<n>  → {"data": "...", "offset": n}
 *       offset=-1 answers the file size: {"data": "", "offset": <size>}
 */
import { constants } from "node:fs";
import { type FileHandle, lstat, open, readdir, readlink, realpath } from "node:fs/promises";
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
  const opened = await openConfined(root, path);
  if (opened === "missing") return reply(res, 404, `No file or directory found at path '${path}'`);
  if (opened === "outside") {
    return reply(res, 403, `'${path}' resolves outside the sandbox (a link); refusing to serve it`);
  }
  let handedOver = false;
  try {
    const info = await opened.stat();
    if (action === "browse") {
      if (!info.isDirectory()) return reply(res, 400, `'${path}' is not a directory`);
      // The opened directory itself, not the path (which could have become a link since).
      return json(res, await listDirectory(path, `/proc/self/fd/${opened.fd}`));
    }
    if (info.isDirectory()) return reply(res, 400, `Cannot read a directory: '${path}'`);
    if (action === "download") {
      res.writeHead(200, {
        "Content-Type": "application/octet-stream",
        "Content-Length": String(info.size),
      });
      handedOver = true;
      opened.createReadStream().pipe(res);
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
    await opened.read(buf, 0, count, start);
    return json(res, { data: buf.toString("utf8"), offset: start });
  } finally {
    if (!handedOver) await opened.close();
  }
}

/**
 * Opens `path` only if what it names lies inside `root` once every link is
 * resolved: "outside" for a link (anywhere on the path) leading out,
 * "missing" when nothing is there.
 */
export async function openConfined(
  root: string,
  path: string,
): Promise<FileHandle | "missing" | "outside"> {
  const realRoot = await realpath(root).catch(() => undefined);
  const real = await realpath(path).catch(() => undefined);
  if (realRoot === undefined || real === undefined) return "missing";
  if (!isInside(realRoot, real)) return "outside";
  let fh: FileHandle;
  try {
    // O_NOFOLLOW: had the last component become a link since realpath, the open fails.
    fh = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ELOOP" ? "outside" : "missing";
  }
  // What was opened, whatever happened to the path's directories meanwhile (Linux).
  const opened = await readlink(`/proc/self/fd/${fh.fd}`).catch(() => real);
  if (!isInside(realRoot, opened)) {
    await fh.close();
    return "outside";
  }
  return fh;
}

/** A directory's entries as the files API lists them; links are described, not followed. */
async function listDirectory(path: string, opened: string): Promise<unknown[]> {
  const names = await readdir(opened).catch(() => readdir(path));
  return Promise.all(
    names.map(async (name) => {
      const s = await lstat(join(opened, name)).catch(() => undefined);
      return {
        path: join(path, name),
        size: s?.size ?? 0,
        mtime: Math.floor((s?.mtimeMs ?? 0) / 1000),
        mode: s?.isDirectory() ? "drwxr-xr-x" : s?.isSymbolicLink() ? "lrwxrwxrwx" : "-rw-r--r--",
        nlink: s?.nlink ?? 1,
        uid: String(s?.uid ?? ""),
        gid: String(s?.gid ?? ""),
      };
    }),
  );
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
