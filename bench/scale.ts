import type { EditOutcome } from './edits'
import {
  median,
  summarize,
  zeroCheck,
  type Benchmark,
  type BenchResult,
  type Comparison,
  type Metric,
} from './harness'
import { SCALE_WORKER_FLAG, type ScalePlan, type ScaleReport } from './scale-worker'
import { runWorker } from './worker'

/** Targets of the scale issue. */
const HEAP_PER_SERVER_MB = 0.5
const RELOAD_MS = 100
const FANOUT_RATIO = 1.1

const FULL: ScalePlan = {
  processes: 3,
  latencies: [100, 150, 200],
  endpointsEach: 60,
  stdio: 20,
  singleEdits: 20,
  bulkEdits: 5,
  bulk: 50,
  fanout: 100,
  searches: 20,
}

/** CI's smoke run: the same path at a tenth of the size. */
const QUICK: ScalePlan = {
  processes: 2,
  latencies: [100, 150, 200],
  endpointsEach: 8,
  stdio: 4,
  singleEdits: 3,
  bulkEdits: 1,
  bulk: 5,
  fanout: 10,
  searches: 2,
}

const sum = (
  outcomes: EditOutcome[],
  key: 'needless' | 'notReconnected' | 'wronglyChanged' | 'missed',
) => outcomes.reduce((total, outcome) => total + outcome[key], 0)

/** Registry applied → each server ready, per family. */
function connectByFamily(report: ScaleReport): Metric[] {
  const families = new Map<string, number[]>()
  for (const { id, ms } of report.connectEach) {
    const family = id.replace(/-\d+$/, '')
    families.set(family, [...(families.get(family) ?? []), ms])
  }
  return [...families].map(([family, samples]) =>
    summarize(`registry applied → ${family} server ready`, 'ms', samples),
  )
}

/** A figure against its target; judged only on full runs. */
function against(
  name: string,
  description: string,
  value: number,
  target: number,
  judged: boolean,
): Comparison {
  const ratio = value / target
  return {
    name,
    description,
    ratio,
    target: '≤ 1.00',
    ...(judged ? { pass: ratio <= 1 } : {}),
  }
}

/**
 * A console with a registry of many servers (HTTP and SSE endpoints served by a few demo
 * processes, plus stdio children): connecting them all, the memory each connected server
 * costs, edits of one and of many servers, and a search fanned out over a hundred of them.
 */
export const scaleBenchmark: Benchmark = {
  name: 'scale',
  async run({ quick }): Promise<BenchResult> {
    const plan = quick ? QUICK : FULL
    const report = await runWorker<ScaleReport>(SCALE_WORKER_FLAG, plan)
    const { servers } = report
    const heapPerServer = (report.connected.heapUsedMB - report.empty.heapUsedMB) / servers
    const rssPerServer = (report.connected.rssMB - report.empty.rssMB) / servers
    const singleMs = report.single.map((edit) => edit.updateMs)
    const bulkMs = report.bulk.map((edit) => edit.updateMs)
    const reconnected = (edits: EditOutcome[]) =>
      edits.flatMap((edit) => (edit.reconnectedMs === undefined ? [] : [edit.reconnectedMs]))
    const fanoutRatio = median(report.fanoutMs) / median(report.aloneMs)
    const edits = [...report.single, ...report.bulk]
    return {
      name: this.name,
      description: `${servers} registered servers (${plan.processes} demo processes × ${plan.endpointsEach} HTTP/SSE endpoints + ${plan.stdio} stdio)`,
      metrics: [
        {
          name: `connect all ${servers} (registry applied → all ready)`,
          unit: 'ms',
          median: report.connectAllMs,
        },
        ...connectByFamily(report),
        {
          name: 'connect one server alone (same console, before)',
          unit: 'ms',
          median: report.connectOneMs,
        },
        { name: 'heap used per connected server', unit: 'MB', median: heapPerServer },
        { name: 'RSS per connected server', unit: 'MB', median: rssPerServer },
        { name: 'heap used, empty registry', unit: 'MB', median: report.empty.heapUsedMB },
        {
          name: `heap used, ${servers} connected`,
          unit: 'MB',
          median: report.connected.heapUsedMB,
        },
        { name: 'RSS, empty registry', unit: 'MB', median: report.empty.rssMB },
        { name: `RSS, ${servers} connected`, unit: 'MB', median: report.connected.rssMB },
        summarize('edit of 1 server: write → registry:updated', 'ms', singleMs),
        summarize(
          'edit of 1 server: write → it is connected again',
          'ms',
          reconnected(report.single),
        ),
        summarize(`edit of ${plan.bulk} servers: write → registry:updated`, 'ms', bulkMs),
        summarize(
          `edit of ${plan.bulk} servers: write → all connected again`,
          'ms',
          reconnected(report.bulk),
        ),
        summarize(`search over ${plan.fanout} servers, end to end`, 'ms', report.fanoutMs),
        summarize(
          `search over the slowest (${report.slowest}) alone, end to end`,
          'ms',
          report.aloneMs,
        ),
        // CPU time does not grow with other processes' load the way wall time does.
        summarize(`console CPU per search over ${plan.fanout} servers`, 'ms', report.fanoutCpuMs),
        summarize('console CPU per search over the slowest alone', 'ms', report.aloneCpuMs),
      ],
      comparisons: [
        {
          name: 'connect-all-vs-one',
          description: `connect all ${servers} vs one server alone`,
          ratio: report.connectAllMs / report.connectOneMs,
        },
        against(
          'heap-per-server',
          `heap per connected server vs ${HEAP_PER_SERVER_MB} MB target`,
          heapPerServer,
          HEAP_PER_SERVER_MB,
          !quick,
        ),
        against(
          'reload-one',
          `median edit of 1 server (write → registry:updated) vs ${RELOAD_MS} ms target`,
          median(singleMs),
          RELOAD_MS,
          !quick,
        ),
        {
          name: 'reload-bulk-vs-one',
          description: `median edit of ${plan.bulk} servers vs of 1 (write → registry:updated)`,
          ratio: median(bulkMs) / median(singleMs),
        },
        {
          name: 'fanout-vs-slowest-alone',
          description: `search over ${plan.fanout} servers vs the slowest alone (medians)`,
          ratio: fanoutRatio,
          target: `≤ ${FANOUT_RATIO.toFixed(2)}`,
          ...(quick ? {} : { pass: fanoutRatio <= FANOUT_RATIO }),
        },
      ],
      checks: [
        zeroCheck(
          'needless-reconnects',
          'reconnects of servers no edit touched',
          sum(edits, 'needless'),
        ),
        zeroCheck(
          'edits-not-reconnected',
          'edited servers that did not reconnect',
          sum(edits, 'notReconnected'),
        ),
        zeroCheck(
          'unchanged-reported',
          'servers not edited but reported as changed',
          sum(edits, 'wronglyChanged'),
        ),
        zeroCheck('edits-missed', 'edited servers not reported as changed', sum(edits, 'missed')),
        zeroCheck(
          'search-errors',
          `server or source errors in ${2 * (plan.searches + 2)} searches`,
          report.errors.length,
        ),
      ],
      notes: [
        `A child process (node --expose-gc) holds the console; memory is sampled after two forced collections with an empty registry and again once all ${servers} servers are connected (stdio servers are children, outside its RSS). Each demo process's endpoints answer tools after ${plan.latencies.join(' / ')} ms in turn (a retrieval backend's latency; every process serves every class); stdio servers after ${plan.latencies[0]} ms.`,
        `${report.single.length} single-server edits (alternately in place and atomic), then ${report.bulk.length} edits of ${plan.bulk} servers at once; reconnects counted from server:status events. The fan-out search covers ${plan.fanout} servers, each family in its share of the registry, spread evenly over that family's servers (${report.fanoutMix}); ${plan.searches} pairs after 2 warm-up pairs.`,
        ...(report.errors.length
          ? [`errors seen: ${[...new Set(report.errors)].slice(0, 5).join('; ')}`]
          : []),
      ],
    }
  },
}
