import { mkdirSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { evaluationBenchmark } from './evaluation'
import { coldStartBenchmark } from './cold-start'
import { machine, type Benchmark, type BenchResult } from './harness'
import { fanoutBenchmark } from './fanout'
import { memoryBenchmark } from './memory'
import { monitorBenchmark } from './monitor'
import { MEMORY_WORKER_FLAG, runMemoryWorker } from './memory-worker'
import { poolBenchmark } from './pool'
import { reloadBenchmark } from './reload'
import { scaleBenchmark } from './scale'
import { stdioReplyBenchmark } from './stdio-reply'
import { SCALE_WORKER_FLAG, runScaleWorker } from './scale-worker'
import { rendererBenchmark } from './renderer'
import { outputFiles, parseOnly, profileLink } from './output'
import { payloadsBenchmark } from './payloads'
import { buildReport, markdownReport } from './report'
import { throughputBenchmark } from './throughput'

/** Every benchmark, in the order they run. Add new ones here. */
const benchmarks: Benchmark[] = [
  reloadBenchmark,
  poolBenchmark,
  stdioReplyBenchmark,
  fanoutBenchmark,
  throughputBenchmark,
  memoryBenchmark,
  scaleBenchmark,
  rendererBenchmark,
  payloadsBenchmark,
  monitorBenchmark,
  evaluationBenchmark,
  coldStartBenchmark,
]

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ')

async function main(): Promise<number> {
  const quick = process.argv.includes('--quick')
  const only = parseOnly(
    process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length),
    benchmarks.map((benchmark) => benchmark.name),
  )
  // `--note=TEXT` (repeatable): what the numbers cannot tell, e.g. who else used the machine.
  const runNotes = process.argv
    .filter((arg) => arg.startsWith('--note='))
    .map((arg) => arg.slice('--note='.length))
  const date = new Date().toISOString()
  const loadBefore = load()
  const results: BenchResult[] = []
  for (const benchmark of benchmarks) {
    if (only && !only.includes(benchmark.name)) continue
    process.stderr.write(`bench: ${benchmark.name}${quick ? ' (quick)' : ''}…\n`)
    const started = Date.now()
    results.push(await benchmark.run({ quick }))
    process.stderr.write(`bench: ${benchmark.name} done in ${(Date.now() - started) / 1000} s\n`)
  }
  const report = buildReport(results, {
    date,
    quick,
    machine: machine(),
    notes: [
      ...runNotes,
      `Load average (1/5/15 min) at the start ${loadBefore}, at the end ${load()}: the cores are shared with other processes, so absolute times move between runs; the ratios compare sides measured together.`,
    ],
  })
  const files = outputFiles(root, { quick, only })
  const markdown = markdownReport(report, profileLink(root, files))
  process.stdout.write(markdown)
  mkdirSync(files.dir, { recursive: true })
  writeFileSync(files.json, `${JSON.stringify(report, null, 2)}\n`)
  writeFileSync(files.markdown, markdown)
  process.stderr.write(`bench: wrote ${files.json} and ${files.markdown}\n`)
  // Ratios on a shared machine are reported, not enforced; a failed check is a defect.
  const failed = report.results.flatMap((r) =>
    (r.checks ?? []).filter((c) => c.pass === false).map((c) => `${r.name}: ${c.description}`),
  )
  for (const check of failed) process.stderr.write(`bench: check failed: ${check}\n`)
  return failed.length === 0 ? 0 : 1
}

/** Benchmarks that measure in a child process of their own run it as this program plus a flag. */
const workers: Record<string, () => Promise<number>> = {
  [MEMORY_WORKER_FLAG]: runMemoryWorker,
  [SCALE_WORKER_FLAG]: runScaleWorker,
}
const entry = Object.entries(workers).find(([flag]) => process.argv.includes(flag))?.[1] ?? main

entry().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('bench failed:', error)
    process.exit(1)
  },
)
