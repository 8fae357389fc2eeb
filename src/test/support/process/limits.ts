/**
 * How long a test waits for something bound to happen (a process printing its ready line, a
 * server reaching a state, a CLI run ending, a reply) before it concludes that it never will.
 *
 * A safety net, not a measurement: a step that takes a second on an idle machine takes ten on
 * one busy with other work (load 16 on 2 cores), and the test must pass there too. Use it for
 * every wait and for the `timeoutMs` of a registry entry whose server must answer. A test of a
 * timeout sets its own short one against a server that never answers (or answers after much
 * longer), so its outcome does not depend on how fast the machine is.
 *
 * No test-runner imports here: the benchmarks use the same helpers.
 */
export const SAFETY_NET_MS = 60_000

/** A delay longer than any test runs: a server told to answer after it never answers in a test. */
export const NEVER_MS = 3_600_000
