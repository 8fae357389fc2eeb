import { writeFileSync } from 'node:fs'
import { demoRegistry, startDemoCore, startDemoServers, type DemoServers } from './demo-servers'
import { editServers } from './edits'
import { summarize, until, zeroCheck, type Benchmark, type BenchResult } from './harness'

const SERVERS = 20
const TARGET_MS = 100
const EVENT_TIMEOUT_MS = 5_000

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
          const outcome = await editServers(live, registry, [edited], {
            stamp: i,
            atomic: i % 2 === 0,
          })
          ;(i % 2 === 0 ? atomic : inPlace).push(outcome.updateMs)
          if (outcome.reconnectedMs !== undefined) reconnected.push(outcome.reconnectedMs)
          editsNotReconnected += outcome.notReconnected
          unchangedReconnects += outcome.needless
          wronglyChanged += outcome.wronglyChanged
          missedEdits += outcome.missed
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
            zeroCheck(
              'unchanged-reconnects',
              'reconnects of servers that were not edited',
              unchangedReconnects,
            ),
            zeroCheck(
              'edits-not-reconnected',
              'edited servers that did not reconnect',
              editsNotReconnected,
            ),
            zeroCheck(
              'unchanged-reported',
              'servers not edited but reported as changed',
              wronglyChanged,
            ),
            zeroCheck('edits-missed', 'edits not reported as changed', missedEdits),
            zeroCheck(
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
        await live.close()
      }
    } finally {
      await demo?.stop()
    }
  },
}
