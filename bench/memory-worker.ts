import { demoRegistry, startDemoCore, startDemoServers } from './demo-servers'
import { searchLoad } from './throughput'
import { workerPlan } from './worker'

/** Runs {@link runMemoryWorker} instead of the benchmarks (the memory benchmark's child). */
export const MEMORY_WORKER_FLAG = '--memory-worker'

/** What the parent asks the child to do (JSON after the flag). */
export interface MemoryPlan {
  servers: number
  /** Searches per round; the second round repeats the first exactly. */
  searches: number
  /** A sample (after a forced GC) every this many searches. */
  sampleEvery: number
  workers: number
}

/** Main-process memory after a forced collection, in MB. */
export interface MemorySample {
  rssMB: number
  heapUsedMB: number
  /** Memory V8 holds for its heap, used or not. */
  heapTotalMB: number
  /** Outside the JS heap: Buffers and other C++ objects tied to JS ones. */
  externalMB: number
}

/** The child's answer, one JSON line on stdout. */
export interface MemoryReport {
  connected: MemorySample
  rounds: { samples: MemorySample[]; errors: string[]; seconds: number }[]
}

const MB = 2 ** 20

function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc) throw new Error('the memory worker needs node --expose-gc')
  // Twice: the first pass can leave objects that only become unreachable after finalizers run.
  gc()
  gc()
}

/** Memory after two forced collections (needs node --expose-gc). */
export function sampleMemory(): MemorySample {
  collect()
  const usage = process.memoryUsage()
  return {
    rssMB: usage.rss / MB,
    heapUsedMB: usage.heapUsed / MB,
    heapTotalMB: usage.heapTotal / MB,
    externalMB: usage.external / MB,
  }
}

/**
 * The memory benchmark's child: a fresh process holding a whole console connected to
 * `servers` demo servers, runs the same searches twice and reports memory after each chunk.
 * A process of its own, so nothing another benchmark left behind is counted.
 */
export async function runMemoryWorker(): Promise<number> {
  const plan = workerPlan<MemoryPlan>(MEMORY_WORKER_FLAG)
  const demo = await startDemoServers()
  try {
    const registry = demoRegistry(demo, plan.servers)
    const servers = Object.keys(registry)
    const live = await startDemoCore(registry)
    try {
      const connected = sampleMemory()
      const rounds: MemoryReport['rounds'] = []
      for (let round = 0; round < 2; round++) {
        const samples: MemorySample[] = []
        const errors: string[] = []
        let seconds = 0
        for (let done = 0; done < plan.searches; done += plan.sampleEvery) {
          const run = await searchLoad(live.core, {
            servers,
            workers: plan.workers,
            searches: Math.min(plan.sampleEvery, plan.searches - done),
            // The same ids and queries in both rounds: round 2 repeats round 1 exactly.
            tag: `memory-${done}`,
          })
          await live.core.services.idle()
          seconds += run.seconds
          errors.push(...run.errors)
          samples.push(sampleMemory())
        }
        rounds.push({ samples, errors, seconds })
      }
      const report: MemoryReport = { connected, rounds }
      process.stdout.write(`${JSON.stringify(report)}\n`)
    } finally {
      await live.close()
    }
  } finally {
    await demo.stop()
  }
  return 0
}
