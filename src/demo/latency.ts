/**
 * `--latency MS`: how long this process's tools take to answer, like a real retrieval backend
 * (embedding, vector search, reranking). Zero by default: the demo answers at once.
 */
let latencyMs = 0

export function setLatency(ms: number): void {
  latencyMs = ms
}

/** Resolves after the configured backend latency (at once when there is none). */
export function backendLatency(): Promise<void> | undefined {
  if (latencyMs <= 0) return undefined
  return new Promise((resolve) => setTimeout(resolve, latencyMs))
}
