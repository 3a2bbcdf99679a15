import { describe, expect, it } from "vitest";
import { onlyPublicProcedures } from "../src/server/http.ts";

const at = (path: string) => new Request(`http://127.0.0.1:3000${path}`);

describe("onlyPublicProcedures", () => {
  it("is true for the health probe alone, which needs nobody signed in", () => {
    expect(onlyPublicProcedures(at("/api/trpc/system.health"), "/api/trpc")).toBe(true);
    expect(onlyPublicProcedures(at("/api/trpc/system.health?input=%7B%7D"), "/api/trpc")).toBe(
      true,
    );
  });

  it("is false as soon as a batch names anything else", () => {
    expect(
      onlyPublicProcedures(at("/api/trpc/system.health,pools.delete?batch=1"), "/api/trpc"),
    ).toBe(false);
    expect(onlyPublicProcedures(at("/api/trpc/pools.tree"), "/api/trpc")).toBe(false);
    expect(onlyPublicProcedures(at("/api/other/system.health"), "/api/trpc")).toBe(false);
  });
});
