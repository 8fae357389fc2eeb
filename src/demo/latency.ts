/**
 * `--latency MS`: how long this process's tools take to answer, like a real retrieval backend
 * (embedding, vector search, reranking). Zero by default: the demo answers at once.
 */
let latencyMs = 0

export function setLatency(ms: number): void {
  latencyMs = ms
}

/**
 * Resolves after the backend latency: the server instance's own when it has one (an endpoint
 * of `all --endpoints` with a `--latency` list), else the process's; at once when there is none.
 */
export function backendLatency(ms = latencyMs): Promise<void> | undefined {
  if (ms <= 0) return undefined
  return new Promise((resolve) => setTimeout(resolve, ms))
}
