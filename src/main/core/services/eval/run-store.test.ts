import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { EvalRun } from '#shared/model/evaluation'
import { createRedactor } from '../../secrets/redactor'
import { RunStore } from './run-store'

const SECRET = 'sk-live-0123456789abcdef'

function run(id: string, title: string, query = 'what is the refund policy'): EvalRun {
  return {
    version: 1,
    summary: {
      id,
      setId: 's',
      setName: 's',
      status: 'done',
      startedAt: '2026-01-01T00:00:00Z',
      total: 1,
      done: 1,
      failures: 0,
      servers: ['A'],
      profiles: ['carol'],
      k: 4,
    },
    inputs: { setId: 's', setName: 's', profiles: ['carol'], k: 4, concurrency: 1 },
    queries: [{ id: 'q1', query, judgments: [{ docKey: 'id:d1', grade: 2 }] }],
    results: [
      {
        queryId: 'q1',
        profileId: 'carol',
        elapsedMs: 12,
        providers: [
          {
            server: 'A',
            ok: true,
            latencyMs: 12,
            hits: [{ docKey: 'id:d1', id: 'd1', title }],
          },
        ],
      },
    ],
  }
}

describe('RunStore', () => {
  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  function store(): { runs: RunStore; redactor: ReturnType<typeof createRedactor> } {
    dir = mkdtempSync(join(tmpdir(), 'runs-'))
    const redactor = createRedactor()
    redactor.add(SECRET)
    return { runs: new RunStore(dir, redactor), redactor }
  }

  it('writes no registered secret and no credential-shaped text into a run file', () => {
    const { runs } = store()
    runs.save(
      run(
        '20260101-000000-aaaaaa',
        `leaked ${SECRET} here`,
        'Authorization: Bearer abcdefgh12345678',
      ),
    )
    const text = readFileSync(join(dir!, '20260101-000000-aaaaaa.json'), 'utf8')
    expect(text).not.toContain(SECRET)
    expect(text).not.toContain('abcdefgh12345678')
    expect(text).toContain('[redacted]')
    // Read back as a run, the rest intact.
    const back = runs.get('20260101-000000-aaaaaa')
    expect(back.results[0]!.providers[0]!.hits[0]!.title).toBe('leaked [redacted] here')
    expect(back.summary.done).toBe(1)
  })

  it('writes a run with nothing to redact as it is, without walking it', () => {
    const { runs, redactor } = store()
    const redact = vi.spyOn(redactor, 'redact')
    const clean = run('20260101-000000-bbbbbb', 'Refund policy')
    runs.save(clean)
    expect(redact).not.toHaveBeenCalled()
    expect(readFileSync(join(dir!, '20260101-000000-bbbbbb.json'), 'utf8')).toBe(
      JSON.stringify(clean),
    )
    expect(runs.get('20260101-000000-bbbbbb')).toEqual(clean)
  })

  it("reads back which way a hit's score runs", () => {
    const { runs } = store()
    const stored = run('20260101-000000-ffffff', 'Nearest')
    stored.results[0]!.providers[0]!.hits[0] = {
      docKey: 'id:d1',
      id: 'd1',
      title: 'Nearest',
      score: 0.12,
      scoreOrder: 'lower-is-better',
    }
    runs.save(stored)
    expect(runs.get('20260101-000000-ffffff').results[0]!.providers[0]!.hits[0]).toEqual(
      stored.results[0]!.providers[0]!.hits[0],
    )
  })

  it('lists a running run of another live process as external, and one whose process is gone as failed', async () => {
    const { runs } = store()
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'])
    try {
      const running = (id: string, pid: number) => ({
        ...run(id, 'x').summary,
        status: 'running' as const,
        done: 3,
        total: 10,
        pid,
      })
      runs.saveProgress(running('20260101-000000-cccccc', child.pid!))
      runs.saveProgress(running('20260101-000000-dddddd', process.pid))
      expect(runs.summary('20260101-000000-cccccc')).toMatchObject({
        status: 'running',
        external: true,
      })
      expect(runs.summary('20260101-000000-dddddd')).toMatchObject({ status: 'running' })
      expect(runs.summary('20260101-000000-dddddd')!.external).toBeUndefined()
      // A hand-edited pid that is not a process id (0 and -1 name groups) is not asked about.
      runs.saveProgress(running('20260101-000000-eeeeee', -1))
      expect(runs.summary('20260101-000000-eeeeee')).toMatchObject({ status: 'failed' })
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGKILL')
      await exited
      expect(runs.list().find((r) => r.id === '20260101-000000-cccccc')).toMatchObject({
        status: 'failed',
        error: { message: expect.stringMatching(/ended before the run finished; 3 of 10 queries/) },
      })
    } finally {
      child.kill('SIGKILL')
    }
  })
})
