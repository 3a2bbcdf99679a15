/** The credentials file: where it lives, its permissions, and which token wins. */
import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliTokenName } from "../src/commands/login.ts";
import {
  credentialsPath,
  deleteCredentials,
  readCredentials,
  tokenFor,
  writeCredentials,
} from "../src/credentials.ts";

const configHome = () => mkdtempSync(join(tmpdir(), "peloton-credentials-"));

describe("credentials", () => {
  it("lives under XDG_CONFIG_HOME, else ~/.config", () => {
    expect(credentialsPath({ XDG_CONFIG_HOME: "/x" })).toBe("/x/peloton/credentials.json");
    expect(credentialsPath({ HOME: "/home/ada" })).toBe(
      "/home/ada/.config/peloton/credentials.json",
    );
  });

  it("is written 0600 in a 0700 folder, even over a file that was readable", () => {
    const env = { XDG_CONFIG_HOME: configHome() };
    const path = writeCredentials({ server: "http://a", login: "ada", token: "pt_1" }, env);
    writeFileSync(path, "{}", { mode: 0o644 });
    writeCredentials({ server: "http://a", login: "ada", token: "pt_2" }, env);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    expect(readCredentials(env)).toEqual({ server: "http://a", login: "ada", token: "pt_2" });
    deleteCredentials(env);
    expect(readCredentials(env)).toBeNull();
  });

  it("PELOTON_TOKEN wins; a stored token goes only to the server it was made for", () => {
    const env = { XDG_CONFIG_HOME: configHome() };
    writeCredentials({ server: "http://a", login: "ada", token: "pt_stored" }, env);
    expect(tokenFor("http://a", env)).toBe("pt_stored");
    expect(tokenFor("http://b", env)).toBeNull();
    expect(tokenFor("http://b", { ...env, PELOTON_TOKEN: "pt_env" })).toBe("pt_env");
  });

  it("names login tokens after the host and the time", () => {
    expect(cliTokenName("ada's laptop", new Date("2026-11-25T20:00:01.234Z"))).toBe(
      "cli-ada-s-laptop-20261125T200001Z",
    );
  });
});
