/**
 * Sandbox reads are confined: a task owns its sandbox and can put links in
 * it, so neither the agent's nor the master's files API may follow a link
 * out of the sandboxes (issue 14: `stdout` → /etc/passwd).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MesosError, readSandboxFile } from "../src/index.ts";
import { openConfined } from "../src/sim/files-endpoint.ts";
import { client, onCleanup, shellTask, sim } from "./support/harness.ts";
import { rawRequest } from "./support/raw-http.ts";

describe("sandbox confinement", () => {
  it("refuses a stdout replaced by a link to /etc/passwd, on the agent and on the master", async () => {
    const s = await sim({ agents: 1 });
    const { client: c, log, frameworkId } = await client(s);
    c.on("update", (st) => {
      c.acknowledge(st).catch(() => {});
    });
    const [offer] = await log.offers();
    const cmd =
      "echo ok > plain; ln -s /etc etc-link; mkdir sub; ln -s /etc/hostname sub/host; " +
      "exec >/dev/null; rm -f stdout; ln -s /etc/passwd stdout; sleep 30";
    await c.launch([offer!.id], [shellTask("evil-1", offer!.agent_id.value, cmd)]);
    await log.update("evil-1", "TASK_RUNNING");
    const dir = s.sandboxPath("evil-1")!;
    await expect
      .poll(() =>
        readSandboxFile({ agent: offer!.url!, frameworkId, taskId: "evil-1", file: "plain" })
          .then((r) => r.data)
          .catch(() => ""),
      )
      .toBe("ok\n");

    // The client's read (what `task logs` and the console use): a 403 with a sentence.
    const err = await readSandboxFile({ agent: offer!.url!, frameworkId, taskId: "evil-1" }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(MesosError);
    expect(err).toMatchObject({ kind: "forbidden", status: 403 });
    expect((err as MesosError).message).toMatch(/outside the sandbox/);
    expect((err as MesosError).message).not.toMatch(/root:/);

    // Every files endpoint of the master, any link on the path.
    const get = (path: string) => rawRequest(s.url, { method: "GET", path });
    const q = (p: string) => encodeURIComponent(join(dir, p));
    for (const path of [
      `/files/read?path=${q("stdout")}&offset=0`,
      `/files/read?path=${q("stdout")}&offset=-1`,
      `/files/download?path=${q("stdout")}`,
      `/files/read?path=${q("etc-link/passwd")}`,
      `/files/browse?path=${q("etc-link")}`,
      `/files/read?path=${q("sub/host")}`,
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(403);
      expect(res.text).not.toMatch(/root:/);
    }
    // What stays inside is served as before; browsing shows links as links.
    expect(JSON.parse((await get(`/files/read?path=${q("plain")}`)).text)).toEqual({
      data: "ok\n",
      offset: 0,
    });
    const listing = JSON.parse((await get(`/files/browse?path=${encodeURIComponent(dir)}`)).text);
    expect(listing.find((e: { path: string }) => e.path === join(dir, "stdout"))).toMatchObject({
      mode: "lrwxrwxrwx",
    });

    // The client refuses paths that climb out before asking.
    await expect(
      readSandboxFile({ agent: offer!.url!, frameworkId, taskId: "evil-1", file: "../../x" }),
    ).rejects.toMatchObject({ kind: "bad_request" });
  });

  it("follows links that stay inside the agent's root (a persistent volume's mount)", async () => {
    const root = mkdtempSync(join(tmpdir(), "confine-"));
    onCleanup(() => rmSync(root, { recursive: true, force: true }));
    const agentRoot = join(root, "slaves", "a1");
    const volume = join(agentRoot, "volumes", "roles", "db", "v1");
    const sandbox = join(agentRoot, "frameworks", "f", "executors", "t", "runs", "c");
    mkdirSync(volume, { recursive: true });
    mkdirSync(sandbox, { recursive: true });
    writeFileSync(join(volume, "file"), "kept\n");
    symlinkSync(volume, join(sandbox, "data"), "dir");
    symlinkSync("/etc/passwd", join(sandbox, "passwd"));
    const inside = await openConfined(agentRoot, join(sandbox, "data", "file"));
    expect(typeof inside).toBe("object");
    if (typeof inside === "object") {
      expect((await inside.readFile("utf8")).toString()).toBe("kept\n");
      await inside.close();
    }
    expect(await openConfined(agentRoot, join(sandbox, "passwd"))).toBe("outside");
    expect(await openConfined(agentRoot, join(sandbox, "nothing"))).toBe("missing");
  });
});
