/** No credential in a log line (docs/identity.md): headers, passwords and tokens are redacted. */
import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { REDACTED_PATHS } from "../src/common/logger.ts";

describe("the logger's redaction", () => {
  it("hides authorization and cookie headers, passwords, tokens and secrets", () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = pino({ redact: { paths: REDACTED_PATHS, censor: "[redacted]" } }, sink);
    log.info(
      {
        req: {
          headers: { authorization: "Bearer pt_secret", cookie: "better-auth.session_token=abc" },
        },
        password: "hunter2",
        body: { password: "hunter3", token: "pt_other" },
        secret: "s3cr3t",
      },
      "request",
    );
    const line = lines.join("");
    for (const leaked of ["pt_secret", "session_token", "hunter2", "hunter3", "pt_other", "s3cr3t"])
      expect(line).not.toContain(leaked);
    expect(line).toContain("[redacted]");
  });
});
