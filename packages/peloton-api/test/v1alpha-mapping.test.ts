/**
 * The v1alpha translations that need no server: pod names and ids, entity
 * versions, a PodSpec through v0's TaskConfig and back, and how a v0
 * config field reads in a JobSpec.
 */
import { create } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { PodSpecSchema } from "../src/generated/peloton/api/v1alpha/pod/pod_pb.ts";
import { parseEntityVersion } from "../src/v1alpha/job-spec.ts";
import { podSpecOf, taskConfigOf } from "../src/v1alpha/pod-spec.ts";
import { parsePodId, parsePodName } from "../src/v1alpha/pods.ts";
import { specField } from "../src/v1alpha/spec-fields.ts";
import { refused } from "./support/refusals.ts";

const JOB = "0b6c2c8e-6f0e-4a51-9a51-3f1b6a0c2d10";

describe("pod names and ids", () => {
  it("reads Peloton's spelling, the job id being a UUID with its own dashes", () => {
    expect(parsePodName(`${JOB}-12`, "f")).toEqual({ jobId: JOB, instance: 12 });
    expect(parsePodId(`${JOB}-12-3`, "f")).toEqual({ jobId: JOB, instance: 12, run: 3 });
  });

  it.each([["x"], [JOB], [`${JOB}-`], [`${JOB}-a`], [`short-1`]])(
    "refuses %s naming the field",
    (value) => {
      expect(refused(() => parsePodName(value, "podName.value"))).toEqual({
        code: Code.InvalidArgument,
        message: expect.stringMatching(/^podName\.value: a pod name is "<job id>-<instance>"/),
      });
    },
  );
});

describe("entity versions", () => {
  it("are <config version>-<job version>; empty means unchecked", () => {
    expect(parseEntityVersion("2-17")).toEqual({ configVersion: 2, version: 17 });
    expect(parseEntityVersion("")).toBeUndefined();
    expect(refused(() => parseEntityVersion("1-2-3")).message).toMatch(/^version\.value: /);
  });
});

describe("PodSpec and v0 TaskConfig", () => {
  const spec = create(PodSpecSchema, {
    labels: [{ key: "a", value: "b" }],
    containers: [
      {
        name: "web",
        resource: { cpuLimit: 0.5, memLimitMb: 64, diskLimitMb: 10, fdLimit: 100, gpuLimit: 0 },
        command: { value: "serve", shell: true },
        ports: [{ name: "http", value: 8080, envName: "PORT" }],
        livenessCheck: {
          enabled: true,
          intervalSecs: 5,
          type: 1,
          commandCheck: { command: "true" },
        },
      },
    ],
    constraint: {
      type: 1,
      labelConstraint: {
        kind: 2,
        condition: 2,
        label: { key: "zone", value: "a" },
        requirement: 1,
      },
    },
    restartPolicy: { maxFailures: 2 },
    volume: { containerPath: "/data", sizeMb: 512 },
    preemptionPolicy: { killOnPreempt: true },
    killGracePeriodSeconds: 7,
  });

  it("goes to v0 and back unchanged", () => {
    const v0 = taskConfigOf(spec, "spec.defaultSpec");
    expect(v0).toMatchObject({
      name: "web",
      resource: { cpuLimit: 0.5, memLimitMb: 64 },
      healthCheck: { enabled: true, intervalSecs: 5, commandCheck: { command: "true" } },
      volume: { containerPath: "/data", sizeMB: 512 },
      preemptionPolicy: { killOnPreempt: true, type: 1 },
      constraint: { labelConstraint: { kind: 2, label: { key: "zone" } } },
    });
    expect(create(PodSpecSchema, podSpecOf(v0))).toEqual(spec);
  });

  it("refuses what v0 has no field for, naming it", () => {
    const two = create(PodSpecSchema, { containers: [{}, {}] });
    expect(refused(() => taskConfigOf(two, "spec.defaultSpec"))).toEqual({
      code: Code.Unimplemented,
      message: expect.stringMatching(/^spec\.defaultSpec\.containers: /),
    });
    const image = create(PodSpecSchema, { containers: [{ image: "nginx" }] });
    expect(refused(() => taskConfigOf(image, "s")).message).toMatch(/^s\.containers\[0\]\.image: /);
  });
});

describe("a v0 config field in JobSpec terms", () => {
  it.each([
    ["name", "name"],
    ["sla.priority", "sla.priority"],
    ["respoolID", "respoolId"],
    ["defaultConfig.resource.cpuLimit", "defaultSpec.containers[0].resource.cpuLimit"],
    [
      "defaultConfig.healthCheck.intervalSecs",
      "defaultSpec.containers[0].livenessCheck.intervalSecs",
    ],
    ["defaultConfig.volume.sizeMB", "defaultSpec.volume.sizeMb"],
    ["defaultConfig.restartPolicy.maxFailures", "defaultSpec.restartPolicy.maxFailures"],
    ["instanceConfig.3.command.value", "instanceSpec.3.containers[0].command.value"],
  ])("%s reads %s", (ours, theirs) => {
    expect(specField(ours)).toBe(theirs);
  });
});
