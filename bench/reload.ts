import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { RegistryStore } from '../src/main/core/config/store'
import { EventBus } from '../src/main/core/events'
import type { RegistryUpdatedEvent } from '../src/shared/ipc/registry'
import { now, summarize, type Benchmark, type BenchResult } from './harness'

const SERVERS = 20
const TARGET_MS = 100
const EVENT_TIMEOUT_MS = 5_000

/** 20 http servers on loopback ports nothing listens on: this measures the registry only. */
function registryText(timeouts: Record<string, number>): string {
  const servers: Record<string, unknown> = {}
  for (let i = 0; i < SERVERS; i++) {
    const id = `rag${i}`
    servers[id] = {
      url: `http://127.0.0.1:${i + 1}/mcp`,
      headers: { Authorization: `Bearer \${keychain:key${i}}` },
      groups: ['users'],
      timeoutMs: timeouts[id] ?? 10_000,
      dataSources: [{ id: 'handbook', name: 'Handbook', defaultSelected: true }],
    }
  }
  return `${JSON.stringify(servers, null, 2)}\n`
}

function nextUpdate(events: EventBus): Promise<RegistryUpdatedEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off()
      reject(new Error(`no registry:updated within ${EVENT_TIMEOUT_MS} ms`))
    }, EVENT_TIMEOUT_MS)
    const off = events.on('registry:updated', (event) => {
      clearTimeout(timer)
      off()
      resolve(event)
    })
  })
}

/**
 * Time from a file write to `registry:updated` (the 50 ms stability wait for half-written files
 * included), alternating in-place writes and atomic rename-over saves, each editing one server
 * of 20; and how many events report a server that was not edited as changed (must be 0).
 */
export const reloadBenchmark: Benchmark = {
  name: 'registry-reload',
  async run({ quick }): Promise<BenchResult> {
    const iterations = quick ? 6 : 60
    const dir = mkdtempSync(join(tmpdir(), 'rc-bench-reload-'))
    const file = join(dir, 'rag-mcp.json')
    const timeouts: Record<string, number> = {}
    writeFileSync(file, registryText(timeouts))
    const events = new EventBus()
    const store = new RegistryStore({
      lookup: { dataDir: dir, configPath: file, env: {} },
      events,
      embedded: () => ({ file: 'none', text: '{}', diagnostics: [] }),
    })
    const inPlace: number[] = []
    const atomic: number[] = []
    let wronglyChanged = 0
    let missedEdits = 0
    try {
      await store.start()
      for (let i = 1; i <= iterations; i++) {
        const edited = `rag${i % SERVERS}`
        timeouts[edited] = 10_000 + i
        const text = registryText(timeouts)
        const update = nextUpdate(events)
        const started = now()
        if (i % 2 === 0) {
          writeFileSync(`${file}.tmp`, text)
          renameSync(`${file}.tmp`, file)
        } else {
          writeFileSync(file, text)
        }
        const event = await update
        ;(i % 2 === 0 ? atomic : inPlace).push(now() - started)
        wronglyChanged += event.changed.filter((id) => id !== edited).length
        wronglyChanged += event.added.length + event.removed.length
        if (!event.changed.includes(edited)) missedEdits++
      }
      // A rewrite with identical content must not reload at all.
      const before = store.counters()
      writeFileSync(file, registryText(timeouts))
      const deadline = Date.now() + EVENT_TIMEOUT_MS
      while (store.counters().watchEvents === before.watchEvents && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      await store.whenIdle()
      const spuriousReloads = store.counters().reloads - before.reloads
      const all = [...inPlace, ...atomic]
      const overall = summarize('write → registry:updated (all)', 'ms', all)
      return {
        name: this.name,
        description: `${SERVERS} servers, ${iterations} single-server edits (in-place and atomic rename)`,
        metrics: [
          overall,
          summarize('write → registry:updated (in-place)', 'ms', inPlace),
          summarize('write → registry:updated (atomic rename)', 'ms', atomic),
          summarize(
            'reload work inside the store',
            'ms',
            store.history().map((e) => e.durationMs),
          ),
          { name: 'unchanged servers reported as changed', unit: 'count', median: wronglyChanged },
          { name: 'edits not reported as changed', unit: 'count', median: missedEdits },
          { name: 'reloads after an identical rewrite', unit: 'count', median: spuriousReloads },
        ],
        comparisons: [
          {
            name: 'reload-latency',
            description: `median write → registry:updated vs ${TARGET_MS} ms target`,
            ratio: overall.median / TARGET_MS,
            target: '< 1.00',
            pass: overall.median < TARGET_MS,
          },
        ],
        notes: [
          `unchanged servers reported as changed: ${wronglyChanged} (must be 0)`,
          `reloads after an identical rewrite: ${spuriousReloads} (must be 0)`,
        ],
      }
    } finally {
      await store.dispose()
      rmSync(dir, { recursive: true, force: true })
    }
  },
}
