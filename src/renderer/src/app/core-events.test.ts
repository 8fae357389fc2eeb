import { QueryClient, QueryObserver } from '@tanstack/react-query'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import type { ProfilesState } from '#shared/ipc/profiles'
import type { RegistryView } from '#shared/ipc/registry'
import type { RegistrySource } from '#shared/model/registry'
import type { Profile } from '#shared/model/user'
import type { EvalRunSummary } from '#shared/model/evaluation'
import { addRunningRun, evalKeys } from '../features/evaluation/queries'
import { searchKeys } from '../features/search/queries'
import { searchFeed } from '../features/search/run-feed'
import type { SearchRun } from '../features/search/search-run'
import type { NoticeInput, Panel } from '../state/store'
import { coalescedInvalidation } from './coalesced-invalidation'
import { applyCoreEvent, describeDiff } from './core-events'

const source: RegistrySource = {
  kind: 'file',
  files: ['/r.json'],
  writableFile: '/r.json',
  label: '/r.json',
}

function setup() {
  const queryClient = new QueryClient()
  const notices: NoticeInput[] = []
  const panels: Panel[] = []
  return {
    queryClient,
    notices,
    panels,
    context: {
      queryClient,
      notify: (n: NoticeInput) => void notices.push(n),
      showPanel: (panel: Panel) => void panels.push(panel),
      invalidateSoon: coalescedInvalidation(queryClient),
    },
  }
}

const view = (): RegistryView => ({
  source,
  servers: [],
  hashes: {},
  warnings: [],
  appliedAt: 1,
})

const profile = (id: string, name: string): Profile => ({
  id,
  name,
  userId: `${id}@example.com`,
  sessionTags: [],
  groups: [],
})

describe('core events', () => {
  vi.useFakeTimers()
  afterEach(() => vi.clearAllTimers())
  afterAll(() => vi.useRealTimers())

  it('marks the running registry invalid at once when the file on disk breaks', () => {
    const { queryClient, context } = setup()
    queryClient.setQueryData(['registry', 'view'], view())
    const diagnostics = [
      {
        severity: 'error' as const,
        file: '/r.json',
        path: 'a',
        line: 2,
        column: 3,
        message: 'bad',
        rule: 'x',
      },
    ]
    applyCoreEvent(
      'config:invalid',
      { at: 5, durationMs: 1, source, trigger: 'watch', diagnostics },
      context,
    )
    expect(queryClient.getQueryData<RegistryView>(['registry', 'view'])?.invalid).toEqual({
      at: 5,
      diagnostics,
    })
  })

  it('refetches the reload history when canaries ran, and warns of a regression only', () => {
    const { queryClient, context, notices } = setup()
    queryClient.setQueryData(['registry', 'history'], [])
    const canary = {
      server: 'kb',
      canary: 'five hits',
      passed: true,
      regression: false,
      failures: [],
    }
    applyCoreEvent('registry:canaries', { at: 1, canaries: [canary] }, context)
    expect(queryClient.getQueryState(['registry', 'history'])?.isInvalidated).toBe(true)
    expect(notices).toEqual([])
    const broken = {
      ...canary,
      passed: false,
      regression: true,
      failures: ['3 hit(s), expected at least 5'],
    }
    applyCoreEvent('registry:canaries', { at: 2, canaries: [broken] }, context)
    expect(notices).toEqual([
      expect.objectContaining({
        tone: 'warn',
        message: 'Canary kb "five hits" fails since the last reload.',
        detail: expect.stringContaining('3 hit(s), expected at least 5'),
      }),
    ])
  })

  it('refetches the registry, the file and the secrets after a reload applied', () => {
    const { queryClient, context } = setup()
    for (const key of [
      ['registry', 'view'],
      ['config', 'raw'],
      ['secrets', 'list'],
      ['profiles', 'list'],
    ]) {
      queryClient.setQueryData(key, {})
    }
    applyCoreEvent(
      'registry:updated',
      {
        added: ['x'],
        removed: [],
        changed: [],
        unchanged: [],
        at: 1,
        durationMs: 1,
        source,
        trigger: 'save',
      },
      context,
    )
    const invalidated = (key: string[]) => queryClient.getQueryState(key)?.isInvalidated
    expect(invalidated(['registry', 'view'])).toBe(true)
    expect(invalidated(['config', 'raw'])).toBe(true)
    expect(invalidated(['secrets', 'list'])).toBe(true)
    expect(invalidated(['profiles', 'list'])).toBe(false)
  })

  it('tells the user when the file changed in another editor, naming what changed', () => {
    const { context, notices } = setup()
    applyCoreEvent(
      'registry:updated',
      {
        added: ['newKb'],
        removed: [],
        changed: [],
        unchanged: ['a'],
        at: 1,
        durationMs: 1,
        source,
        trigger: 'watch',
      },
      context,
    )
    expect(notices[0]?.message).toContain('added newKb')
  })

  it('announces a switch of the acting user, not a mere profile edit', () => {
    const { queryClient, context, notices } = setup()
    const profiles = [profile('admin', 'Admin'), profile('alice', 'Alice')]
    queryClient.setQueryData<ProfilesState>(['profiles', 'list'], { profiles, activeId: 'admin' })
    applyCoreEvent('profiles:changed', { profiles, activeId: 'admin' }, context)
    expect(notices).toHaveLength(0)
    applyCoreEvent('profiles:changed', { profiles, activeId: 'alice' }, context)
    expect(notices[0]?.message).toBe('Now viewing as Alice (alice@example.com).')
    expect(queryClient.getQueryData<ProfilesState>(['profiles', 'list'])?.activeId).toBe('alice')
  })

  it("shows a server's new status at once and refetches its details", () => {
    const { queryClient, context } = setup()
    const summary = { id: 'kb', status: { state: 'connecting', since: 1, attempt: 1 } }
    queryClient.setQueryData(['servers', 'list'], [summary, { ...summary, id: 'other' }])
    const status = {
      state: 'down' as const,
      since: 2,
      attempt: 1,
      lastError: { code: 'unreachable' as const, message: 'x' },
    }
    applyCoreEvent('server:status', { server: 'kb', status }, context)
    const list = queryClient.getQueryData<{ id: string; status: unknown }[]>(['servers', 'list'])
    expect(list?.map((s) => s.status)).toEqual([status, summary.status])
    vi.runAllTimers()
    expect(queryClient.getQueryState(['servers', 'list'])?.isInvalidated).toBe(true)
  })

  it('asks for the data sources again only when a server becomes ready', () => {
    const { queryClient, context } = setup()
    queryClient.setQueryData(['discovery'], {})
    applyCoreEvent(
      'server:status',
      { server: 'kb', status: { state: 'connecting', since: 1, attempt: 1 } },
      context,
    )
    expect(queryClient.getQueryState(['discovery'])?.isInvalidated).toBe(false)
    applyCoreEvent('server:status', { server: 'kb', status: { state: 'ready', since: 2 } }, context)
    vi.runAllTimers()
    expect(queryClient.getQueryState(['discovery'])?.isInvalidated).toBe(true)
  })

  it("writes a server's new sign-in state into its card at once", () => {
    const { queryClient, context } = setup()
    const summary = { id: 'wiki', oauth: { serverId: 'wiki', state: 'sign_in_required' } }
    queryClient.setQueryData(['servers', 'list'], [summary, { id: 'kb' }])
    const signedIn = {
      serverId: 'wiki',
      state: 'signed_in' as const,
      account: 'ana@example.com',
      expiresAt: 5,
    }
    applyCoreEvent('auth:changed', signedIn, context)
    const list = queryClient.getQueryData<{ id: string; oauth?: unknown }[]>(['servers', 'list'])
    expect(list).toEqual([{ id: 'wiki', oauth: signedIn }, { id: 'kb' }])
  })

  it('reads the server list again after a sign-in change, so a fetch already on its way cannot undo it', () => {
    const { queryClient, context } = setup()
    queryClient.setQueryData(['servers', 'list'], [{ id: 'wiki' }])
    applyCoreEvent('auth:changed', { serverId: 'wiki', state: 'signing_in' }, context)
    expect(queryClient.getQueryState(['servers', 'list'])?.isInvalidated).toBe(true)
  })

  it('reads the server list and the data sources once for a burst of 200 servers connecting', async () => {
    const { queryClient, context } = setup()
    const fetches = { list: 0, discovery: 0 }
    const watch = (queryKey: string[], count: () => void) =>
      new QueryObserver(queryClient, {
        queryKey,
        queryFn: () => {
          count()
          return []
        },
      }).subscribe(() => undefined)
    const stop = [
      watch(['servers', 'list'], () => fetches.list++),
      watch(['discovery', 'admin'], () => fetches.discovery++),
    ]
    await vi.runAllTimersAsync()
    fetches.list = fetches.discovery = 0
    for (let i = 0; i < 200; i++) {
      const server = `s${i}`
      applyCoreEvent(
        'server:status',
        { server, status: { state: 'connecting', since: 1, attempt: 1 } },
        context,
      )
      applyCoreEvent('server:status', { server, status: { state: 'ready', since: 2 } }, context)
    }
    await vi.runAllTimersAsync()
    stop.forEach((unsubscribe) => unsubscribe())
    expect(fetches).toEqual({ list: 1, discovery: 1 })
  })

  it('shows app notices with a tone matching their level', () => {
    const { context, notices } = setup()
    applyCoreEvent('app:notice', { level: 'warning', message: 'careful', at: 1 }, context)
    expect(notices[0]).toEqual({ tone: 'warn', message: 'careful' })
  })

  it("folds a search's progress into the run it belongs to, with no panel listening", () => {
    const { queryClient, context } = setup()
    const draft = { query: 'vpn', phrases: [], topK: 10, fusion: 'rrf' as const }
    searchFeed(queryClient).apply({ type: 'started', searchId: 's1', draft, expected: [], at: 0 })
    const result = {
      server: 'docs',
      ok: true,
      status: 'ready' as const,
      latencyMs: 3,
      count: 0,
      hits: [],
      violations: [],
      sourceErrors: [],
    }
    applyCoreEvent('search:progress', { searchId: 's1', result }, context)
    vi.runAllTimers()
    expect(queryClient.getQueryData<SearchRun>(searchKeys.run())?.servers).toEqual([result])
  })

  it('opens the panel the desktop menu asks for', () => {
    const { context, panels } = setup()
    applyCoreEvent('app:show-panel', { panel: 'health' }, context)
    expect(panels).toEqual(['health'])
  })
})

describe('describeDiff', () => {
  it('names at most three servers per kind of change', () => {
    expect(
      describeDiff({
        added: ['a', 'b', 'c', 'd', 'e'],
        removed: ['z'],
        changed: [],
        unchanged: [],
      }),
    ).toBe('added a, b, c and 2 more; removed z')
  })
})

describe('evaluation events', () => {
  const summary = (id: string, done: number): EvalRunSummary => ({
    id,
    setId: 'demo',
    setName: 'Demo',
    status: 'running',
    startedAt: '2026-01-01T00:00:00Z',
    total: 30,
    done,
    failures: 0,
    servers: ['kb'],
    profiles: ['carol'],
    k: 10,
  })

  it("moves a running run's progress in every list of runs that shows it", () => {
    const { queryClient, context } = setup()
    queryClient.setQueryData(evalKeys.runs('demo'), [summary('r2', 0), summary('r1', 30)])
    queryClient.setQueryData(evalKeys.runs(), [summary('r2', 0)])
    const progress = {
      runId: 'r2',
      done: 7,
      total: 30,
      failures: 2,
      queryId: 'q7',
      profileId: 'carol',
    }
    applyCoreEvent('eval:progress', progress, context)
    for (const key of [evalKeys.runs('demo'), evalKeys.runs()]) {
      const runs = queryClient.getQueryData<EvalRunSummary[]>(key)!
      expect(runs[0]).toMatchObject({ id: 'r2', done: 7, failures: 2 })
    }
    expect(queryClient.getQueryData<EvalRunSummary[]>(evalKeys.runs('demo'))![1]!.done).toBe(30)
  })

  it('shows a finished run at once and reads its metrics again', () => {
    const { queryClient, context } = setup()
    queryClient.setQueryData(evalKeys.runs('demo'), [summary('r2', 3)])
    queryClient.setQueryData(evalKeys.metrics('r2', 10), { stale: false })
    const finished = { ...summary('r2', 30), status: 'done' as const }
    applyCoreEvent('eval:run-finished', { run: finished }, context)
    expect(queryClient.getQueryData<EvalRunSummary[]>(evalKeys.runs('demo'))![0]!.status).toBe(
      'done',
    )
    expect(queryClient.getQueryState(evalKeys.metrics('r2', 10))?.isInvalidated).toBe(true)
  })

  it('moves the progress of a run started here and drops it from the running ones when it ends', () => {
    const { queryClient, context } = setup()
    // As the panel left it: read once, nothing running yet.
    queryClient.setQueryData(evalKeys.running(), null)
    addRunningRun(queryClient, summary('r3', 0))
    const progress = {
      runId: 'r3',
      done: 4,
      total: 30,
      failures: 0,
      queryId: 'q4',
      profileId: 'carol',
    }
    applyCoreEvent('eval:progress', progress, context)
    expect(queryClient.getQueryData<EvalRunSummary[]>(evalKeys.running())![0]!.done).toBe(4)
    applyCoreEvent('eval:run-finished', { run: { ...summary('r3', 30), status: 'done' } }, context)
    expect(queryClient.getQueryData<EvalRunSummary[]>(evalKeys.running())).toEqual([])
  })

  it('reads a set again when it was judged or saved elsewhere', () => {
    const { queryClient, context } = setup()
    queryClient.setQueryData(evalKeys.set('demo'), { id: 'demo' })
    queryClient.setQueryData(evalKeys.set('other'), { id: 'other' })
    applyCoreEvent('eval:sets-changed', { setId: 'demo' }, context)
    expect(queryClient.getQueryState(evalKeys.set('demo'))?.isInvalidated).toBe(true)
    expect(queryClient.getQueryState(evalKeys.set('other'))?.isInvalidated).toBe(false)
  })
})
