/**
 * Before the specs, through the API the console and the CLI use: real
 * preemptions on the idle cluster (preemption-journey.ts: the running
 * preemptor takes tasks back, and they come back), then the backlog
 * (workload.ts) and a wait until the scheduler has settled it — what fits
 * runs, the rest waits with its reason — so that every spec starts from the
 * same picture. Runs after Playwright's web server is up.
 *
 * First it signs in as the admin (auth.ts): the browser state every spec
 * starts from, and an admin API token for the work below and the specs' own
 * API calls and CLI runs.
 */
import { readFileSync, writeFileSync } from "node:fs";
import type { FullConfig } from "@playwright/test";
import {
  ADMIN_STATE_FILE,
  apiClientWithToken,
  E2E_ADMIN_LOGIN,
  E2E_ADMIN_PASSWORD,
  mutateAs,
  signIn,
} from "./auth.ts";
import { type E2eFixture, FIXTURE_FILE } from "./fixture.ts";
import { preemptionJourney } from "./preemption-journey.ts";
import { BACKLOG, backlogYaml } from "./workload.ts";

/** States a task passes through on its way to RUNNING: none may be left when settled. */
const ON_THE_WAY = ["PLACING", "PLACED", "LAUNCHING", "LAUNCHED", "STARTING"];
const SETTLE_MS = 90_000;

export default async function globalSetup(config: FullConfig): Promise<void> {
  const baseUrl = config.projects[0]?.use.baseURL;
  if (!baseUrl) throw new Error("playwright.config.ts names no baseURL");
  const admin = await signIn(baseUrl, E2E_ADMIN_LOGIN, E2E_ADMIN_PASSWORD);
  await admin.storageState({ path: ADMIN_STATE_FILE });
  const { token } = await mutateAs<{ token: string }>(admin, baseUrl, "tokens.create", {
    name: "e2e-admin",
  });
  await admin.dispose();
  const auth = { adminToken: token, apiHeaders: { authorization: `Bearer ${token}` } };
  writeFileSync(
    FIXTURE_FILE,
    JSON.stringify({ ...JSON.parse(readFileSync(FIXTURE_FILE, "utf8")), ...auth }, null, 2),
  );
  const api = apiClientWithToken(baseUrl, token);
  const preemptions = await preemptionJourney(api);
  const backlogJobs: E2eFixture["backlogJobs"] = [];
  for (const [pool, instances, cpu] of BACKLOG) {
    const created = await api.jobs.create.mutate({ pool, yaml: backlogYaml(pool, instances, cpu) });
    backlogJobs.push({ id: created.id, name: `${pool.split("/").pop()}-backlog`, pool });
  }

  let previous = "";
  let steady = 0;
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const s = await api.overview.summary.query();
    const byState = s.tasksByState as Record<string, number>;
    const moving = ON_THE_WAY.some((state) => (byState[state] ?? 0) > 0);
    const picture = JSON.stringify(byState);
    steady = !moving && (byState.RUNNING ?? 0) > 0 && picture === previous ? steady + 1 : 0;
    previous = picture;
    // Longer than the preemptor's sustained periods (3 × 1 s, serve.ts): a pool the backlog
    // left over its entitlement gives back before the picture counts as settled.
    if (steady >= 6) {
      const fixture = JSON.parse(readFileSync(FIXTURE_FILE, "utf8")) as E2eFixture;
      writeFileSync(
        FIXTURE_FILE,
        JSON.stringify(
          { ...fixture, ...auth, preemptions, backlogJobs, jobs: s.jobs, tasks: s.tasks },
          null,
          2,
        ),
      );
      console.log(`e2e workload settled: ${picture}`);
      return;
    }
    if (Date.now() > deadline)
      throw new Error(`the e2e workload did not settle in ${SETTLE_MS / 1000} s: ${picture}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}
