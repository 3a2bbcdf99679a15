/**
 * The largest request either protocol reads: 4 MiB, gRPC's default maximum
 * received message (a job config is at most 1 MiB of YAML). A bigger one is
 * refused before it is read whole.
 */
export const MAX_REQUEST_BYTES = 4 * 1024 * 1024;
