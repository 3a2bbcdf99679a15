import { describe, expect, it } from "vitest";
import {
  describePathProblem,
  isAncestorPath,
  isValidPoolPath,
  joinPoolPath,
  lastSegment,
  parentPath,
  parsePoolPath,
  pathDepth,
} from "../src/index.ts";

describe("pool paths", () => {
  it.each([
    { path: "/", segments: [] },
    { path: "/infra", segments: ["infra"] },
    { path: "/infra/batch-1", segments: ["infra", "batch-1"] },
  ])("parses $path", ({ path, segments }) => {
    expect(parsePoolPath(path)).toEqual({ ok: true, segments });
    expect(isValidPoolPath(path)).toBe(true);
  });

  it.each([
    { path: "", problem: "EMPTY" },
    { path: "infra/compute", problem: "NOT_ABSOLUTE" },
    { path: "/infra/", problem: "TRAILING_SLASH" },
    { path: "/infra//batch", problem: "EMPTY_SEGMENT" },
    { path: "/infra/..", problem: "INVALID_NAME" },
    { path: "/infra/ batch", problem: "INVALID_NAME" },
  ])("refuses $path ($problem)", ({ path, problem }) => {
    const parsed = parsePoolPath(path);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.problem).toBe(problem);
      expect(describePathProblem(path, parsed)).toMatch(/\S/);
    }
  });

  it("names the Peloton problem the way Peloton's validator does", () => {
    const parsed = parsePoolPath("infrastructure/compute");
    expect(!parsed.ok && describePathProblem("infrastructure/compute", parsed)).toBe(
      'path "infrastructure/compute" should begin with /',
    );
  });

  it.each([
    ["/", null, "", 0],
    ["/a", "/", "a", 1],
    ["/a/b/c", "/a/b", "c", 3],
  ] as const)("%s: parent %s, last segment %s, depth %d", (path, parent, last, depth) => {
    expect(parentPath(path)).toBe(parent);
    expect(lastSegment(path)).toBe(last);
    expect(pathDepth(path)).toBe(depth);
  });

  it("joins and compares", () => {
    expect(joinPoolPath("/", "a")).toBe("/a");
    expect(joinPoolPath("/a", "b")).toBe("/a/b");
    expect(isAncestorPath("/", "/a")).toBe(true);
    expect(isAncestorPath("/a", "/a/b/c")).toBe(true);
    expect(isAncestorPath("/a", "/ab")).toBe(false);
    expect(isAncestorPath("/a", "/a")).toBe(false);
  });
});
