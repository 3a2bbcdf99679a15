/**
 * The one table both transports serve: every v0 service (JobManager,
 * TaskManager, ResourceManager, UpdateService, HostService, VolumeService
 * and the svc spellings JobService, TaskService, ResourcePoolService),
 * v1alpha's WatchService, and every other Peloton service of our protos
 * with each method answering UNIMPLEMENTED, saying what this scheduler
 * does not offer through Peloton's API yet.
 */
import type { DescService } from "@bufbuild/protobuf";
import { Registry, type ServiceEntry, serve } from "./calls/registry.ts";
import { AdminService } from "./generated/peloton/api/v1alpha/admin/svc/admin_svc_pb.ts";
import { HostService } from "./generated/peloton/api/v1alpha/host/svc/host_svc_pb.ts";
import { JobService } from "./generated/peloton/api/v1alpha/job/stateless/svc/stateless_svc_pb.ts";
import { PodService } from "./generated/peloton/api/v1alpha/pod/svc/pod_svc_pb.ts";
import { ResourcePoolService } from "./generated/peloton/api/v1alpha/respool/svc/respool_svc_pb.ts";
import { VolumeService } from "./generated/peloton/api/v1alpha/volume/svc/volume_svc_pb.ts";
import { hostService as hostServiceV0 } from "./v0/host-service.ts";
import { jobManager } from "./v0/job-manager.ts";
import { jobServiceV0 } from "./v0/job-service.ts";
import { resourceManager } from "./v0/resource-manager.ts";
import { resourcePoolServiceV0 } from "./v0/respool-service.ts";
import { taskManager } from "./v0/task-manager.ts";
import { taskServiceV0 } from "./v0/task-service.ts";
import { updateService } from "./v0/update-service.ts";
import { volumeService as volumeServiceV0 } from "./v0/volume-service.ts";
import { watchService } from "./v1alpha/watch-service.ts";

/** Served elsewhere in this API: what a client of a service not served yet can use instead. */
const SERVED = "every v0 service is served (packages/peloton-api/README.md)";

const notYet = (service: DescService, why: string): ServiceEntry =>
  serve(service, {}, (m) => `${service.typeName}.${m.name}: ${why}; ${SERVED}`);

export const SERVICES: readonly ServiceEntry[] = [
  jobManager,
  taskManager,
  resourceManager,
  updateService,
  jobServiceV0,
  taskServiceV0,
  resourcePoolServiceV0,
  hostServiceV0,
  volumeServiceV0,
  notYet(JobService, "v1alpha stateless jobs are not served yet"),
  notYet(PodService, "v1alpha pods are not served yet"),
  notYet(ResourcePoolService, "the v1alpha resource pool service is not served yet"),
  notYet(HostService, "the v1alpha host service is not served yet"),
  notYet(VolumeService, "the v1alpha volume service is not served yet"),
  watchService,
  notYet(
    AdminService,
    "administration (lock/unlock components) has no equivalent in this scheduler",
  ),
];

let registry: Registry | undefined;

/** The process's table of methods (built once). */
export function pelotonRegistry(): Registry {
  registry ??= new Registry(SERVICES);
  return registry;
}
