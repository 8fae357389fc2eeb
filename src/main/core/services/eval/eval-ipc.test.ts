import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { InvokeChannel, InvokeRequest, InvokeResult } from '#shared/ipc/contract'
import type { IpcResponse } from '#shared/ipc/wire'
import type { GoldenSet } from '#shared/model/evaluation'
import { dispatch } from '../../api/dispatch'
import { createHandlers, type Handlers } from '../../api/handlers'
import { createCore, type Core } from '../../core'

/** The evaluation channels through the IPC handlers, on a core with a temporary data folder. */

let core: Core | undefined

/** {@link dispatch}, typed by channel. */
async function call<C extends InvokeChannel>(
  handlers: Handlers,
  channel: C,
  request: InvokeRequest<C>,
): Promise<IpcResponse<InvokeResult<C>>> {
  return (await dispatch(handlers, channel, request)) as IpcResponse<InvokeResult<C>>
}

async function open(options: { ownRegistry?: boolean } = {}): Promise<{
  handlers: Handlers
  dataDir: string
  events: string[]
}> {
  const dir = mkdtempSync(join(tmpdir(), 'rc-eval-'))
  let configPath: string | undefined
  if (options.ownRegistry) {
    configPath = join(dir, 'rag-mcp.json')
    writeFileSync(configPath, '{}\n')
  }
  core = await createCore({
    dataDir: join(dir, 'data'),
    env: {},
    watch: false,
    // What a host's demo bootstrap offers with the embedded registry: a set of its own.
    demo: { prepare: () => Promise.resolve(), goldenSet: () => demoSet },
    ...(configPath ? { configPath } : {}),
  })
  const events: string[] = []
  core.events.onAny((name, payload) => {
    if (name.startsWith('eval:')) events.push(`${name} ${JSON.stringify(payload)}`)
  })
  return { handlers: createHandlers(core), dataDir: join(dir, 'data'), events }
}

afterEach(async () => {
  await core?.dispose()
  core = undefined
})

const mine: GoldenSet = {
  version: 1,
  id: 'mine',
  name: 'Mine',
  queries: [
    {
      id: 'vpn',
      query: 'vpn setup',
      judgments: [
        { docKey: 'uri:http://docs.test/vpn', aliases: ['id:vpn'], grade: 3 },
        { docKey: 'id:faq', grade: 1 },
      ],
    },
  ],
}

/** The set the demo bootstrap offers (the real one is tested in src/main/demo-bootstrap/). */
const demoSet: GoldenSet = { ...mine, id: 'demo', name: 'Demo corpus' }

describe('golden sets over IPC', () => {
  it('offers the demo set on first use with the demo registry, and not again once deleted', async () => {
    const { handlers } = await open()
    const first = await call(handlers, 'eval:sets', undefined)
    expect(first).toMatchObject({ ok: true, value: [{ id: 'demo', name: 'Demo corpus' }] })
    expect(first.ok && first.value[0]!.queryCount).toBe(1)
    expect(await call(handlers, 'eval:set:delete', { id: 'demo' })).toMatchObject({
      ok: true,
      value: { deleted: true },
    })
    expect(await call(handlers, 'eval:sets', undefined)).toEqual({ ok: true, value: [] })
    const added = await call(handlers, 'eval:set:add-demo', undefined)
    expect(added.ok && added.value.id).toBe('demo')
  })

  it('offers no demo set with a registry of its own', async () => {
    const { handlers } = await open({ ownRegistry: true })
    expect(await call(handlers, 'eval:sets', undefined)).toEqual({ ok: true, value: [] })
    expect(await call(handlers, 'eval:set:add-demo', undefined)).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    })
  })

  it('saves, stamps and reads back a set, announcing the change', async () => {
    const { handlers, events } = await open({ ownRegistry: true })
    const saved = await call(handlers, 'eval:set:save', mine)
    expect(saved.ok && saved.value.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT/)
    const read = await call(handlers, 'eval:set:get', { id: 'mine' })
    expect(read.ok && read.value.queries).toEqual(mine.queries)
    expect(events).toEqual(['eval:sets-changed {"setId":"mine"}'])
  })

  it('refuses a set with a duplicate query id or judgment, naming where', async () => {
    const { handlers } = await open({ ownRegistry: true })
    const twice = { ...mine, queries: [mine.queries[0]!, mine.queries[0]!] }
    expect(await call(handlers, 'eval:set:save', twice)).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', message: expect.stringMatching(/query ids are unique/) },
    })
    const aliasTwice = {
      ...mine,
      queries: [
        {
          ...mine.queries[0]!,
          judgments: [...mine.queries[0]!.judgments, { docKey: 'id:vpn', grade: 2 as const }],
        },
      ],
    }
    expect(await call(handlers, 'eval:set:save', aliasTwice)).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/judged at most once per query/) },
    })
  })

  it('refuses ids that would leave the data folder', async () => {
    const { handlers, dataDir } = await open({ ownRegistry: true })
    for (const id of ['../escape', 'a/b', '..', '.hidden']) {
      const saved = await call(handlers, 'eval:set:save', { ...mine, id })
      expect(saved).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
      expect(await call(handlers, 'eval:run:get', { runId: id })).toMatchObject({
        ok: false,
        error: { code: 'invalid_argument' },
      })
    }
    expect(readdirSync(dataDir)).not.toContain('escape.json')
  })

  it('skips a hand-broken set file in the list and names its problem when opened', async () => {
    const { handlers, dataDir } = await open({ ownRegistry: true })
    await call(handlers, 'eval:set:save', mine)
    writeFileSync(join(dataDir, 'eval', 'sets', 'broken.json'), '{"version": 1, "id": "broken"')
    const list = await call(handlers, 'eval:sets', undefined)
    expect(list.ok && list.value.map((s) => s.id)).toEqual(['mine'])
    expect(await call(handlers, 'eval:set:get', { id: 'broken' })).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_argument',
        message: expect.stringMatching(/^golden set broken is not JSON/),
      },
    })
  })
})

describe('judging from Search', () => {
  it('creates the set and the query, then finds the query again by its text and profile', async () => {
    const { handlers } = await open({ ownRegistry: true })
    const judge = (docKey: string, grade: 0 | 1 | 2 | 3 | null, profileId?: string) =>
      dispatch(handlers, 'eval:judge', {
        setId: 'built',
        setName: 'Built from Search',
        query: 'expense report',
        docKey,
        grade,
        title: `title of ${docKey}`,
        ...(profileId ? { profileId } : {}),
      })
    expect(await judge('uri:http://docs.test/a', 3)).toMatchObject({
      ok: true,
      value: {
        set: { id: 'built', name: 'Built from Search', queryCount: 1, judgmentCount: 1 },
        queryId: 'q1',
        judgment: {
          docKey: 'uri:http://docs.test/a',
          grade: 3,
          title: 'title of uri:http://docs.test/a',
        },
      },
    })
    expect(await judge('id:b', 1)).toMatchObject({
      value: { queryId: 'q1', set: { judgmentCount: 2 } },
    })
    // The same words asked as another user are another question.
    expect(await judge('id:b', 2, 'alice')).toMatchObject({ value: { queryId: 'q2' } })
    // Re-grading keeps one judgment; null removes it.
    expect(await judge('uri:http://docs.test/a', 1)).toMatchObject({
      value: { set: { judgmentCount: 3 } },
    })
    expect(await judge('id:b', null)).toMatchObject({
      value: { judgment: null, set: { judgmentCount: 2 } },
    })
    const set = await call(handlers, 'eval:set:get', { id: 'built' })
    expect(
      set.ok && set.value.queries.map((q) => [q.id, q.profileId, q.judgments.map((j) => j.grade)]),
    ).toEqual([
      ['q1', undefined, [1]],
      ['q2', 'alice', [2]],
    ])
  })

  it('grades the judged document when given one of its aliases', async () => {
    const { handlers } = await open({ ownRegistry: true })
    await call(handlers, 'eval:set:save', mine)
    const judged = await call(handlers, 'eval:judge', {
      setId: 'mine',
      queryId: 'vpn',
      query: 'vpn setup',
      docKey: 'id:vpn',
      grade: 2,
    })
    expect(judged).toMatchObject({
      value: { judgment: { docKey: 'uri:http://docs.test/vpn', aliases: ['id:vpn'], grade: 2 } },
    })
  })

  it('refuses a document key that is not the merged list identity', async () => {
    const { handlers } = await open({ ownRegistry: true })
    expect(
      await call(handlers, 'eval:judge', {
        setId: 's',
        query: 'q',
        docKey: 'http://x',
        grade: 1,
      }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
  })
})

describe('TREC files over IPC', () => {
  it('imports qrels with topics into a set and exports the same judgments', async () => {
    const { handlers } = await open({ ownRegistry: true })
    const qrels = 'q1 0 id:a 2\nq1 0 uri:http://docs.test/x%2520y 1\nq2 0 id:c 3\nq9 0 id:z 1\n'
    const imported = await call(handlers, 'eval:import-trec', {
      kind: 'qrels',
      setId: 'trec',
      name: 'From TREC',
      text: qrels,
      topics: 'q1\tfirst question\nq2\tsecond question\n',
    })
    // q9 has no topic line (no text): its judgment is skipped and counted.
    expect(imported).toMatchObject({
      ok: true,
      value: { kind: 'qrels', set: { id: 'trec', queryCount: 2, judgmentCount: 3 }, skipped: 1 },
    })
    const exported = await call(handlers, 'eval:export-trec', { kind: 'qrels', setId: 'trec' })
    expect(exported).toMatchObject({
      ok: true,
      value: {
        fileName: 'trec.qrels',
        text: 'q1 0 id:a 2\nq1 0 uri:http://docs.test/x%2520y 1\nq2 0 id:c 3\n',
      },
    })
  })

  it('imports a run file as a run of the set, measures it and exports it back', async () => {
    const { handlers } = await open({ ownRegistry: true })
    await call(handlers, 'eval:set:save', mine)
    const runText = 'vpn Q0 id:faq 1 2.5 bm25\nvpn Q0 id:vpn 2 1.5 bm25\nother Q0 id:x 1 1 bm25\n'
    const imported = await call(handlers, 'eval:import-trec', {
      kind: 'run',
      setId: 'mine',
      text: runText,
    })
    expect(imported).toMatchObject({
      ok: true,
      value: {
        kind: 'run',
        run: { setId: 'mine', servers: ['bm25'], imported: true, status: 'done' },
        skipped: 1,
      },
    })
    const runId = imported.ok && imported.value.kind === 'run' ? imported.value.run.id : ''
    const metrics = await call(handlers, 'eval:metrics', { runId, k: 2 })
    // The vpn document (by its alias) at rank 2, the FAQ (grade 1) at rank 1:
    // DCG@2 = 1/1 + 3/log2(3) = 2.89279; IDCG@2 = 3 + 1/log2(3) = 3.63093; nDCG = 0.79671
    const row = metrics.ok ? metrics.value.rows.find((r) => r.list.kind === 'provider') : undefined
    expect(row?.values.ndcg).toBeCloseTo(0.79671, 4)
    expect(row?.values.mrr).toBe(1)
    const exported = await call(handlers, 'eval:export-trec', {
      kind: 'run',
      runId,
      list: { kind: 'provider', server: 'bm25' },
    })
    // Aliases are written as the judged document's key, so trec_eval sees the same documents.
    expect(exported.ok && exported.value.text).toBe(
      'vpn Q0 id:faq 1 2 bm25\nvpn Q0 uri:http://docs.test/vpn 2 1 bm25\n',
    )
    const runs = await call(handlers, 'eval:runs', { setId: 'mine' })
    expect(runs.ok && runs.value.map((r) => r.id)).toEqual([runId])
  })

  it('says what is wrong with a run file that matches no query', async () => {
    const { handlers } = await open({ ownRegistry: true })
    await call(handlers, 'eval:set:save', mine)
    expect(
      await call(handlers, 'eval:import-trec', {
        kind: 'run',
        setId: 'mine',
        text: 'garbage\n',
      }),
    ).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_argument',
        message: 'the run file has no lines for the queries of golden set mine',
      },
    })
  })

  it('answers not_found for a run that does not exist', async () => {
    const { handlers } = await open({ ownRegistry: true })
    expect(await call(handlers, 'eval:metrics', { runId: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: 'no evaluation run with id nope' },
    })
  })
})
