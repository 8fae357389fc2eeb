import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { RAGBOX_KEYS } from '#demo/keys'
import { OWN_DOC_HOST, demoScript, startDemo, type DemoProcess } from './support/demo/programs'
import { demoProfile } from './support/demo/profiles'
import { createHandlers } from '#core/api/handlers'
import { dispatch } from '#core/api/dispatch'
import {
  fixtureEntry,
  startCore,
  startHttpFixture,
  whenState,
  type LiveCore,
} from './support/core/live'
import { NEVER_MS } from './support/process/limits'

const PLAIN_SEARCH = fileURLToPath(new URL('./fixtures/services/plain-search.mjs', import.meta.url))
const STDIO_FIXTURE = fileURLToPath(new URL('./fixtures/pool/stdio-server.mjs', import.meta.url))

/**
 * Doctor as a core service over the real demo servers: what it keeps (redacted), what it audits,
 * who it acts as, its IPC channels, generic mappings, and a server that does not answer.
 */

const SECRET = `doctor-svc-${randomBytes(12).toString('hex')}`
const ALICE = demoProfile('alice@example.com', 'alice', 'Alice')
const BOB = demoProfile('bob@example.com', 'bob', 'Bob')

let ragSearch: DemoProcess
let ragbox: DemoProcess
const cores: LiveCore[] = []
const dirs: string[] = []

const registry = () => ({
  knowledgeSearch: {
    url: ragSearch.url,
    headers: { Authorization: 'Bearer ${env:DOCTOR_SVC_KEY}' },
    dialect: 'rag-search',
  },
  documentVault: { url: ragbox.url, headers: { 'X-API-Key': '${env:DOCTOR_SVC_VAULT}' } },
  companyDocs: {
    transport: 'stdio',
    command: process.execPath,
    args: [demoScript(), 'rag-tools-v1', '--stdio', '--doc-host', 'http://127.0.0.1:0'],
  },
  vaultAsGeneric: {
    url: ragbox.url,
    headers: { 'X-API-Key': '${env:DOCTOR_SVC_VAULT}' },
    dialect: { search: { tool: 'search_documents', arguments: { query: '{query}' } } },
  },
  vaultMisMapped: {
    url: ragbox.url,
    headers: { 'X-API-Key': '${env:DOCTOR_SVC_VAULT}' },
    dialect: { search: { tool: 'find_things', arguments: { query: '{query}' } } },
  },
})

async function core(entries: object = registry(), dir?: string, connect = true): Promise<LiveCore> {
  const live = await startCore(entries, {
    env: { DOCTOR_SVC_KEY: SECRET, DOCTOR_SVC_VAULT: RAGBOX_KEYS.acme },
    connect,
    ...(dir ? { dir } : {}),
  })
  cores.push(live)
  live.core.settings.saveProfile(ALICE)
  live.core.settings.saveProfile(BOB)
  live.core.settings.setActive(ALICE.id)
  return live
}

beforeAll(async () => {
  ragSearch = await startDemo(['rag-search', '--port', '0', '--api-key', SECRET, ...OWN_DOC_HOST])
  // Many Doctor runs against one key in a minute: room above RAGbox's default allowance.
  ragbox = await startDemo([
    'ragbox',
    '--port',
    '0',
    '--rate-limit',
    '1000',
    '--query-rate-limit',
    '1000',
  ])
})

afterEach(async () => {
  for (const live of cores.splice(0)) await live.close()
})

afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  await Promise.all([ragSearch?.stop(), ragbox?.stop()])
})

describe('Doctor service', () => {
  it('keeps the key out of reports, the saved reports and the audit log, which has every probe', async () => {
    const live = await core()
    const run = await live.core.services.doctor.run({
      servers: ['knowledgeSearch', 'documentVault'],
    })
    await live.core.services.idle()
    expect(run.servers.map((s) => [s.server, s.error])).toEqual([
      ['knowledgeSearch', undefined],
      ['documentVault', undefined],
    ])
    const saved = readFileSync(join(live.dir, 'data', 'doctor.json'), 'utf8')
    for (const text of [JSON.stringify(run), saved, live.auditText()]) {
      expect(text).not.toContain(SECRET)
      expect(text).not.toContain(RAGBOX_KEYS.acme)
    }
    const doctorLines = live.auditLines().filter((line) => line.operation === 'doctor')
    const tools = (server: string) =>
      new Set(doctorLines.filter((line) => line.server === server).map((line) => line.tool))
    expect([...tools('knowledgeSearch')]).toEqual(
      expect.arrayContaining(['rag_search', 'verify_document_access', 'ping', 'tools/list']),
    )
    // The raw HTTP probes (a request without the key, the rate-limit headers) are audited too;
    // the 401 the keyless request asked for is no failure.
    expect(
      doctorLines.filter((l) => l.server === 'documentVault' && l.tool === 'tools/list'),
    ).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ outcome: 'ok', expectedError: 'http_401' }),
      ]),
    )
    expect(doctorLines.every((line) => line.user === ALICE.userId)).toBe(true)
  })

  it('runs as the acting profile: the username the server sees is the profile’s', async () => {
    const live = await core()
    const usernameOf = async (): Promise<unknown> => {
      const [report] = (await live.core.services.doctor.run({ servers: ['companyDocs'] })).servers
      const check = report!.checks.find((c) => c.id === 'rag-tools-v1.envelope')!
      expect(check.status).toBe('pass')
      return (check.evidence.request as { params: { arguments: { username: string } } }[])[0]!
        .params.arguments.username
    }
    expect(await usernameOf()).toBe(ALICE.userId)
    live.core.settings.setActive(BOB.id)
    expect(await usernameOf()).toBe(BOB.userId)
  })

  it('keeps each server’s last report across a restart, served by doctor:last', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rc-doctor-'))
    dirs.push(dir)
    const first = await core(registry(), dir)
    await first.core.services.doctor.run({ servers: ['documentVault'] })
    await first.close()
    cores.splice(cores.indexOf(first), 1)
    const again = await core(registry(), dir)
    const handlers = createHandlers(again.core)
    const last = await dispatch(handlers, 'doctor:last', { server: 'documentVault' })
    expect(last).toMatchObject({
      ok: true,
      value: { servers: [{ server: 'documentVault', dialect: 'ragbox', user: ALICE.userId }] },
    })
    const none = await dispatch(handlers, 'doctor:last', { server: 'knowledgeSearch' })
    expect(none).toEqual({ ok: true, value: { servers: [] } })
  })

  it('doctor:run checks through IPC and refuses a malformed request', async () => {
    const live = await core()
    const handlers = createHandlers(live.core)
    const bad = await dispatch(handlers, 'doctor:run', { servers: 'documentVault' })
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
    const good = await dispatch(handlers, 'doctor:run', { servers: ['documentVault'] })
    expect(good).toMatchObject({ ok: true, value: { servers: [{ server: 'documentVault' }] } })
  })

  it('sends doctor:progress per server as it finishes, and doctor:cancel stops the rest', async () => {
    const live = await core({
      documentVault: registry().documentVault,
      stuck: fixtureEntry(['--delay', '60000'], { timeoutMs: 30_000 }),
    })
    const handlers = createHandlers(live.core)
    const progress: { runId: string; server: string; done: number; total: number }[] = []
    live.core.events.on('doctor:progress', ({ runId, report, done, total }) => {
      progress.push({ runId, server: report.server, done, total })
      // The vault is done; the stuck server would hold the run for its whole budget.
      if (report.server === 'documentVault') void dispatch(handlers, 'doctor:cancel', { runId })
    })
    const run = await dispatch(handlers, 'doctor:run', {
      runId: 'run-1',
      servers: ['documentVault', 'stuck'],
    })
    expect(run).toMatchObject({ ok: true, value: { runId: 'run-1', cancelled: true } })
    const value = (run as { value: { servers: { server: string }[] } }).value
    expect(value.servers.map((s) => s.server)).toEqual(['documentVault'])
    expect(progress).toEqual([{ runId: 'run-1', server: 'documentVault', done: 1, total: 2 }])
    // What finished is kept; the cancelled server keeps what it had (here: nothing).
    expect(live.core.services.doctor.lastReports().servers.map((s) => s.server)).toEqual([
      'documentVault',
    ])
    expect(await dispatch(handlers, 'doctor:cancel', { runId: 'run-1' })).toEqual({
      ok: true,
      value: { cancelled: false },
    })
  })

  it('checks a generic mapping: passes when its tool finds hits, fails when the tool is absent', async () => {
    const live = await core()
    const run = await live.core.services.doctor.run({
      servers: ['vaultAsGeneric', 'vaultMisMapped'],
    })
    const status = (server: string) =>
      run.servers
        .find((s) => s.server === server)!
        .checks.filter((c) => c.id.startsWith('generic.'))
        .map((c) => [c.id, c.status, c.evidence.found])
    expect(status('vaultAsGeneric')).toEqual([
      ['generic.search-tool', 'pass', expect.stringMatching(/hit\(s\) through search_documents/)],
    ])
    expect(status('vaultMisMapped')).toEqual([
      ['generic.search-tool', 'fail', expect.stringMatching(/names "find_things"/)],
    ])
  })

  it('checks a server of no family: the protocol, and says it has no search-like tool', async () => {
    const live = await core({
      plain: { transport: 'stdio', command: process.execPath, args: [STDIO_FIXTURE] },
    })
    const [report] = (await live.core.services.doctor.run({ servers: ['plain'] })).servers
    expect(report).toMatchObject({ dialect: null })
    expect(report!.error).toBeUndefined()
    expect(report!.checks.map((c) => [c.id, c.status])).toEqual([
      ['protocol.initialize', 'pass'],
      ['protocol.ping', 'pass'],
      ['protocol.tools-list', 'pass'],
      ['protocol.errors', 'pass'],
      ['generic.search-tool', 'fail'],
    ])
    expect(report!.checks[4]!.evidence.found).toMatch(/no search-like tool among echo, whoami/)
  })

  it('suggests a mapping for the search-like tool of a server of no family, and offers the trial call', async () => {
    const live = await core({
      articles: { transport: 'stdio', command: process.execPath, args: [PLAIN_SEARCH] },
    })
    const [report] = (await live.core.services.doctor.run({ servers: ['articles'] })).servers
    expect(report).toMatchObject({ dialect: null })
    // lookup_articles does not say it only reads: Doctor offers the call instead of making it.
    expect(report!.checks.find((c) => c.id === 'generic.search-tool')).toMatchObject({
      status: 'warn',
      evidence: {
        found: expect.stringMatching(/no mapping yet; lookup_articles looks like search/),
        reply: {
          suggested: { search: { tool: 'lookup_articles', arguments: { query: '{query}' } } },
        },
        offered: { tool: 'lookup_articles', arguments: { query: 'policy' } },
      },
    })
  })

  it('warns instead of failing the identity check when the profile has no session tags', async () => {
    const live = await core()
    const untagged = {
      id: 'untagged',
      name: 'No tags',
      userId: 'dan@example.com',
      sessionTags: [],
      groups: [],
    }
    live.core.settings.saveProfile(untagged)
    live.core.settings.setActive(untagged.id)
    const [report] = (await live.core.services.doctor.run({ servers: ['knowledgeSearch'] })).servers
    expect(report!.checks.find((c) => c.id === 'rag-search.identity')).toMatchObject({
      status: 'warn',
      evidence: { found: expect.stringMatching(/no session tags/) },
    })
  })

  it('shows -32000 in the evidence of a RAGbox request without the key', async () => {
    const live = await core()
    const [report] = (await live.core.services.doctor.run({ servers: ['documentVault'] })).servers
    expect(report!.checks.find((c) => c.id === 'ragbox.api-key')).toMatchObject({
      status: 'pass',
      evidence: {
        request: { headers: {} },
        reply: { status: 401, body: { error: { code: -32000 } } },
      },
    })
  })

  it('names RAGbox -32001 as not provoked, to respect the rate limit, with its spec section', async () => {
    const live = await core()
    const [report] = (await live.core.services.doctor.run({ servers: ['documentVault'] })).servers
    expect(report!.checks.find((c) => c.id === 'ragbox.rate-limited')).toMatchObject({
      status: 'not_applicable',
      spec: expect.stringMatching(/^spec 003 § .*Error Codes/),
      evidence: {
        expected: expect.stringMatching(/-32001/),
        found: 'not applicable: not provoked, to respect the rate limit',
      },
    })
  })

  it('warns when RAGbox rate-limits query_knowledge (-32001) rather than failing silence', async () => {
    const stingy = await startDemo(['ragbox', '--port', '0', '--query-rate-limit', '1'])
    try {
      const live = await core({
        stingy: { url: stingy.url, headers: { 'X-API-Key': '${env:DOCTOR_SVC_VAULT}' } },
      })
      const silence = async () => {
        const [report] = (await live.core.services.doctor.run({ servers: ['stingy'] })).servers
        return report!.checks.find((c) => c.id === 'ragbox.silence')
      }
      expect((await silence())?.status).toBe('pass')
      expect(await silence()).toMatchObject({
        status: 'warn',
        evidence: { found: expect.stringMatching(/rate limited \(-32001\)/) },
      })
    } finally {
      await stingy.stop()
    }
  })

  it('fails a check that gets no answer in time and still runs the others', async () => {
    // Over HTTP to a server already running, connecting takes a round trip even on a busy
    // machine: the 2 s budget is spent only by the search it never answers.
    const slow = await startHttpFixture(['--name', 'slow', '--delay', String(NEVER_MS)])
    try {
      const live = await core({
        slow: { url: slow.url, dialect: 'rag-tools-v1', timeoutMs: 2_000 },
      })
      await whenState(live.core, ['slow'])
      const [report] = (await live.core.services.doctor.run({ servers: ['slow'] })).servers
      const byId = Object.fromEntries(report!.checks.map((c) => [c.id, c]))
      expect(byId['protocol.ping']?.status).toBe('pass')
      expect(byId['rag-tools-v1.envelope']).toMatchObject({
        status: 'fail',
        evidence: { found: expect.stringMatching(/time|timeout|within/i) },
      })
    } finally {
      await slow.stop()
    }
  })

  it('does not probe a server whose rate limit is nearly used up, and says when to retry', async () => {
    const tight = await startDemo(['ragbox', '--port', '0', '--rate-limit', '16'])
    try {
      const live = await core({
        tight: { url: tight.url, headers: { 'X-API-Key': '${env:DOCTOR_SVC_VAULT}' } },
      })
      const [first] = (await live.core.services.doctor.run({ servers: ['tight'] })).servers
      expect(first!.error).toBeUndefined()
      await live.core.services.idle()
      const linesBefore = live.auditLines().length
      const [second] = (await live.core.services.doctor.run({ servers: ['tight'] })).servers
      expect(second).toMatchObject({
        // Not probed, but its family is known from the tools it listed when it connected.
        dialect: 'ragbox',
        checks: [],
        error: {
          code: 'rate_limited',
          message: expect.stringMatching(/tight: .*left.*run Doctor again/),
        },
      })
      await live.core.services.idle()
      expect(live.auditLines().length).toBe(linesBefore)
    } finally {
      await tight.stop()
    }
  })

  it('reports a registered server the pool does not hold, without failing the run', async () => {
    const live = await core(registry(), undefined, false)
    const run = await live.core.services.doctor.run({ servers: ['documentVault'] })
    expect(run.servers).toEqual([
      expect.objectContaining({ server: 'documentVault', checks: [], error: expect.anything() }),
    ])
  })

  it('names the configured family of a server it cannot reach', async () => {
    const live = await core({
      gone: { url: 'http://127.0.0.1:9/mcp', dialect: 'vtex', timeoutMs: 2_000 },
      goneGeneric: {
        url: 'http://127.0.0.1:9/mcp',
        dialect: { search: { tool: 'find' } },
        timeoutMs: 2_000,
      },
    })
    const run = await live.core.services.doctor.run({ servers: ['gone', 'goneGeneric'] })
    expect(run.servers.map((r) => [r.server, r.dialect, r.checks, r.error?.code])).toEqual([
      ['gone', 'vtex', [], expect.any(String)],
      ['goneGeneric', 'generic', [], expect.any(String)],
    ])
  })

  it('reports a server it cannot check, without checks', async () => {
    const live = await core()
    const run = await live.core.services.doctor.run({ servers: ['nowhere'] })
    expect(run.servers).toEqual([
      expect.objectContaining({
        server: 'nowhere',
        checks: [],
        error: expect.objectContaining({ code: 'not_found' }),
      }),
    ])
  })
})
