/**
 * SPREAD_JOB (Peloton's service strategy): a job's tasks go where it has the
 * fewest, by host and by the spread attribute's value (the zone), so losing a
 * host or a zone takes few of its instances. On 0–100:
 * - host part: 100 / (1 + the job's tasks on the host);
 * - domain part: 100 × (1 + the job's tasks in its least used domain)
 *   / (1 + the job's tasks in this host's domain), so the emptiest zone scores 100;
 * - the mean of the two; a host without the attribute is scored on the host part.
 */
export function spreadScore(
  onHost: number,
  inDomain: number | null,
  fewestInDomain: number,
): number {
  const hostPart = 100 / (1 + onHost);
  if (inDomain === null) return hostPart;
  const domainPart = (100 * (1 + fewestInDomain)) / (1 + Math.max(inDomain, fewestInDomain));
  return (hostPart + domainPart) / 2;
}
