/**
 * `--latency MS`: how long this process's tools take to answer, like a real retrieval backend
 * (embedding, vector search, reranking). Zero by default: the demo answers at once.
 */
let latencyMs = 0

export function setLatency(ms: number): void {
  latencyMs = ms
}

/**
 * Runs a tool's work and answers (or fails) once the backend latency has passed since the call
 * came in: the server instance's own latency when it has one (an endpoint of `all --endpoints`
 * with a `--latency` list), else the process's. The tool's own work counts within it, as a real
 * backend's does (embedding and ranking are what its latency is made of): the demo answers when
 * its latency says, not its latency plus however long this machine took to build the reply. A
 * tool slower than the latency answers when it is done.
 */
export async function withinLatency<T>(work: () => T | Promise<T>, ms = latencyMs): Promise<T> {
  if (ms <= 0) return work()
  const due = Date.now() + ms
  try {
    return await work()
  } finally {
    const left = due - Date.now()
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left))
  }
}
