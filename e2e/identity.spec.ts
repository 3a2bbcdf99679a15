/**
 * Who may do what (issue #16, docs/identity.md), as people meet it in the
 * console: a team lead signs in through the sign-in page and edits the pool
 * their team owns, and sees another team's pool's edit disabled with the
 * policy's reason; a viewer finds every action disabled, each saying why,
 * and the admin pages closed to them; a token made in /tokens works from
 * the CLI until it is revoked there.
 *
 * The people, teams and pools are made here, as the admin, through the API
 * (`users.create`, `teams.create`, `pools.create`) with known passwords.
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import type { Browser, BrowserContext } from "@playwright/test";
import { adminApi } from "./support/auth.ts";
import { readFixture } from "./support/fixture.ts";
import { expect, type Page, test, watchReactErrors } from "./support/test.ts";

const root = resolve(import.meta.dirname, "..");
const main = (page: Page) => page.locator("main#main");
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });

const PASSWORD = "e2e-people-password-1";
const LEAD = { login: "e2e-lead", displayName: "Lea Lead", role: "TEAM_LEAD" };
const VIEWER = { login: "e2e-viewer", displayName: "Vic Viewer", role: "VIEWER" };
const OWN_TEAM = "e2e-ml";
const OTHER_TEAM = "e2e-web";
const OWN_POOL = "/e2e-ml";
const OTHER_POOL = "/e2e-web";

/** A procedure of the people routers, as the admin over HTTP (Bearer: no Origin needed). */
async function asAdmin(baseURL: string, procedure: string, input: unknown): Promise<unknown> {
  const res = await fetch(`${baseURL}/api/trpc/${procedure}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...readFixture().apiHeaders },
    body: JSON.stringify({ json: input }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${procedure}: ${res.status} ${text}`);
  return JSON.parse(text);
}

const resources = [
  { kind: "cpu" as const, reservation: 0, limit: 4, share: 1 },
  { kind: "memory" as const, reservation: 0, limit: 8_192, share: 1 },
  { kind: "disk" as const, reservation: 0, limit: 10_000, share: 1 },
  { kind: "gpu" as const, reservation: 0, limit: 0, share: 1 },
];

/** A browser context signed in as nobody: the sign-in page is where it starts. */
async function signedOut(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ storageState: { cookies: [], origins: [] } });
}

/** `page.goto` for pages of contexts made here (the `page` fixture's goto waits by itself). */
async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/** Signs in through the sign-in page, as a person would, and waits for the page it went to. */
async function signInThroughPage(page: Page, login: string, password: string): Promise<void> {
  await page.getByLabel("User name").fill(login);
  await page.getByLabel("Password").fill(password);
  await page.getByLabel("Password").press("Enter");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/** Runs a setup step, accepting that a retry's earlier attempt already did it. */
async function once(step: () => Promise<unknown>): Promise<void> {
  try {
    await step();
  } catch (err) {
    if (!/already (exists|has a pool)|CONFLICT/.test(String(err))) throw err;
  }
}

test.describe("identity", () => {
  test.beforeAll(async ({ baseURL }) => {
    const api = adminApi(baseURL!);
    for (const team of [OWN_TEAM, OTHER_TEAM]) {
      await once(() =>
        asAdmin(baseURL!, "teams.create", { name: team, description: `${team} (e2e)` }),
      );
      await once(() =>
        api.pools.create.mutate({
          path: `/${team}`,
          config: {
            name: team,
            owningTeam: team,
            ldapGroups: [],
            description: `owned by ${team}`,
            resources,
          },
        }),
      );
    }
    for (const [person, teams] of [
      [LEAD, [OWN_TEAM]],
      [VIEWER, []],
    ] as const)
      await once(() =>
        asAdmin(baseURL!, "users.create", {
          ...person,
          teams,
          hostMaintenance: false,
          password: PASSWORD,
        }),
      );
  });

  test("a team lead signs in, edits the pool their team owns, and may not edit another team's", async ({
    browser,
  }) => {
    const context = await signedOut(browser);
    const page = await context.newPage();
    const errors = watchReactErrors(page);

    // A page without a session goes to the sign-in page, and comes back after it.
    await open(page, `/pools${OWN_POOL}?tab=edit`);
    await expect(page).toHaveURL(/\/sign-in\?next=/);
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await shot(page, "sign-in-light");

    await signInThroughPage(page, LEAD.login, "not-the-password");
    await expect(page.getByTestId("sign-in-error")).toContainText("Wrong user name or password");
    await expect(page).toHaveURL(/\/sign-in/);

    await signInThroughPage(page, LEAD.login, PASSWORD);
    await expect(page).toHaveURL(new RegExp(`/pools${OWN_POOL}\\?tab=edit$`));
    await expect(page.getByTestId("actor")).toHaveText(LEAD.displayName);
    await expect(page.getByTestId("actor-role")).toHaveText("team lead");

    // Their own pool: the form saves.
    const form = main(page).getByTestId("pool-form").filter({ visible: true });
    await form.getByLabel("Description").fill("edited by its lead");
    const save = form.getByRole("button", { name: "Save changes" });
    await expect(save).toBeEnabled();
    await save.click();
    await expect(page.getByText(`Saved ${OWN_POOL}`)).toBeVisible();

    // Another team's pool: the same form, its save disabled with the policy's reason.
    await open(page, `/pools${OTHER_POOL}?tab=edit`);
    const reason = `only leads of the owning team "${OTHER_TEAM}" may edit ${OTHER_POOL}`;
    const otherForm = main(page).getByTestId("pool-form").filter({ visible: true });
    const refused = otherForm.getByRole("button", { name: "Save changes" });
    await expect(refused).toBeDisabled();
    await expect(refused).toHaveAttribute("title", reason);
    // The note beside the actions says the same sentence, capitalised.
    await expect(main(page).getByTestId("access-note").first()).toContainText(reason, {
      ignoreCase: true,
    });
    await expect(main(page).getByRole("button", { name: "Delete" })).toBeDisabled();
    await expect(main(page).getByRole("button", { name: "New child pool" })).toBeDisabled();

    // The menu: who, role, teams, tokens; no admin pages.
    await page.getByTestId("user-menu").click();
    const menu = page.getByRole("menu");
    await expect(menu.getByTestId("user-menu-who")).toContainText(LEAD.login);
    await expect(menu.getByTestId("user-menu-who")).toContainText(OWN_TEAM);
    await expect(menu.getByRole("menuitem", { name: "API tokens" })).toBeVisible();
    await expect(menu.getByRole("menuitem", { name: "Users" })).toHaveCount(0);
    await shot(page, "user-menu-light");

    // Signing out ends the session: back to the sign-in page, and pages need it again.
    await menu.getByRole("menuitem", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    await open(page, "/jobs");
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fjobs/);
    expect(errors).toEqual([]);
    await context.close();
  });

  test("a viewer finds every action disabled with the reason, and the admin pages closed", async ({
    browser,
  }) => {
    const fx = readFixture();
    const context = await signedOut(browser);
    const page = await context.newPage();
    await open(page, "/sign-in");
    await signInThroughPage(page, VIEWER.login, PASSWORD);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("actor-role")).toHaveText("viewer");

    // Hosts: maintenance refused for want of the grant.
    await open(page, "/hosts");
    const drain = page
      .locator('tr[data-host="e2e-host-0"]')
      .filter({ visible: true })
      .getByRole("button", { name: /Start maintenance|Complete maintenance/ });
    await expect(drain).toBeDisabled();
    await expect(drain).toHaveAttribute("title", /only admins and people granted host maintenance/);

    // A job: every action disabled, each with the reason.
    const job = fx.backlogJobs[0]!;
    await open(page, `/jobs/${job.id}`);
    const actions = main(page).getByTestId("job-actions");
    for (const name of ["Stop", "Start", "Restart", "Scale", "Delete"])
      await expect(actions.getByRole("button", { name, exact: true })).toBeDisabled();
    await expect(actions.getByRole("button", { name: "Restart", exact: true })).toHaveAttribute(
      "title",
      /a viewer may not restart jobs/,
    );
    await expect(main(page).getByTestId("access-note")).toContainText("a viewer may not", {
      ignoreCase: true,
    });

    // Pools: no creating, no editing.
    await open(page, "/pools");
    await expect(main(page).getByRole("button", { name: "New top-level pool" })).toBeDisabled();
    await open(page, `/pools${OWN_POOL}?tab=edit`);
    await expect(
      main(page).getByTestId("pool-form").filter({ visible: true }).getByRole("button", {
        name: "Save changes",
      }),
    ).toBeDisabled();

    // New job: submitting refused for the chosen pool.
    await open(page, "/jobs/new");
    await main(page).getByLabel("Resource pool").selectOption("/infra/batch");
    await expect(main(page).getByRole("button", { name: "Create job" })).toBeDisabled();

    // The admin pages say who may use them.
    await open(page, "/admin/users");
    await expect(page.getByTestId("admins-only")).toContainText("Only admins may manage users");
    await context.close();
  });

  test("a token made in /tokens works from the CLI until it is revoked there", async ({
    page,
    baseURL,
  }) => {
    await page.goto("/tokens");
    await expect(page.getByRole("heading", { name: "API tokens" })).toBeVisible();
    await main(page).getByTestId("token-name").fill("e2e-cli");
    await main(page).getByRole("button", { name: "Create token" }).click();
    const shown = main(page).getByTestId("new-token-value");
    await expect(shown).toHaveText(/^pt_[A-Za-z0-9_-]{43}$/);
    const token = (await shown.textContent())!;
    await shot(page, "tokens-light");

    const peloton = (...args: string[]) =>
      promisify(execFile)(
        process.execPath,
        [resolve(root, "packages/cli/bin/peloton.mjs"), ...args],
        { env: { ...process.env, PELOTON_URL: baseURL, PELOTON_TOKEN: token } },
      );
    const lookup = await peloton("respool", "lookup", "/infra/batch");
    expect(lookup.stdout).toMatch(/\ncpu\s/);

    // Listed by its prefix, with its last use.
    await main(page).getByRole("button", { name: "I have copied it" }).click();
    await expect(shown).toHaveCount(0);
    const row = main(page).locator('tr[data-token="e2e-cli"]');
    // The prefix's length is the API's choice; its first characters are the token's.
    await expect(row).toContainText(token.slice(0, 6));

    await row.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Revoke token" }).click();
    await expect(row.getByTestId("token-revoked")).toBeVisible();

    const refused = await peloton("respool", "lookup", "/infra/batch").then(
      () => null,
      (err: { code?: number; stderr?: string }) => err,
    );
    expect(refused, "the CLI must be refused with a revoked token").not.toBeNull();
    expect(refused!.stderr).toMatch(/sign in|401|unauthori[sz]ed|token/i);
  });

  test("screenshots: sign-in, tokens, users and teams, light and dark", async ({
    page,
    browser,
  }) => {
    await page.goto("/admin/users");
    await expect(main(page).getByTestId("users-table")).toContainText(LEAD.login);
    await shot(page, "admin-users-light");
    // New user's dialog is opened from code: Escape gives its button the focus back.
    const newUser = main(page).getByRole("button", { name: "New user" });
    await newUser.click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toBeHidden();
    await expect(newUser).toBeFocused();

    await page.goto("/admin/teams");
    await expect(main(page).getByTestId(`team-${OWN_TEAM}`)).toBeVisible();
    await shot(page, "admin-teams-light");
    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload();
    await expect(main(page).getByTestId(`team-${OWN_TEAM}`)).toBeVisible();
    await shot(page, "admin-teams-dark");

    await page.goto("/admin/users");
    await expect(main(page).getByTestId("users-table")).toContainText(LEAD.login);
    await shot(page, "admin-users-dark");
    await page.goto("/tokens");
    await expect(page.getByRole("heading", { name: "API tokens" })).toBeVisible();
    await shot(page, "tokens-dark");
    await page.getByTestId("user-menu").click();
    await expect(page.getByRole("menu")).toBeVisible();
    await shot(page, "user-menu-dark");

    const context = await browser.newContext({
      storageState: { cookies: [], origins: [] },
      colorScheme: "dark",
    });
    const signIn = await context.newPage();
    await open(signIn, "/sign-in");
    await expect(signIn.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await shot(signIn, "sign-in-dark");
    await context.close();
  });
});
