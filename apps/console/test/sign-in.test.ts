import { describe, expect, it } from "vitest";
import { tooManyAttempts } from "../src/components/identity/sign-in-request.ts";
import { isPublicPage, safeNextPath } from "../src/components/shell/public-pages.ts";

describe("safeNextPath", () => {
  it("keeps a path on this console, with its query", () => {
    expect(safeNextPath("/pools/ml?tab=edit")).toBe("/pools/ml?tab=edit");
    expect(safeNextPath("/jobs")).toBe("/jobs");
  });

  it("sends anything that could leave the console to the overview", () => {
    for (const next of [
      "https://evil.example/",
      "//evil.example",
      "/\\evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "evil",
      "",
      null,
      undefined,
    ])
      expect(safeNextPath(next), String(next)).toBe("/");
  });

  it("never returns to the sign-in page itself", () => {
    expect(safeNextPath("/sign-in")).toBe("/");
    expect(safeNextPath("/sign-in?next=/jobs")).toBe("/");
  });
});

describe("isPublicPage", () => {
  it("is the sign-in page only", () => {
    expect(isPublicPage("/sign-in")).toBe(true);
    expect(isPublicPage("/sign-inside")).toBe(false);
    expect(isPublicPage("/")).toBe(false);
  });
});

describe("tooManyAttempts", () => {
  it("says how long to wait, in minutes or seconds", () => {
    expect(tooManyAttempts(300)).toBe("Too many attempts: wait 5 minutes, then try again.");
    expect(tooManyAttempts(61)).toBe("Too many attempts: wait 2 minutes, then try again.");
    expect(tooManyAttempts(60)).toBe("Too many attempts: wait 1 minute, then try again.");
    expect(tooManyAttempts(9)).toBe("Too many attempts: wait 9 seconds, then try again.");
    expect(tooManyAttempts(null)).toBe("Too many attempts: wait a few minutes, then try again.");
  });
});
