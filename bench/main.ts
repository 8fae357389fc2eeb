import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { machine, type Benchmark, type BenchResult } from './harness'
import { fanoutBenchmark } from './fanout'
import { poolBenchmark } from './pool'
import { reloadBenchmark } from './reload'
import { rendererBenchmark } from './renderer'

/** Every benchmark, in the order they run. Add new ones here. */
const benchmarks: Benchmark[] = [reloadBenchmark, poolBenchmark, fanoutBenchmark, rendererBenchmark]

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

function table(results: BenchResult[]): string {
  const lines = ['| benchmark | metric | median | p95 |', '| --- | --- | --- | --- |']
  for (const result of results) {
    for (const metric of result.metrics) {
      const p95 = metric.p95 === undefined ? '' : metric.p95.toFixed(2)
      lines.push(
        `| ${result.name} | ${metric.name} (${metric.unit}) | ${metric.median.toFixed(2)} | ${p95} |`,
      )
    }
  }
  lines.push('', '| comparison | ratio | target | verdict |', '| --- | --- | --- | --- |')
  for (const result of results) {
    for (const c of result.comparisons) {
      const verdict = c.pass === undefined ? '' : c.pass ? 'met' : 'MISSED'
      lines.push(`| ${c.description} | ${c.ratio.toFixed(3)} | ${c.target ?? ''} | ${verdict} |`)
    }
  }
  return lines.join('\n')
}

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick')
  const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length)
  const results: BenchResult[] = []
  for (const benchmark of benchmarks) {
    if (only && !only.split(',').includes(benchmark.name)) continue
    process.stderr.write(`bench: ${benchmark.name}${quick ? ' (quick)' : ''}…\n`)
    results.push(await benchmark.run({ quick }))
  }
  const report = { date: new Date().toISOString(), quick, machine: machine(), results }
  const header = [
    `# Benchmarks`,
    '',
    `${report.date} · ${Object.entries(report.machine)
      .map(([k, v]) => `${k}: ${v}`)
      .join(' · ')}${quick ? ' · quick run (not representative)' : ''}`,
    '',
  ].join('\n')
  const markdown = `${header}${table(results)}\n`
  process.stdout.write(markdown)
  if (!quick) {
    mkdirSync(join(root, 'bench'), { recursive: true })
    writeFileSync(join(root, 'bench/results.json'), `${JSON.stringify(report, null, 2)}\n`)
    writeFileSync(join(root, 'bench/RESULTS.md'), markdown)
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('bench failed:', error)
    process.exit(1)
  },
)
