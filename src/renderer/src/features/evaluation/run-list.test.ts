import { describe, expect, it } from 'vitest'
import type { EvalRunSummary } from '#shared/model/evaluation'
import { runsOfSet } from './run-list'

const run = (id: string, setId: string, status: EvalRunSummary['status'], at: string) =>
  ({ id, setId, status, startedAt: at }) as EvalRunSummary

describe('runsOfSet', () => {
  it('lists a run started here while it runs: the store holds runs only once they end', () => {
    const stored = [run('r1', 'demo', 'done', '2026-01-01T10:00:00Z')]
    const running = [
      run('r2', 'demo', 'running', '2026-01-01T11:00:00Z'),
      run('r3', 'other', 'running', '2026-01-01T12:00:00Z'),
    ]
    expect(runsOfSet(stored, running, 'demo').map((r) => r.id)).toEqual(['r2', 'r1'])
  })

  it('shows a finished run as stored, not as the running copy it replaced', () => {
    const stored = [run('r2', 'demo', 'cancelled', '2026-01-01T11:00:00Z')]
    const running = [run('r2', 'demo', 'running', '2026-01-01T11:00:00Z')]
    expect(runsOfSet(stored, running, 'demo')).toEqual(stored)
  })
})
