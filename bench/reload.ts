import { renameSync, writeFileSync } from 'node:fs'
import type { EventBus } from '../src/main/core/events'
import type { RegistryUpdatedEvent } from '../src/shared/ipc/registry'
import {
  demoRegistry,
  startDemoCore,
  startDemoServers,
  whenReady,
  type DemoServers,
} from './demo-servers'
import { now, summarize, until, type Benchmark, type BenchResult, type Check } from './harness'

const SERVERS = 20
const TARGET_MS = 100
const EVENT_TIMEOUT_MS = 5_000
const BASE_TIMEOUT_MS = 15_000

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
 * A running console (file watching on, pool connected to 20 demo servers: four of each
 * family) whose rag-mcp.json is edited one server at a time, alternating in-place writes and
 * atomic rename-over saves: the time from the write to `registry:updated` (the 50 ms stability
 * wait for half-written files included), and how many servers that were not edited reconnect
 * (must be 0), while each edited one does.
 */
export const reloadBenchmark: Benchmark = {
  name: 'registry-reload',
  async run({ quick }): Promise<BenchResult> {
    const iterations = quick ? 6 : 60
    let demo: DemoServers | undefined
    try {
      demo = await startDemoServers()
      const registry = demoRegistry(demo, SERVERS)
      const ids = Object.keys(registry)
      const live = await startDemoCore(registry, { watch: true })
      const { core } = live
      const connecting = new Map<string, number>()
      const offStatus = core.events.on('server:status', ({ server, status }) => {
        if (status.state === 'connecting') connecting.set(server, (connecting.get(server) ?? 0) + 1)
      })
      const inPlace: number[] = []
      const atomic: number[] = []
      const reconnected: number[] = []
      let unchangedReconnects = 0
      let editsNotReconnected = 0
      let wronglyChanged = 0
      let missedEdits = 0
      try {
        for (let i = 1; i <= iterations; i++) {
          const edited = ids[i % SERVERS]!
          registry[edited]!.timeoutMs = BASE_TIMEOUT_MS + i
          const text = `${JSON.stringify(registry, null, 2)}\n`
          connecting.clear()
          const update = nextUpdate(core.events)
          const started = now()
          if (i % 2 === 0) {
            writeFileSync(`${live.configPath}.tmp`, text)
            renameSync(`${live.configPath}.tmp`, live.configPath)
          } else {
            writeFileSync(live.configPath, text)
          }
          const event = await update
          ;(i % 2 === 0 ? atomic : inPlace).push(now() - started)
          try {
            await until(() => connecting.has(edited), EVENT_TIMEOUT_MS, `${edited} to reconnect`)
            await whenReady(core, [edited])
            reconnected.push(now() - started)
          } catch {
            editsNotReconnected++ // counted as a failed check below
          }
          unchangedReconnects += [...connecting.keys()].filter((id) => id !== edited).length
          wronglyChanged += event.changed.filter((id) => id !== edited).length
          wronglyChanged += event.added.length + event.removed.length
          if (!event.changed.includes(edited)) missedEdits++
        }
        // A rewrite with identical content must not reload at all.
        const before = core.registry.counters()
        writeFileSync(live.configPath, `${JSON.stringify(registry, null, 2)}\n`)
        await until(
          () => core.registry.counters().watchEvents !== before.watchEvents,
          EVENT_TIMEOUT_MS,
          'the watcher to see the identical rewrite',
        )
        await core.registry.whenIdle()
        const spuriousReloads = core.registry.counters().reloads - before.reloads
        const overall = summarize('write → registry:updated (all)', 'ms', [...inPlace, ...atomic])
        const zero = (name: string, description: string, value: number): Check => ({
          name,
          description,
          value,
          unit: 'count',
          target: '= 0',
          pass: value === 0,
        })
        return {
          name: this.name,
          description: `${SERVERS} connected servers, ${iterations} single-server edits (in-place and atomic rename)`,
          metrics: [
            overall,
            summarize('write → registry:updated (in-place)', 'ms', inPlace),
            summarize('write → registry:updated (atomic rename)', 'ms', atomic),
            summarize('write → edited server connected again', 'ms', reconnected),
            summarize(
              'reload work inside the store',
              'ms',
              core.registry.history().map((e) => e.durationMs),
            ),
          ],
          comparisons: [
            {
              name: 'reload-latency',
              description: `median write → registry:updated vs ${TARGET_MS} ms target`,
              ratio: overall.median / TARGET_MS,
              target: '< 1.00',
              ...(quick ? {} : { pass: overall.median < TARGET_MS }),
            },
          ],
          checks: [
            zero(
              'unchanged-reconnects',
              'reconnects of servers that were not edited',
              unchangedReconnects,
            ),
            zero(
              'edits-not-reconnected',
              'edited servers that did not reconnect',
              editsNotReconnected,
            ),
            zero(
              'unchanged-reported',
              'servers not edited but reported as changed',
              wronglyChanged,
            ),
            zero('edits-missed', 'edits not reported as changed', missedEdits),
            zero(
              'identical-rewrite-reloads',
              'reloads after an identical rewrite',
              spuriousReloads,
            ),
          ],
          notes: [
            'Each edit changes one server’s timeoutMs, so that server (and only it) must reconnect; reconnects are counted from the pool’s server:status events. Every edit waits for the edited server to be connected again before the next.',
          ],
        }
      } finally {
        offStatus()
        await live.close()
      }
    } finally {
      await demo?.stop()
    }
  },
}
