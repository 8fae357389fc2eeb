import { describe, expect, it } from 'vitest'
import type { DoctorCheckResult, ServerDoctorReport } from '#shared/model/doctor'
import {
  describeResult,
  describeWhen,
  doctorMarkdown,
  exportName,
  groupChecks,
} from './doctor-view'

const check = (
  id: string,
  status: DoctorCheckResult['status'],
  evidence: Partial<DoctorCheckResult['evidence']> = {},
): DoctorCheckResult => ({
  id,
  title: `Title of ${id}`,
  spec: `spec 003 § ${id}`,
  status,
  evidence: { expected: `rule of ${id}`, found: `what ${id} did`, ...evidence },
  durationMs: 3,
})

const report = (checks: DoctorCheckResult[], extra: Partial<ServerDoctorReport> = {}) => ({
  server: 'vault',
  dialect: 'ragbox' as const,
  at: '2026-11-25T14:02:31.000Z',
  user: 'alice',
  checks,
  ...extra,
})

const sample = report([
  check('protocol.initialize', 'pass'),
  check('protocol.ping', 'not_applicable'),
  check('ragbox.tools', 'pass'),
  check('ragbox.rate-limit', 'warn'),
  check('ragbox.silence', 'fail', {
    request: { method: 'tools/call', params: { name: 'query_knowledge' } },
    reply: { result: { answer: 'made up ``` text' } },
  }),
])

describe('the Doctor report view', () => {
  it('puts the group with failures first and failures before warnings in it', () => {
    const groups = groupChecks(sample)
    expect(groups.map((g) => g.id)).toEqual(['ragbox', 'protocol'])
    expect(groups[0]!.attention.map((c) => c.id)).toEqual(['ragbox.silence', 'ragbox.rate-limit'])
    expect(groups[0]!.rest.map((c) => c.id)).toEqual(['ragbox.tools'])
    expect(groups[1]!.attention).toEqual([])
    expect(groups[1]!.rest.map((c) => c.id)).toEqual(['protocol.initialize', 'protocol.ping'])
  })

  it('sums a report up in words', () => {
    expect(describeResult(sample)).toBe('1 failed, 1 warning')
    expect(describeResult(report([check('a.b', 'pass'), check('a.c', 'pass')]))).toBe(
      'all 2 passed',
    )
    // Every listed check is accounted for: "all 2 passed" beside three checks would be untrue.
    expect(
      describeResult(
        report([check('a.b', 'pass'), check('a.c', 'pass'), check('a.d', 'not_applicable')]),
      ),
    ).toBe('2 passed, 1 not applicable')
    const error = { code: 'not_connected' as const, message: 'not connected' }
    expect(describeResult(report([], { error }))).toBe('could not run')
  })

  it('says when a run was: today, yesterday, or the date', () => {
    const at = new Date(2026, 10, 25, 14, 2).toISOString()
    expect(describeWhen(at, new Date(2026, 10, 25, 18, 0).getTime())).toBe('14:02 today')
    expect(describeWhen(at, new Date(2026, 10, 26, 9, 0).getTime())).toBe('14:02 yesterday')
    expect(describeWhen(at, new Date(2026, 11, 1, 9, 0).getTime())).toBe('2026-11-25 14:02')
  })

  it('exports Markdown with the failed check first and its evidence fenced', () => {
    const markdown = doctorMarkdown(sample)
    expect(markdown).toContain('# Doctor report: vault')
    expect(markdown).toContain('- Result: 1 failed, 1 warning')
    const rows = markdown.split('\n').filter((line) => /^\| (failed|warning|passed|not)/.test(line))
    expect(rows[0]).toBe(
      '| failed | Title of ragbox.silence (`ragbox.silence`) | spec 003 § ragbox.silence |',
    )
    expect(rows).toHaveLength(5)
    expect(markdown).toContain('### failed: Title of ragbox.silence (`ragbox.silence`)')
    expect(markdown).toContain('- Expected: rule of ragbox.silence')
    // The reply holds three backticks, so its fence takes four.
    expect(markdown).toContain('````json\n{\n  "result": {\n    "answer": "made up ``` text"')
    expect(markdown.indexOf('ragbox.silence')).toBeLessThan(markdown.indexOf('protocol.ping'))
  })

  it('keeps table rows on one line when a title or spec holds a pipe or a line break', () => {
    const odd = report([{ ...check('x.y', 'fail'), title: 'a | b\nc' }])
    expect(doctorMarkdown(odd)).toContain('| failed | a \\| b c (`x.y`) |')
  })

  it('names export files after the server and the time, without unsafe characters', () => {
    expect(exportName({ ...sample, server: 'a/b c' }, 'md')).toBe('doctor-a_b_c-20261125T140231.md')
  })
})
