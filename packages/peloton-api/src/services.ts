/**
 * The one table both transports serve: every v0 service (JobManager,
 * TaskManager, ResourceManager, UpdateService, HostService, VolumeService
 * and the svc spellings JobService, TaskService, ResourcePoolService),
 * v1alpha's stateless JobService, PodService, ResourcePoolService,
 * HostService, VolumeService and WatchService, and AdminService answering
 * UNIMPLEMENTED (a method a service does not offer says what is missing).
 */
import type { DescService } from "@bufbuild/protobuf";
import { Registry, type ServiceEntry, serve } from "./calls/registry.ts";
import { AdminService } from "./generated/peloton/api/v1alpha/admin/svc/admin_svc_pb.ts";
import { hostService as hostServiceV0 } from "./v0/host-service.ts";
import { jobManager } from "./v0/job-manager.ts";
import { jobServiceV0 } from "./v0/job-service.ts";
import { resourceManager } from "./v0/resource-manager.ts";
import { resourcePoolServiceV0 } from "./v0/respool-service.ts";
import { taskManager } from "./v0/task-manager.ts";
import { taskServiceV0 } from "./v0/task-service.ts";
import { updateService } from "./v0/update-service.ts";
import { volumeService as volumeServiceV0 } from "./v0/volume-service.ts";
import { hostService } from "./v1alpha/host-service.ts";
import { statelessJobService } from "./v1alpha/job-service.ts";
import { podService } from "./v1alpha/pod-service.ts";
import { resourcePoolService } from "./v1alpha/resource-pool-service.ts";
import { volumeService } from "./v1alpha/volume-service.ts";
import { watchService } from "./v1alpha/watch-service.ts";

/** Served elsewhere in this API: what a client of a service not served yet can use instead. */
const SERVED =
  "every v0 service and v1alpha's job, pod, pool, host, volume and watch services are served (packages/peloton-api/README.md)";

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
  statelessJobService,
  podService,
  resourcePoolService,
  hostService,
  volumeService,
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
