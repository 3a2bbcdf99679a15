/**
 * Host attributes with a meaning of their own (Peloton's `common` constants).
 *
 * `peloton/exclusive`: a host carrying it takes only tasks whose constraint
 * names it (peloton-semantics.md §3). `hostname`: every host answers to it
 * with its own name, so a constraint can pin or avoid a host by name
 * (Peloton's `GetHostLabelValues` adds it to every host's labels); a host's own
 * `hostname` attribute, when it has one, wins.
 */
export const EXCLUSIVE_ATTRIBUTE = "peloton/exclusive";
export const HOSTNAME_ATTRIBUTE = "hostname";
