/**
 * Wire compatibility: the descriptors compiled into our generated code
 * (what the server decodes and encodes with) have Peloton's shape — every
 * message's field names, numbers, types and labels, every enum's values,
 * every service's methods — as the fixture made from Peloton's own protos
 * says (scripts/peloton-api/wire-fixture.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { toJson } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { type FileDescriptorJson, type WireShape, wireShape } from "../src/wire/shape.ts";
import { generatedFiles } from "./support/generated-files.ts";

const fixture = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures/peloton-wire.json"), "utf8"),
) as WireShape & { source: string };

const ours = wireShape(
  // Google's Timestamp included: Peloton's messages embed it.
  (await generatedFiles()).map(
    (f) => toJson(FileDescriptorProtoSchema, f.proto) as FileDescriptorJson,
  ),
);

describe("our protos against Peloton's wire shape", () => {
  for (const kind of ["messages", "enums", "services"] as const) {
    it(`declares the same ${kind}`, () => {
      expect(Object.keys(ours[kind]).sort()).toEqual(Object.keys(fixture[kind]).sort());
    });
    it(`gives every one of the ${kind} the same fields, values or methods`, () => {
      const differing = Object.keys(fixture[kind]).filter(
        (name) => JSON.stringify(ours[kind][name]) !== JSON.stringify(fixture[kind][name]),
      );
      expect(
        differing.map((name) => ({ name, ours: ours[kind][name], peloton: fixture[kind][name] })),
      ).toEqual([]);
    });
  }

  it("covers the services this issue serves", () => {
    for (const service of [
      ".peloton.api.v0.job.JobManager",
      ".peloton.api.v0.task.TaskManager",
      ".peloton.api.v0.respool.ResourceManager",
      ".peloton.api.v0.update.svc.UpdateService",
      ".peloton.api.v0.host.svc.HostService",
      ".peloton.api.v0.volume.svc.VolumeService",
      ".peloton.api.v0.job.svc.JobService",
      ".peloton.api.v0.task.svc.TaskService",
      ".peloton.api.v0.respool.ResourcePoolService",
      ".peloton.api.v1alpha.watch.svc.WatchService",
      ".peloton.api.v1alpha.respool.ResourcePoolService",
      ".peloton.api.v1alpha.pod.svc.PodService",
      ".peloton.api.v1alpha.host.svc.HostService",
      ".peloton.api.v1alpha.volume.svc.VolumeService",
      ".peloton.api.v1alpha.job.stateless.svc.JobService",
    ]) {
      expect(ours.services[service]?.length ?? 0).toBeGreaterThan(0);
    }
  });
});
