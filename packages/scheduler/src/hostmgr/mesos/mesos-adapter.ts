/**
 * The Mesos host adapter as the scheduler asks for one: a factory the
 * composition root (boot/) builds from MESOS_MASTER_URL or the in-process
 * mesos-sim, and the leader calls once per term with the term's gateway.
 */
import type { HostAdapterDeps, HostAdapterFactory } from "../host-adapter.ts";
import { MesosHostManager, type MesosHostManagerOptions } from "./mesos-host-manager.ts";

/** The Mesos-only settings: the masters, the framework, and tuning (tests shorten it). */
export type MesosAdapterOptions = Omit<
  MesosHostManagerOptions,
  Exclude<keyof HostAdapterDeps, "statusConcurrency">
> &
  Partial<Pick<HostAdapterDeps, "statusConcurrency">>;

export function mesosHostAdapter(opts: MesosAdapterOptions): HostAdapterFactory {
  return (deps) => new MesosHostManager({ ...deps, ...opts });
}
