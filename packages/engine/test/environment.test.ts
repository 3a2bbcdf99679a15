/** The environment's one schema: defaults, typed values, one line naming every bad variable, secrets hidden. */
import { describe, expect, it } from "vitest";
import {
  EnvironmentError,
  readEnvironment,
  redacted,
  SERVER_VARIABLES,
} from "../src/environment/variables.ts";

describe("readEnvironment", () => {
  it("applies defaults and treats blank as unset", () => {
    const env = readEnvironment({ PORT: " ", PELOTON_DEMO: "" });
    expect(env.PORT).toBe(3000);
    expect(env.HOST).toBe("127.0.0.1");
    expect(env.PELOTON_DEMO).toBe(true);
    expect(env.PELOTON_OIDC_NAME).toBe("SSO");
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("types the values it reads, and only the ones asked for", () => {
    const env = readEnvironment(
      { PORT: "3001", PELOTON_URL: "http://api:3000//", PELOTON_DEMO: "0", PORT_UNUSED: "x" },
      ["PORT", "PELOTON_URL", "PELOTON_DEMO"],
    );
    expect(env).toEqual({ PORT: 3001, PELOTON_URL: "http://api:3000", PELOTON_DEMO: false });
  });

  it("names every bad variable and its rule in one line", () => {
    const read = () =>
      readEnvironment({
        PORT: "99999",
        PELOTON_LOG_LEVEL: "loud",
        MESOS_MASTER_URL: "master:5050",
      });
    expect(read).toThrow(EnvironmentError);
    expect(read).toThrow(
      'PORT must be a port number (1-65535) (got "99999"); MESOS_MASTER_URL must be http://host:port URLs, comma-separated (got "master:5050"); PELOTON_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
    );
  });

  it("never shows a secret's value, in errors or logs", () => {
    const secret = "too-short-to-sign";
    let message = "";
    try {
      readEnvironment({ PELOTON_AUTH_SECRET: secret });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe(
      "PELOTON_AUTH_SECRET must be at least 32 characters (value hidden: secret)",
    );
    const env = readEnvironment({ DATABASE_URL: "postgres://u:pw@db/peloton" }, [
      "DATABASE_URL",
      "PORT",
    ]);
    expect(redacted(env)).toEqual({ DATABASE_URL: "(hidden)", PORT: "3000" });
  });

  it("leaves the CLI's variables to the CLI", () => {
    expect(SERVER_VARIABLES).not.toContain("PELOTON_URL");
    expect(SERVER_VARIABLES).not.toContain("PELOTON_TOKEN");
    expect(() => readEnvironment({ PELOTON_URL: "nowhere" }, SERVER_VARIABLES)).not.toThrow();
  });
});
