/**
 * A task that ran before prefers the host it ran on (its image and data are
 * warm there): 100 on that host, 0 elsewhere. A preference only; the sticky
 * volume filter is the requirement.
 */
export function stickyScore(hostname: string, previousHost: string | undefined): number {
  return previousHost !== undefined && hostname === previousHost ? 100 : 0;
}
