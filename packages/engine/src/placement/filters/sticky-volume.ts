/**
 * A stateful instance runs where its volume lives (peloton-semantics.md §3:
 * a stateful job's task config has a volume): with a volume host, every other
 * host is rejected. Without one, every host passes.
 */
export function stickyVolumeFilter(
  volumeHost: string | undefined,
  hostname: string,
): "VOLUME_ON_OTHER_HOST" | null {
  return volumeHost === undefined || volumeHost === hostname ? null : "VOLUME_ON_OTHER_HOST";
}
