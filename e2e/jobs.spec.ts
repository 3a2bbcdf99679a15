/**
 * An operator's journey through jobs, on the scheduler of `npm start` and
 * its in-process mesos-sim (tasks really run: the CPU agents start real
 * processes): submit a batch job from YAML, watch it run and finish without
 * reloading, read an instance's stdout; see why a job waits, and stop the
 * service that holds its pool; refused files; the CLI; bulk actions.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { adminApi, cliEnv } from "./support/auth.ts";
import { readFixture } from "./support/fixture.ts";
import { releaseReservation } from "./support/spec-pools.ts";
import { expect, type Page, test } from "./support/test.ts";

const root = resolve(import.meta.dirname, "..");
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });
/** The page's content (a streamed page can briefly keep a hidden copy outside <main>). */
const main = (page: Page) => page.locator("main#main");

/** Jobs this spec submits carry this label, so the bulk test finds exactly them. */
const LABEL = "suite: jobs-spec";

function batchYaml(name: string, instances: number, command: string): string {
  return `name: ${name}
type: BATCH
owningTeam: e2e
description: "Says hello from every instance"
labels:
  - key: suite
    value: jobs-spec
instanceCount: ${instances}
sla:
  priority: 1
  preemptible: true
defaultConfig:
  resource:
    cpuLimit: 0.5
    memLimitMb: 64
    diskLimitMb: 16
  command:
    shell: true
    value: '${command}'
`;
}

function serviceYaml(name: string, instances: number): string {
  // Peloton's own spelling: lowercase keys, the type as a number (1 = SERVICE).
  return `name: ${name}
type: 1
owningteam: e2e
labels:
  - key: suite
    value: jobs-spec
instancecount: ${instances}
sla:
  priority: 5
  preemptible: true
defaultconfig:
  resource:
    cpulimit: 1
    memlimitmb: 64
    disklimitmb: 16
  command:
    value: 'echo serving; sleep 600'
`;
}

/** Replaces the editor's text as a paste would. */
async function typeYaml(page: Page, yaml: string): Promise<void> {
  const editor = main(page).getByTestId("job-editor").locator(".cm-content");
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.insertText(yaml);
}

function peloton(baseURL: string | undefined, ...args: string[]) {
  return promisify(execFile)(
    process.execPath,
    [resolve(root, "packages/cli/bin/peloton.mjs"), ...args],
    // As the admin: the CLI sends PELOTON_TOKEN as its Bearer token.
    { env: cliEnv(baseURL) },
  );
}

test.describe("jobs", () => {
  // Later specs need the /infra reservation the small pool's test takes.
  test.afterAll(() => releaseReservation("/infra/e2e-small"));

  test("an operator submits a 20-instance batch job from YAML, watches it run and finish live, and reads an instance's stdout", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    await page.goto("/jobs");
    await expect(page.getByRole("heading", { name: "Jobs" })).toBeVisible();
    await expect(main(page).getByTestId("live-indicator")).toHaveAttribute("data-live", "true");
    await main(page).getByRole("link", { name: "New job" }).click();
    await expect(page).toHaveURL(/\/jobs\/new$/);

    await main(page).getByLabel("Resource pool").selectOption("/infra/batch");
    await expect(main(page).getByTestId("pool-room")).toContainText("cpu:");
    // Long enough to be seen RUNNING: on a busy machine TASK_RUNNING is applied well after
    // the process starts, and with `sleep 3` the page had about a second to show it.
    await typeYaml(
      page,
      batchYaml("e2e-hello", 20, 'echo "hello from instance $PELOTON_INSTANCE_ID" && sleep 8'),
    );
    await expect(main(page).getByTestId("job-problems")).toHaveAttribute("data-count", "0");
    await shot(page, "job-new-light");
    await main(page).getByRole("button", { name: "Create job" }).click();

    await expect(page).toHaveURL(/\/jobs\/[0-9a-f-]{36}$/);
    const jobId = page.url().split("/").pop()!;
    await expect(page.getByRole("heading", { name: /e2e-hello/ })).toBeVisible();
    const instances = main(page).getByTestId("instances-table");
    await expect(instances.locator("tr[data-instance]")).toHaveCount(20);

    // Without a reload: instances run, then the whole job succeeds.
    await expect(main(page).getByTestId("count-running")).toBeVisible({ timeout: 60_000 });
    await expect(instances.locator('tr[data-state="RUNNING"]').first()).toBeVisible();
    await shot(page, "job-running-light");
    await expect(main(page).getByTestId("job-state")).toHaveAttribute("data-state", "SUCCEEDED", {
      timeout: 120_000,
    });
    await expect(main(page).getByTestId("count-succeeded")).toHaveText("20");
    await expect(instances.locator('tr[data-state="SUCCEEDED"]')).toHaveCount(20);
    await shot(page, "job-light");

    // The config as submitted, and the timeline.
    await page.getByRole("tab", { name: "config" }).click();
    await expect(main(page).getByTestId("job-config")).toContainText("instanceCount: 20");
    await page.getByRole("tab", { name: "events" }).click();
    await expect(page).toHaveURL(/tab=events/);
    const events = main(page).getByTestId("job-events");
    await expect(
      events.locator('[data-testid="transition"][data-state="SUCCEEDED"]').first(),
    ).toBeVisible();
    await shot(page, "job-events-light");

    // The logs of every instance, one after another.
    await page.getByRole("tab", { name: "logs" }).click();
    const logs = main(page).getByTestId("job-logs");
    await logs.getByRole("combobox", { name: "Instance" }).selectOption("7");
    await expect(logs.getByTestId("log-text")).toContainText("hello from instance 7");
    await logs.getByRole("button", { name: "Next instance" }).click();
    await expect(logs.getByTestId("log-text")).toContainText("hello from instance 8");
    await expect(logs.getByTestId("log-viewer")).toHaveAttribute("data-status", "ended");
    await shot(page, "job-logs-light");

    // One click from the instances table to an instance, its runs and its stdout.
    await page.getByRole("tab", { name: "instances" }).click();
    await instances
      .locator('tr[data-instance="3"]')
      .getByRole("link", { name: "3", exact: true })
      .click();
    await expect(page).toHaveURL(new RegExp(`/jobs/${jobId}/tasks/3$`));
    await expect(main(page).getByTestId("task-state")).toHaveAttribute("data-state", "SUCCEEDED");
    await expect(main(page).getByTestId("task-host")).toContainText(/e2e-host-\d/);
    const runs = main(page).getByTestId("task-runs");
    await expect(runs.locator('[data-testid="transition"][data-state="RUNNING"]')).toBeVisible();
    await expect(runs.locator('[data-testid="transition"][data-state="SUCCEEDED"]')).toBeVisible();
    await expect(main(page).getByTestId("log-text")).toContainText("hello from instance 3");
    await shot(page, "task-light");

    // The same stdout from the command line.
    const cli = await peloton(baseURL, "task", "logs", jobId, "3");
    expect(cli.stdout).toBe("hello from instance 3\n");
  });

  test("a job whose pool has no room says why it waits and where it is in line; stopping the service that holds the pool lets it run", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const api = adminApi(baseURL!);
    // A small pool of 2 cores, held by a running service.
    const pool = "/infra/e2e-small";
    await api.pools.create.mutate({
      path: pool,
      config: {
        name: "e2e-small",
        owningTeam: "e2e",
        ldapGroups: [],
        description: "Two cores for the jobs spec",
        resources: [
          { kind: "cpu", reservation: 2, limit: 2, share: 1 },
          { kind: "memory", reservation: 0, limit: 1024, share: 1 },
          { kind: "disk", reservation: 0, limit: 1024, share: 1 },
          { kind: "gpu", reservation: 0, limit: 0, share: 1 },
        ],
      },
    });
    const service = await api.jobs.create.mutate({ pool, yaml: serviceYaml("e2e-service", 2) });
    await page.goto(`/jobs/${service.id}`);
    await expect(main(page).getByTestId("job-state")).toHaveAttribute("data-state", "RUNNING", {
      timeout: 60_000,
    });

    // A batch job in the same pool: nothing of it can start.
    await page.goto(`/jobs/new?pool=${encodeURIComponent(pool)}`);
    await typeYaml(page, batchYaml("e2e-waiting", 3, "echo finally && sleep 1"));
    await main(page).getByRole("button", { name: "Create job" }).click();
    await expect(page).toHaveURL(/\/jobs\/[0-9a-f-]{36}$/);
    const waitingUrl = page.url();
    const why = main(page).getByTestId("why-pending");
    await expect(why).toContainText("3 instances are waiting", { timeout: 30_000 });
    await expect(why.getByTestId("waiting-reason").first()).toContainText(
      `pool ${pool} is at its cpu entitlement`,
    );
    await expect(why.getByTestId("queue-position").first()).toContainText(
      /\d+(st|nd|rd|th) in \/infra\/e2e-small's pending queue/,
    );
    await expect(
      main(page).getByTestId("instances-table").locator("tr[data-instance]").first(),
    ).toContainText("in pool /infra/e2e-small's pending queue");
    await shot(page, "job-pending-light");
    await page.emulateMedia({ colorScheme: "dark" });
    await shot(page, "job-pending-dark");
    await page.emulateMedia({ colorScheme: "light" });

    // The jobs page says it too, on the job's row; the running service's row says nothing.
    const waitingId = new URL(waitingUrl).pathname.split("/").pop()!;
    await page.goto(`/jobs?pool=${encodeURIComponent(pool)}`);
    const waitingRow = main(page).locator(`tr[data-job="${waitingId}"]`);
    await expect(waitingRow.getByTestId("job-waiting")).toContainText(
      `3 waiting: pool ${pool} is at its cpu entitlement`,
    );
    await expect(
      main(page).locator(`tr[data-job="${service.id}"]`).getByTestId("job-waiting"),
    ).toHaveCount(0);
    await shot(page, "jobs-waiting-light");
    await page.emulateMedia({ colorScheme: "dark" });
    await shot(page, "jobs-waiting-dark");
    await page.emulateMedia({ colorScheme: "light" });

    // Stop the service, from its page: confirmed, then KILLED without a reload.
    await page.goto(`/jobs/${service.id}`);
    await expect(main(page).getByRole("button", { name: "Start", exact: true })).toBeDisabled();
    await main(page).getByRole("button", { name: "Stop", exact: true }).click();
    const dialog = page.getByRole("alertdialog", { name: "Stop e2e-service?" });
    await shot(page, "job-stop-dialog-light");
    await dialog.getByRole("button", { name: "Stop job" }).click();
    await expect(main(page).getByTestId("job-state")).toHaveAttribute("data-state", "KILLED", {
      timeout: 60_000,
    });
    await expect(main(page).getByTestId("count-killed")).toHaveText("2");
    await expect(main(page).getByRole("button", { name: "Stop", exact: true })).toBeDisabled();
    await expect(main(page).getByRole("button", { name: "Start", exact: true })).toBeEnabled();

    // The waiting job gets the room and finishes.
    await page.goto(waitingUrl);
    await expect(main(page).getByTestId("job-state")).toHaveAttribute("data-state", "SUCCEEDED", {
      timeout: 90_000,
    });
    await expect(main(page).getByTestId("why-pending")).toHaveCount(0);
  });

  test("a file with an unknown field or a negative cpuLimit is refused with the field and line named, and nothing is stored", async ({
    page,
    baseURL,
  }) => {
    const api = adminApi(baseURL!);
    const before = (await api.jobs.list.query({ limit: 500 })).items.length;
    await page.goto("/jobs/new?pool=/infra/batch");
    const problems = main(page).getByTestId("job-problems");
    const create = main(page).getByRole("button", { name: "Create job" });

    await typeYaml(
      page,
      batchYaml("e2e-bad", 2, "echo x").replace("  priority: 1", "  priority: 1\n  colour: blue"),
    );
    await expect(problems).toHaveAttribute("data-count", "1");
    await expect(problems.getByTestId("job-problem")).toHaveAttribute("data-field", "sla.colour");
    await expect(problems).toContainText("line 11");
    await expect(problems).toContainText('unknown field "colour"');
    await expect(main(page).locator(".cm-lintRange-error").first()).toBeVisible();
    await expect(create).toBeDisabled();
    await expect(create).toHaveAttribute("title", /Fix the 1 problem/);
    await shot(page, "job-new-error-light");
    await page.emulateMedia({ colorScheme: "dark" });
    await shot(page, "job-new-error-dark");
    await page.emulateMedia({ colorScheme: "light" });

    await typeYaml(
      page,
      batchYaml("e2e-bad", 2, "echo x").replace("cpuLimit: 0.5", "cpuLimit: -1"),
    );
    await expect(problems.getByTestId("job-problem")).toHaveAttribute(
      "data-field",
      "defaultConfig.resource.cpuLimit",
    );
    await expect(problems).toContainText("line 14");
    await expect(problems).toContainText("-1");
    await expect(create).toBeDisabled();

    // A pool with children takes no job: said before anything is sent.
    await page.goto("/jobs/new?pool=/infra");
    await expect(create).toBeDisabled();
    await expect(create).toHaveAttribute("title", /\/infra is not a leaf pool/);
    await expect(main(page).getByLabel("Resource pool")).toHaveAttribute("aria-invalid", "true");
    expect((await api.jobs.list.query({ limit: 500 })).items.length).toBe(before);
  });

  test("`peloton job create /DefaultResPool job.yaml` then `peloton task list` prints Peloton's columns; bad files are refused and nothing is stored", async ({
    baseURL,
  }) => {
    const dir = mkdtempSync(join(tmpdir(), "peloton-jobs-spec-"));
    const file = join(dir, "job.yaml");
    writeFileSync(file, batchYaml("e2e-cli", 3, "echo from the cli"));
    const created = await peloton(baseURL, "job", "create", "/DefaultResPool", file);
    expect(created.stdout).toMatch(/^Job [0-9a-f-]{36} created\n$/);
    const id = created.stdout.split(" ")[1]!;
    const list = await peloton(baseURL, "task", "list", id);
    const [header, ...rows] = list.stdout.trimEnd().split("\n");
    expect(header!.split(/\s{2,}/)).toEqual([
      "Instance",
      "Name",
      "State",
      "Healthy",
      "Start Time",
      "Run Time",
      "Host",
      "Message",
      "Reason",
      "Termination Status",
    ]);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/^0\s+e2e-cli\s+[A-Z]+\s+(DISABLED|HEALTH_UNKNOWN)/);

    const api = adminApi(baseURL!);
    const before = (await api.jobs.list.query({ limit: 500 })).items.length;
    for (const [bad, field] of [
      [
        batchYaml("e2e-cli-bad", 1, "x").replace("  priority: 1", "  priority: 1\n  colour: blue"),
        /sla\.colour \(line 11\): unknown field "colour"/,
      ],
      [
        batchYaml("e2e-cli-bad", 1, "x").replace("cpuLimit: 0.5", "cpuLimit: -1"),
        /defaultConfig\.resource\.cpuLimit \(line 14\): .*-1/,
      ],
    ] as const) {
      writeFileSync(file, bad);
      const refused = await peloton(baseURL, "job", "create", "/DefaultResPool", file).then(
        () => null,
        (err: { code: number; stderr: string }) => err,
      );
      expect(refused?.code).toBe(1);
      expect(refused?.stderr).toMatch(field);
      expect(refused?.stderr.trimEnd().split("\n")).toHaveLength(1);
    }
    expect((await api.jobs.list.query({ limit: 500 })).items.length).toBe(before);
  });

  test("the jobs table: filters in the URL, search to a task, bulk stop with each result reported", async ({
    page,
    baseURL,
  }) => {
    const fx = readFixture();
    // Something of this spec's own to stop in bulk, whatever the earlier tests left running.
    const api = adminApi(baseURL!);
    const running = await api.jobs.create.mutate({
      pool: "/DefaultResPool",
      yaml: serviceYaml("e2e-bulk-service", 1),
    });
    await page.goto("/jobs?label=suite%3De2e");
    const table = main(page).getByTestId("jobs-table");
    for (const job of fx.backlogJobs)
      await expect(table.locator(`tr[data-job="${job.id}"]`)).toBeVisible();
    await expect(table.locator("tr[data-job]")).toHaveCount(fx.backlogJobs.length);
    await page.getByRole("combobox", { name: "Group by" }).selectOption("pool");
    await expect(page).toHaveURL(/group=pool/);
    await expect(table.locator("tr[data-group]")).toHaveCount(fx.backlogJobs.length);
    await page.reload();
    await expect(table.locator("tr[data-group]")).toHaveCount(fx.backlogJobs.length);
    await shot(page, "jobs-light");
    await page.emulateMedia({ colorScheme: "dark" });
    await shot(page, "jobs-dark");
    await page.emulateMedia({ colorScheme: "light" });

    // The header search jumps to a task as <job>/<instance>.
    await page.locator("body").press("/");
    const search = page.getByRole("combobox", { name: "Search" });
    await search.fill("e2e-hello/4");
    await expect(page.getByRole("option", { name: /^e2e-hello\/4/ }).first()).toBeVisible();
    await search.press("Enter");
    await expect(page).toHaveURL(/\/jobs\/[0-9a-f-]{36}\/tasks\/4$/);
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(main(page).getByTestId("log-text")).toContainText("hello from instance 4");
    await shot(page, "task-dark");
    await page.emulateMedia({ colorScheme: "light" });

    // Bulk: the jobs of this spec that still run are stopped together.
    await page.goto(`/jobs?label=${encodeURIComponent(LABEL.replace(": ", "="))}`);
    await expect(table.locator("tr[data-job]").first()).toBeVisible();
    const count = await table.locator("tr[data-job]").count();
    await main(page).getByRole("checkbox", { name: "Select every job on this page" }).check();
    const bar = main(page).getByTestId("bulk-actions");
    await expect(bar).toContainText(`${count} job${count === 1 ? "" : "s"} selected`);
    await bar.getByRole("button", { name: /^Stop/ }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toContainText("left out: already ended or being stopped");
    await dialog.getByRole("button", { name: "Stop jobs" }).click();
    const results = main(page).getByTestId("bulk-results");
    await expect(results).toBeVisible();
    await expect(results.locator('li[data-ok="true"]').first()).toBeVisible();
    await expect(results.locator('li[data-ok="false"]')).toHaveCount(0);
    await expect(results.locator(`li[data-ok="true"][data-job="${running.id}"]`)).toBeVisible();
    await shot(page, "jobs-bulk-light");
  });

  test("looks right in the dark theme", async ({ page, baseURL }) => {
    const api = adminApi(baseURL!);
    const hello = (await api.jobs.list.query({ text: "e2e-hello", limit: 1 })).items[0]!;
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(`/jobs/${hello.id}`);
    await expect(main(page).getByTestId("instances-table")).toBeVisible();
    await shot(page, "job-dark");
    await page.goto(`/jobs/${hello.id}?tab=logs&instance=2`);
    await expect(main(page).getByTestId("log-text")).toContainText("hello from instance 2");
    await shot(page, "job-logs-dark");
    await page.goto("/jobs/new");
    await expect(main(page).getByTestId("job-editor")).toBeVisible();
    await shot(page, "job-new-dark");
  });
});
