import { verdict, type BenchResult } from './harness'

/** Everything one `npm run bench` measured: what `results.json` holds. */
export interface BenchReport {
  /** ISO time the run started. */
  date: string
  /** A smoke run: too few iterations to be representative; never the committed results. */
  quick: boolean
  machine: Record<string, string | number>
  /** About the run as a whole (machine load, who else used it). */
  notes: string[]
  results: (BenchResult & { verdict: ReturnType<typeof verdict> })[]
}

/** Adds each benchmark's verdict to its result. */
export function buildReport(
  results: BenchResult[],
  context: Omit<BenchReport, 'results'>,
): BenchReport {
  return { ...context, results: results.map((result) => ({ ...result, verdict: verdict(result) })) }
}

/** Integers as they are, two decimals for small values, fewer for large ones; a dash for NaN. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return '—'
  if (Number.isInteger(value)) return String(value)
  const size = Math.abs(value)
  if (size >= 1000) return value.toFixed(0)
  if (size >= 100) return value.toFixed(1)
  return value.toFixed(2)
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')
const row = (cells: string[]): string => `| ${cells.map(cell).join(' | ')} |`
const judged = (pass: boolean | undefined): string =>
  pass === undefined ? '' : pass ? 'met' : 'MISSED'

function section(title: string, head: string[], rows: string[][]): string[] {
  if (rows.length === 0) return []
  return [`## ${title}`, '', row(head), row(head.map(() => '---')), ...rows.map(row), '']
}

/**
 * The markdown printed to stdout and written to RESULTS.md; `appendix` (hand-written markdown,
 * such as the link to bench/PROFILE.md) follows the notes.
 */
export function markdownReport(report: BenchReport, appendix?: string): string {
  const machine = Object.entries(report.machine)
    .map(([key, value]) => `${key}: ${value}`)
    .join(' · ')
  const lines = [
    '# Benchmarks',
    '',
    `${report.date} · ${machine}`,
    '',
    ...(report.quick
      ? [
          '**Quick run**: a few iterations to prove each benchmark completes; not representative.',
          '',
        ]
      : []),
    ...section(
      'Verdicts',
      ['benchmark', 'what it measures', 'verdict'],
      report.results.map((r) => [r.name, r.description, r.verdict]),
    ),
    ...section(
      'Comparisons (ratio against a baseline measured in the same run)',
      ['benchmark', 'comparison', 'ratio', 'target', 'verdict'],
      report.results.flatMap((r) =>
        r.comparisons.map((c) => [
          r.name,
          c.description,
          c.ratio.toFixed(3),
          c.target ?? '',
          judged(c.pass),
        ]),
      ),
    ),
    ...section(
      'Checks (must hold on every run)',
      ['benchmark', 'check', 'value', 'target', 'verdict'],
      report.results.flatMap((r) =>
        (r.checks ?? []).map((c) => [
          r.name,
          c.description,
          `${formatNumber(c.value)} ${c.unit}`,
          c.target,
          judged(c.pass),
        ]),
      ),
    ),
    ...section(
      'Measurements',
      ['benchmark', 'metric', 'unit', 'median', 'p95', 'n'],
      report.results.flatMap((r) =>
        r.metrics.map((m) => [
          r.name,
          m.name,
          m.unit,
          formatNumber(m.median),
          m.p95 === undefined ? '' : formatNumber(m.p95),
          m.samples === undefined ? '' : String(m.samples),
        ]),
      ),
    ),
  ]
  const notes = [
    ...report.notes.map((note) => `- ${note}`),
    ...report.results.flatMap((r) => (r.notes ?? []).map((note) => `- ${r.name}: ${note}`)),
  ]
  if (notes.length > 0) lines.push('## Notes', '', ...notes, '')
  if (appendix?.trim()) lines.push(appendix.trim(), '')
  return `${lines.join('\n').trimEnd()}\n`
}
