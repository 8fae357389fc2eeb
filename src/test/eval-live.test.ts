import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { cliEnv, cliHome, spawnCli, writeRegistry } from './support/cli/run-cli'
import { createCore, type Core } from '#core/core'
import { fixtureEntry } from './support/core/live'
import type { EventMap } from '#shared/ipc/contract'
import type { EvalRunSummary, GoldenSet } from '#shared/model/evaluation'
import { SAFETY_NET_MS } from './support/process/limits'

/**
 * A run `rag-console eval` makes (a second process) shows in an open console on the same data
 * folder as it goes: started, its progress, and its end, also when Ctrl-C cancels it.
 */

const SET: GoldenSet = {
  version: 1,
  id: 'live',
  name: 'Live',
  queries: Array.from({ length: 12 }, (_, i) => ({
    id: `q${i + 1}`,
    query: `question ${i + 1}`,
    judgments: [{ docKey: 'id:doc-1', grade: 2 }],
  })),
}

let home: string
let app: Core
let setFile: string
let config: string
const events: { name: string; payload: unknown }[] = []

beforeAll(async () => {
  home = cliHome()
  // The app's console on the data folder the CLI uses (RAG_CONSOLE_HOME), following it.
  app = await createCore({ dataDir: home, env: {}, watch: true })
  app.events.onAny((name, payload) => {
    if (name.startsWith('eval:')) events.push({ name, payload })
  })
  setFile = join(home, 'set.json')
  writeFileSync(setFile, JSON.stringify(SET))
  // Every search takes 400 ms: twelve queries four at a time take over a second.
  config = writeRegistry(home, { slow: fixtureEntry(['--name', 'slow', '--delay', '400']) })
})

afterAll(async () => {
  await app?.dispose()
  if (home) rmSync(home, { recursive: true, force: true })
})

const of = <N extends keyof EventMap>(name: N, runId?: string): EventMap[N][] =>
  events
    .filter((e) => e.name === name)
    .map((e) => e.payload as EventMap[N])
    .filter((p) => {
      const about = p as { runId?: string; run?: EvalRunSummary }
      return runId === undefined || (about.runId ?? about.run?.id) === runId
    })

function cliRun(): { exited: Promise<number | null>; stderr: () => string; kill: () => void } {
  const child = spawnCli(['--config', config, 'eval', setFile], cliEnv(home))
  let stderr = ''
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  child.stdout!.resume()
  return {
    exited: new Promise((resolve) => child.once('exit', resolve)),
    stderr: () => stderr,
    kill: () => child.kill('SIGINT'),
  }
}

describe('a CLI run in an open console', () => {
  it('is announced as started, shows its progress, and ends as done', async () => {
    const cli = cliRun()
    const started = await vi.waitFor(
      () => {
        const run = of('eval:run-started')[0]?.run
        if (!run) throw new Error(`no eval:run-started yet\n${cli.stderr()}`)
        return run
      },
      { timeout: SAFETY_NET_MS, interval: 50 },
    )
    expect(started).toMatchObject({ setId: 'live', status: 'running', total: 12, external: true })
    // While it runs, the console lists it with the counts the CLI wrote, marked as another's.
    await vi.waitFor(
      () => {
        const listed = app.services.evaluation.listRuns('live').find((r) => r.id === started.id)
        expect(listed).toMatchObject({ status: 'running', external: true })
        expect(listed!.done).toBeGreaterThan(0)
      },
      { timeout: SAFETY_NET_MS, interval: 50 },
    )
    expect(await cli.exited).toBe(0)
    const finished = await vi.waitFor(
      () => {
        const run = of('eval:run-finished', started.id)[0]?.run
        if (!run) throw new Error('no eval:run-finished yet')
        return run
      },
      { timeout: SAFETY_NET_MS, interval: 50 },
    )
    expect(finished).toMatchObject({ status: 'done', done: 12, total: 12 })
    expect(finished.pid).toBeUndefined()
    const progress = of('eval:progress', started.id).map((p) => p.done)
    expect(progress.length).toBeGreaterThan(0)
    expect(progress).toEqual([...progress].sort((a, b) => a - b))
    expect(progress.some((done) => done > 0 && done < 12)).toBe(true)
    // The stored run is the console's to read like its own.
    expect(app.services.evaluation.metrics(started.id).rows.length).toBeGreaterThan(0)
  })

  it('ends as cancelled, with what it had, when Ctrl-C stops the CLI', async () => {
    events.length = 0
    const cli = cliRun()
    const runId = await vi.waitFor(
      () => {
        const progress = of('eval:progress').find((p) => p.done > 0)
        if (!progress) throw new Error(`no progress yet\n${cli.stderr()}`)
        return progress.runId
      },
      { timeout: SAFETY_NET_MS, interval: 50 },
    )
    cli.kill()
    expect(await cli.exited).toBe(1)
    const finished: EvalRunSummary = await vi.waitFor(
      () => {
        const run = of('eval:run-finished', runId)[0]?.run
        if (!run) throw new Error('no eval:run-finished yet')
        return run
      },
      { timeout: SAFETY_NET_MS, interval: 50 },
    )
    expect(finished.status).toBe('cancelled')
    expect(finished.done).toBeGreaterThan(0)
    expect(finished.done).toBeLessThan(12)
    expect(app.services.evaluation.runs.get(runId).results).toHaveLength(finished.done)
  })
})
