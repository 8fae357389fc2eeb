import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LEGAL_CAPABILITY_TOKEN, RAGBOX_KEYS } from '#demo/keys'
import { OWN_DOC_HOST, demoScript, startDemo, type DemoProcess } from './support/demo/programs'
import { startCore, whenState, type LiveCore } from './support/core/live'
import { LINK_VERDICTS, type AccessCheck } from '#shared/model/rag'
import { demoProfile } from './support/demo/profiles'
import { SAFETY_NET_MS } from './support/process/limits'

/**
 * The operations end to end against the demo servers (rag-search over streamable HTTP with its
 * document host, rag-tools-v1 over stdio, RAGbox over HTTP): citation verdicts of every class,
 * the access cache, both synthesis modes, cross-family dedupe, the suspicious flag, and an audit
 * log without a secret. Credentials are session tokens: a unique one for rag-search.
 */

const UNIQUE_KEY = `svc-test-${randomBytes(12).toString('hex')}`
const CAROL = demoProfile('carol@example.com', 'carol', 'Carol (legal)')
const ALICE = demoProfile('alice@example.com', 'alice', 'Alice')

let ragSearch: DemoProcess
let ragbox: DemoProcess
let live: LiveCore
let docs: string

beforeAll(async () => {
  ragSearch = await startDemo([
    'rag-search',
    '--port',
    '0',
    '--api-key',
    UNIQUE_KEY,
    ...OWN_DOC_HOST,
  ])
  docs = ragSearch.docs!
  ragbox = await startDemo(['ragbox', '--port', '0', '--doc-host', docs])
  live = await startCore({
    knowledgeSearch: {
      url: ragSearch.url,
      headers: { Authorization: 'Bearer ${session:apiKey}' },
      dialect: 'rag-search',
      groups: ['users'],
      dataSources: [
        { id: 'handbook', name: 'Employee Handbook' },
        { id: 'legal', name: 'Legal Docs', groups: ['legal'] },
      ],
    },
    companyDocs: {
      transport: 'stdio',
      command: process.execPath,
      args: [demoScript(), 'rag-tools-v1', '--stdio', '--doc-host', docs],
      dialect: 'rag-tools-v1',
      groups: ['users'],
      dataSources: [{ id: 'legal', name: 'Legal Docs', authMode: 'capability' }],
      // A stdio demo that reconnects when its session token is set: on a busy machine that takes
      // longer than the default 15 s.
      timeoutMs: SAFETY_NET_MS,
    },
    documentVault: {
      url: ragbox.url,
      headers: { 'X-API-Key': '${session:apiKey}' },
      dialect: 'ragbox',
      groups: ['users'],
    },
  })
  live.core.secrets.setSessionToken('knowledgeSearch', 'apiKey', UNIQUE_KEY)
  live.core.secrets.setSessionToken('documentVault', 'apiKey', RAGBOX_KEYS.acme)
  live.core.settings.saveProfile(CAROL)
  live.core.settings.saveProfile(ALICE)
  live.core.settings.setActive(CAROL.id)
  await whenState(live.core, ['knowledgeSearch', 'companyDocs', 'documentVault'])
})

afterAll(async () => {
  await live?.close()
  await Promise.all([ragSearch?.stop(), ragbox?.stop()])
})

async function hitFor(query: string, uriPart: string | RegExp) {
  const result = await live.core.services.search.run({
    searchId: `find-${uriPart}`,
    query,
    topK: 20,
    selection: { knowledgeSearch: [] },
  })
  const hit = result.servers[0]?.hits.find((h) =>
    typeof uriPart === 'string' ? h.uri?.includes(uriPart) : uriPart.test(h.uri ?? ''),
  )
  if (!hit) throw new Error(`no hit for ${uriPart} among ${result.servers[0]?.hits.length} hits`)
  return hit
}

describe('citation access', () => {
  it('gives every verdict class, with progress events and counts', async () => {
    const progress: number[] = []
    live.core.events.on('access:progress', (event) => {
      if (event.batchId === 'all-verdicts') progress.push(event.done)
    })
    const stale = await hitFor('master services agreement clauses', 'lg-msa-clauses')
    const ownPort = Number(new URL(docs).port) + 1
    const targets = {
      ok: { url: `${docs}/docs/hb-pto-policy` },
      expired: { url: stale.uri! },
      forbidden: { url: `${docs}/docs/en-deployments-runbook` },
      not_found: { url: `${docs}/docs/en-api-versioning-checklist` },
      login_wall: { url: `${docs}/portal/hb-health-benefits-request` },
      rate_limited: { url: `${docs}/throttled/it-printer-setup` },
      server_error: { url: `${docs}/error/en-observability-runbook` },
      unreachable: { url: 'http://127.0.0.1:9/wiki/it-email-troubleshoot' },
      // The console's own listener (as the browser host registers it): never requested.
      blocked: { url: `http://localhost:${ownPort}/#token=abc` },
      invalid_url: { url: '\\\\fileserver\\legal\\retention.pdf' },
      no_link: {},
    }
    live.core.ownPorts.add(ownPort)
    const result = await live.core.services.access.checkAll('all-verdicts', Object.values(targets))
    live.core.ownPorts.delete(ownPort)
    expect(result.checks.map((check) => check.verdict)).toEqual(Object.keys(targets))
    expect(result.counts).toEqual(Object.fromEntries(Object.keys(targets).map((k) => [k, 1])))
    expect(progress.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
    const expired = result.checks[1]!
    expect(expired.explanation).toMatch(/^this link expired \d+ days ago \(HTTP 403/)
    expect(result.checks[8]!.explanation).toMatch(/console's own port/)
    expect(result.checks[9]!.explanation).toBe(
      '“\\\\fileserver\\legal\\retention.pdf” is not a web link (only http(s) URLs are checked)',
    )
    const wall = result.checks[4]!
    expect(wall.link?.redirects.map((hop) => hop.status)).toEqual([302, 200])
  })

  it('judges the expired link the user clicked, and says the server can issue a fresh one', async () => {
    const stale = await hitFor('master services agreement clauses', 'lg-msa-clauses')
    const check = await live.core.services.access.check(
      { server: 'knowledgeSearch', segmentId: stale.id, url: stale.uri! },
      { refresh: true },
    )
    expect(check.verdict).toBe('expired')
    expect(check.url).toBe(stale.uri)
    expect(check.link).toMatchObject({ url: stale.uri, status: 403, classification: 'expired' })
    expect(check.access).toMatchObject({ checked: true, hasAccess: true })
    expect(check.access?.refreshedUrl).not.toBe(stale.uri)
    expect(check.freshLink).toMatchObject({
      url: check.access?.refreshedUrl,
      status: 200,
      classification: 'ok',
    })
    expect(check.explanation).toMatch(
      /^this link expired \d+ days ago \(HTTP 403, [^)]*\); the server can issue a fresh one \(open it: HTTP 200/,
    )
  })

  it('caches per exact link: another link for the same segment is checked anew', async () => {
    const stale = await hitFor('master services agreement clauses', 'lg-msa-clauses')
    const segment = { server: 'knowledgeSearch', segmentId: stale.id }
    await live.core.services.access.check({ ...segment, url: stale.uri! }, { refresh: true })
    const other = `${docs}/docs/hb-pto-policy`
    const check = await live.core.services.access.check({ ...segment, url: other })
    expect(check.cached).toBe(false)
    expect(check.url).toBe(other)
    expect(check.link?.url).toBe(other)
    expect(check.verdict).toBe('ok')
  })

  it('calls a link that opens for a user the server denies a leak, and names that user', async () => {
    // A link signed for Carol that has not expired (any but the stale lg-msa-clauses).
    const hit = await hitFor('master services agreement clauses', /^(?!.*lg-msa-clauses).*sig=/)
    const check = await live.core.services.access.check(
      { server: 'knowledgeSearch', segmentId: hit.id, url: hit.uri! },
      { refresh: true, profile: live.core.services.profile(ALICE.id) },
    )
    expect(check.access?.hasAccess).toBe(false)
    expect(check.link?.classification).toBe('ok')
    expect(check.verdict).toBe('leak')
    expect(check.conflict).toBe(true)
    expect(check.explanation).toMatch(
      /^the link opens for anyone who holds it \(HTTP 200, [^)]*\), but the server denies alice@example\.com: "Document is restricted to [^"]*; alice@example\.com is in: /,
    )
    expect(check.explanation).not.toMatch(/your groups/)
  })

  it('checks as another saved profile, leaving the active one as it was', async () => {
    const stale = await hitFor('master services agreement clauses', 'lg-msa-clauses')
    const target = { server: 'knowledgeSearch', segmentId: stale.id, url: stale.uri! }
    const asAlice = await live.core.services.access.check(target, {
      refresh: true,
      profile: live.core.services.profile(ALICE.id),
    })
    const asActive = await live.core.services.access.check(target)
    expect(asAlice.user.userId).toBe(ALICE.userId)
    expect(asAlice.access?.hasAccess).toBe(false)
    expect(asAlice.verdict).not.toBe('ok')
    expect(asActive).toMatchObject({ verdict: 'expired', user: { userId: CAROL.userId } })
    expect(asActive.freshLink?.classification).toBe('ok')
    expect(live.core.settings.active().id).toBe(CAROL.id)
    expect(() => live.core.services.profile('nobody')).toThrow(/no profile with id nobody/)
  })

  it("reports the server's own refusal in its words", async () => {
    const check = await live.core.services.access.check({
      server: 'knowledgeSearch',
      segmentId: 'it-backups-faq#0',
    })
    expect(check).toMatchObject({
      verdict: 'not_found',
      explanation: 'the server says the document has been deleted',
      access: { hasAccess: false },
    })
  })

  it('answers a repeated check from the cache for 5 minutes, and checks again on request', async () => {
    const target = { server: 'knowledgeSearch', segmentId: 'hb-pto-policy#0' }
    const verifyLines = (): number =>
      live.auditLines().filter((l) => l.operation === 'verify' && l.server === 'knowledgeSearch')
        .length
    const first: AccessCheck = await live.core.services.access.check(target, { refresh: true })
    await live.core.services.idle()
    const before = verifyLines()
    const second = await live.core.services.access.check(target)
    expect(second.cached).toBe(true)
    expect(second.checkedAt).toBe(first.checkedAt)
    await live.core.services.idle()
    expect(verifyLines()).toBe(before)
    const third = await live.core.services.access.check(target, { refresh: true })
    expect(third.cached).toBe(false)
    await live.core.services.idle()
    expect(verifyLines()).toBe(before + 1)
  })
})

describe('synthesis against the demo families', () => {
  it("shows RAGbox's own answer, its silence, and a client answer for rag-search side by side", async () => {
    const answered = await live.core.services.synthesis.run({
      query: 'How many days of paid time off do employees accrue?',
      selection: { documentVault: [], knowledgeSearch: [] },
    })
    const vault = answered.answers.find((a) => a.server === 'documentVault')
    const search = answered.answers.find((a) => a.server === 'knowledgeSearch')
    expect(vault).toMatchObject({ server: 'documentVault', ok: true, answer: { mode: 'server' } })
    expect(vault?.answer?.text).not.toBe('')
    expect(vault?.answer?.silence).toBeUndefined()
    expect(search?.answer?.mode).toBe('client')
    expect(search?.answer?.citations.length).toBeGreaterThan(0)
    expect(search?.answer?.text).toMatch(/\[1\]/)

    const silent = await live.core.services.synthesis.run({
      query: 'What is the boiling point of tungsten on Mars?',
      selection: { documentVault: [] },
    })
    expect(silent.answers[0]?.answer?.silence?.reason).toBeTruthy()
  })
})

describe('search against the demo families', () => {
  it('flags a hit that talks to a model as suspicious', async () => {
    const hit = await hitFor('printer driver update', 'it-printer-vendor-notes')
    expect(hit.flags).toContain('suspicious')
  })

  it('keeps the suspicious flag of any copy on the merged hit, naming the flagged copies', async () => {
    const result = await live.core.services.search.run({
      searchId: 'printer-merged',
      query: 'printer',
      phrases: ['vendor notes', 'toner'],
      selection: { knowledgeSearch: [], companyDocs: [] },
    })
    const first = result.hits[0]!
    expect(first.uri).toContain('it-printer-vendor-notes')
    expect(first.flags).toContain('suspicious')
    const flagged = first.foundIn.filter((place) => place.suspicious)
    expect(flagged.length).toBeGreaterThan(0)
    expect(flagged.length).toBeLessThan(first.foundIn.length)
    expect(flagged.map((place) => place.hitId)).toContain('it-printer-vendor-notes#1')
  })

  it('collapses the same document found by two families into one merged hit', async () => {
    const result = await live.core.services.search.run({
      searchId: 'cross-family',
      query: 'paid time off policy',
      topK: 20,
      selection: { knowledgeSearch: [], companyDocs: ['handbook'] },
    })
    expect(result.servers.map((s) => [s.server, s.ok])).toEqual([
      ['knowledgeSearch', true],
      ['companyDocs', true],
    ])
    const both = result.hits.find((hit) => new Set(hit.foundIn.map((f) => f.server)).size === 2)
    expect(both, 'a handbook document found by both servers').toBeDefined()
  })
})

describe('discovery and capability tokens against the demo families', () => {
  it("shows a family without discovery its configured sources, and the others' runtime ones", async () => {
    const { servers } = await live.core.services.discovery.run()
    const byId = Object.fromEntries(servers.map((s) => [s.server, s]))
    expect(byId.knowledgeSearch?.sources.map((s) => [s.id, s.visible])).toEqual([
      ['handbook', true],
      ['legal', true],
    ])
    expect(byId.knowledgeSearch?.missing).toEqual([])
    expect(byId.companyDocs?.ok).toBe(true)
    expect(byId.companyDocs?.sources.map((s) => s.id)).toEqual(
      expect.arrayContaining(['legal', 'handbook', 'sales']),
    )
  })

  it('sends a capability source the session token named after it, and reports the refusal without one', async () => {
    const run = (searchId: string) =>
      live.core.services.search.run({
        searchId,
        query: 'master services agreement',
        selection: { companyDocs: ['legal'] },
      })
    const refused = (await run('no-token')).servers[0]
    expect(refused?.hits ?? []).toEqual([])
    const refusal = refused?.error ?? refused?.sourceErrors[0]?.error
    expect(refusal?.code).toBe('unauthorized')
    live.core.secrets.setSessionToken('companyDocs', 'legal', LEGAL_CAPABILITY_TOKEN)
    await whenState(live.core, ['companyDocs'])
    const opened = (await run('with-token')).servers[0]
    expect(opened?.ok).toBe(true)
    expect(opened?.hits.length).toBeGreaterThan(0)
    expect(opened?.hits.every((hit) => hit.sourceId === 'legal')).toBe(true)
  })
})

describe('audit log', () => {
  it('records who called what, and never a key, token or query', async () => {
    await live.core.services.idle()
    const lines = live.auditLines()
    expect(lines.length).toBeGreaterThan(5)
    expect(new Set(lines.map((l) => l.operation))).toEqual(
      new Set(['discover', 'search', 'synthesize', 'verify', 'access']),
    )
    // Every citation check leaves its verdict, and "not a web link" is not "no link".
    const verdicts = new Set(lines.filter((l) => l.operation === 'access').map((l) => l.verdict))
    expect(verdicts).toEqual(new Set(LINK_VERDICTS))
    // Everything ran as the active profile except the checks made as Alice.
    const others = lines.filter((l) => l.user !== CAROL.userId)
    expect(others.map((l) => `${l.user} ${l.operation}`).sort()).toEqual([
      `${ALICE.userId} access`,
      `${ALICE.userId} access`,
      `${ALICE.userId} verify`,
      `${ALICE.userId} verify`,
    ])
    const text = live.auditText()
    expect(text).not.toContain(UNIQUE_KEY)
    expect(text).not.toContain(RAGBOX_KEYS.acme)
    expect(text).not.toContain(LEGAL_CAPABILITY_TOKEN)
    expect(text).not.toMatch(/paid time off|tungsten|printer driver/)
    expect(text).not.toMatch(/sig=|Bearer/)
  })
})
