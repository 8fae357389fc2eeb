import { describe, expect, it } from 'vitest'
import type { BenchResult } from './harness'
import { buildReport, formatNumber, markdownReport } from './report'

const sample: BenchResult = {
  name: 'search-fanout',
  description: 'one search over 10 servers',
  metrics: [
    { name: 'fan-out', unit: 'ms', median: 219.83, p95: 1234.5, samples: 60 },
    { name: 'RSS', unit: 'MB', median: 99.614 },
  ],
  comparisons: [
    {
      name: 'r',
      description: 'fan-out vs slowest alone',
      ratio: 1.0649,
      target: '≤ 1.10',
      pass: true,
    },
    { name: 's', description: 'fan-out vs slowest inside', ratio: 1.0131 },
  ],
  checks: [
    {
      name: 'e',
      description: 'errors | failures',
      value: 2,
      unit: 'count',
      target: '= 0',
      pass: false,
    },
  ],
  notes: ['60 pairs'],
}

const report = (quick = false) =>
  markdownReport(
    buildReport([sample], {
      date: '2026-11-22T07:00:00.000Z',
      quick,
      machine: { cores: 2, node: '22.23.3' },
      notes: ['shared machine'],
    }),
  )

describe('formatNumber', () => {
  it('keeps integers whole and rounds by size', () => {
    expect([3, 0.12345, 12.345, 123.45, 1234.5].map(formatNumber)).toEqual([
      '3',
      '0.12',
      '12.35',
      '123.5',
      '1235',
    ])
  })

  it('shows a dash for a value that could not be measured', () => {
    expect(formatNumber(Number.NaN)).toBe('—')
  })
})

describe('markdownReport', () => {
  it('heads the file with the date and the machine', () => {
    expect(report()).toMatch(
      /^# Benchmarks\n\n2026-11-22T07:00:00.000Z · cores: 2 · node: 22.23.3\n/,
    )
  })

  it('gives each benchmark its verdict, a failed check making it missed', () => {
    expect(report()).toContain('| search-fanout | one search over 10 servers | missed |')
  })

  it('lists ratios with three decimals, their target, and a verdict only when judged', () => {
    expect(report()).toContain(
      '| search-fanout | fan-out vs slowest alone | 1.065 | ≤ 1.10 | met |',
    )
    expect(report()).toContain('| search-fanout | fan-out vs slowest inside | 1.013 |  |  |')
  })

  it('escapes pipes inside cells so the table keeps its columns', () => {
    expect(report()).toContain('| errors \\| failures | 2 count | = 0 | MISSED |')
  })

  it('writes medians and p95 per metric, blank where a metric has no distribution', () => {
    expect(report()).toContain('| search-fanout | fan-out | ms | 219.8 | 1235 | 60 |')
    expect(report()).toContain('| search-fanout | RSS | MB | 99.61 |  |  |')
  })

  it('collects run notes and benchmark notes at the end', () => {
    expect(report()).toMatch(/## Notes\n\n- shared machine\n- search-fanout: 60 pairs\n$/)
  })

  it('marks a quick run as not representative', () => {
    expect(report(true)).toContain('**Quick run**')
    expect(report(false)).not.toContain('Quick run')
  })

  it('ends with the appendix, after the notes, when there is one', () => {
    const report = buildReport([sample], {
      date: '2026-11-22T07:00:00.000Z',
      quick: false,
      machine: {},
      notes: [],
    })
    expect(markdownReport(report, '## Where the time goes\n\ntext\n')).toMatch(
      /- search-fanout: 60 pairs\n\n## Where the time goes\n\ntext\n$/,
    )
    expect(markdownReport(report, '  ')).toMatch(/60 pairs\n$/)
  })
})
