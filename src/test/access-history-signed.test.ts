import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AccessHistoryEntry } from '#shared/ipc/rag'
import type { AccessCheck } from '#shared/model/rag'
import { OWN_DOC_HOST, startDemo, type DemoProcess } from './support/demo/programs'
import { createHandlers } from '#core/api/handlers'
import { dispatch } from '#core/api/dispatch'
import { startCore, whenState, type LiveCore } from './support/core/live'
import { demoProfile } from './support/demo/profiles'

/**
 * Signed citation links (bearer URLs) in the Access panel's history, against the rag-search
 * demo and its document host: checked, kept on disk without their signature, checked again.
 */
const KEY = 'history-test-key-0123456789'
const CAROL = demoProfile('carol@example.com', 'carol', 'Carol (legal)')
const dir = mkdtempSync(join(tmpdir(), 'rc-signed-history-'))
let demo: DemoProcess
let live: LiveCore
let signed: string
let signature: string

const registry = (url: string): object => ({
  knowledgeSearch: {
    url,
    headers: { Authorization: 'Bearer ${session:apiKey}' },
    dialect: 'rag-search',
  },
})

async function open(): Promise<LiveCore> {
  const core = await startCore(registry(demo.url), { dir })
  core.core.secrets.setSessionToken('knowledgeSearch', 'apiKey', KEY)
  // Carol is in Legal: her links to legal documents are signed for her.
  core.core.settings.saveProfile(CAROL)
  core.core.settings.setActive(CAROL.id)
  await whenState(core.core, ['knowledgeSearch'])
  return core
}

const call = (core: LiveCore, channel: string, request?: unknown) =>
  dispatch(createHandlers(core.core), channel, request)

beforeAll(async () => {
  demo = await startDemo(['rag-search', '--port', '0', '--api-key', KEY, ...OWN_DOC_HOST])
  live = await open()
  const result = await live.core.services.search.run({
    searchId: 'find',
    query: 'master services agreement clauses',
    topK: 20,
  })
  // A link signed for this user that has not expired.
  signed = result.servers[0]!.hits.find((hit) =>
    /^(?!.*lg-msa-clauses).*[?&]sig=/.test(hit.uri ?? ''),
  )!.uri!
  signature = new URL(signed).searchParams.get('sig')!
})

afterAll(async () => {
  await live?.close()
  await demo?.stop()
})

const history = async (core: LiveCore): Promise<AccessHistoryEntry[]> =>
  ((await call(core, 'access:history')) as { value: AccessHistoryEntry[] }).value

describe('a signed link in the access history', () => {
  it('is checked in full, then kept on disk and shown without its signature', async () => {
    const checked = await call(live, 'access:check', { target: { url: signed } })
    expect(checked).toMatchObject({ ok: true, value: { verdict: 'ok' } })
    const file = readFileSync(join(dir, 'data', 'access-history.json'), 'utf8')
    expect(signature.length).toBeGreaterThan(8)
    expect(file).not.toContain(signature)
    const [entry] = await history(live)
    const shown = new URL(entry!.target.url!)
    expect(`${shown.origin}${shown.pathname}`).toBe(signed.split('?')[0])
    expect(shown.searchParams.get('sig')).toBe('[redacted]')
    expect(JSON.stringify(entry)).not.toContain(signature)
  })

  it('is checked again from the history while the console that saw it runs', async () => {
    const [entry] = await history(live)
    const again = await call(live, 'access:check', { target: entry!.target, refresh: true })
    expect(again).toMatchObject({ ok: true, value: { verdict: 'ok' } })
    expect((again as { value: AccessCheck }).value.link?.status).toBe(200)
  })

  it('asks for the link again after a restart: its signature was never kept', async () => {
    await live.close()
    live = await open()
    const [entry] = await history(live)
    const again = await call(live, 'access:check', { target: entry!.target, refresh: true })
    expect(again).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', message: expect.stringMatching(/paste it again/) },
    })
    expect(JSON.stringify(again)).not.toContain(signature)
  })
})
