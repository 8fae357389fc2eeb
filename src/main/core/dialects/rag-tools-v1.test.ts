import { describe, expect, it } from 'vitest'
import * as fixture from '#test/fixtures/dialects/rag-tools-v1'
import {
  parseDiscoverResult,
  parseRawResults,
  parseSynthesisResult,
  ragToolsV1Adapter,
  withUsername,
} from './rag-tools-v1'
import {
  RecordingSession,
  alice,
  asUser,
  type Reply,
} from '#test/support/dialects/recording-session'

const input = { query: 'pto policy', phrases: [], topK: 8, sources: ['handbook'] }
const rules = (output: { violations: { rule: string }[] }) => output.violations.map((v) => v.rule)

const server = (tools: Record<string, Reply>, inputSchemas: Record<string, unknown> = {}) =>
  new RecordingSession({ serverId: 'docsRag', tools, inputSchemas })

describe('rag-tools-v1 username injection', () => {
  it('sends the acting user as username on discovery', async () => {
    const s = server({ rag_discover_resources: fixture.structured(fixture.specDiscover) })
    await ragToolsV1Adapter.discover(s, asUser(alice, 'discover'))
    expect(s.argsOf('rag_discover_resources')).toEqual([{ username: 'alice@example.com' }])
  })

  it('sends the spec request shape on raw search', async () => {
    const s = server({ rag_get_raw_results: fixture.structured(fixture.specRaw) })
    await ragToolsV1Adapter.search(s, { ...input, filters: { tags: ['hr'] } }, asUser())
    expect(s.argsOf('rag_get_raw_results')).toEqual([
      {
        query: 'pto policy',
        top_k: 8,
        sources: ['handbook'],
        filters: { tags: ['hr'] },
        username: 'alice@example.com',
      },
    ])
  })

  it('cannot be overridden by filters or other inputs', async () => {
    const s = server({ rag_get_raw_results: fixture.structured(fixture.specRaw) })
    await ragToolsV1Adapter.search(
      s,
      { ...input, query: 'x', filters: { username: 'mallory', owners: ['bob'] } },
      asUser(),
    )
    const [args] = s.argsOf('rag_get_raw_results')
    expect(args?.username).toBe('alice@example.com')
    expect(args?.filters).toEqual({ owners: ['bob'] })
  })

  it('is set last over any username already in the arguments', () => {
    expect(
      withUsername({ username: 'mallory', ranking: { username: 'x', rerank: true } }, alice),
    ).toEqual({
      ranking: { rerank: true },
      username: 'alice@example.com',
    })
  })

  it('refuses to call without an acting user', async () => {
    const s = server({ rag_get_raw_results: fixture.structured(fixture.specRaw) })
    await expect(ragToolsV1Adapter.search(s, input, { operation: 'search' })).rejects.toMatchObject(
      {
        code: 'invalid_argument',
        origin: 'local',
      },
    )
    expect(s.calls).toEqual([])
  })
})

describe('rag-tools-v1 discovery', () => {
  it('maps the spec example', () => {
    const output = parseDiscoverResult(fixture.structured(fixture.specDiscover), 'docsRag')
    expect(output.violations).toEqual([])
    expect(output.resources).toEqual([
      {
        server: 'docsRag',
        id: 'handbook',
        name: 'Employee Handbook',
        authRequired: true,
        groups: ['users'],
        scopes: [],
        defaultSelected: true,
      },
    ])
  })

  it('keeps an error discovery reports about one source on that source', () => {
    const output = parseDiscoverResult(
      fixture.structured({
        results: {
          resources: [
            { id: 'old', name: 'Old', authRequired: false, groups: [] },
            { id: 'new', name: 'New', authRequired: false, groups: [] },
          ],
          errors: [{ code: 'backend_unavailable', source: 'old', message: 'archived, offline' }],
        },
        meta_data: {},
      }),
      'docsRag',
    )
    expect(output.failure).toBeUndefined()
    expect(output.resources[0]?.error).toMatchObject({
      code: 'server_error',
      server: 'docsRag',
      message: expect.stringMatching(/backend_unavailable \(source old\): archived, offline/),
    })
    expect(output.resources[1]?.error).toBeUndefined()
  })

  it('maps the minimal example with defaultSelected off', () => {
    const output = parseDiscoverResult(fixture.asText(fixture.specDiscoverMinimal), 'docsRag')
    expect(output.violations).toEqual([])
    expect(output.resources[0]).toMatchObject({ id: 'kb', defaultSelected: false })
  })

  it('maps every field of the full resource shape', () => {
    const output = parseDiscoverResult(fixture.structured(fixture.discoverFull), 'docsRag')
    expect(output.violations).toEqual([])
    expect(output.resources[0]).toEqual({
      server: 'docsRag',
      id: 'legal',
      name: 'Legal Docs',
      sourceType: 'confluence',
      authRequired: true,
      authMode: 'capability',
      groups: ['legal', 'admin'],
      scopes: ['read'],
      lastIndexed: '2025-01-31T12:00:00Z',
      counts: { docs: 120, chunks: 3400 },
      defaultSelected: false,
    })
  })

  it('skips a resource without id and reports it', () => {
    const output = parseDiscoverResult(fixture.structured(fixture.broken.resourceWithoutId), 's')
    expect(output.resources).toEqual([])
    expect(output.violations[0]).toMatchObject({
      rule: 'missing_field',
      path: 'structuredContent.results.resources[0].id',
    })
  })

  it('reports wrong types and unknown auth modes, assuming auth is required', () => {
    const output = parseDiscoverResult(fixture.structured(fixture.broken.resourceWrongTypes), 's')
    expect(rules(output)).toEqual(['wrong_type', 'wrong_type', 'invalid_value'])
    expect(output.resources[0]).toMatchObject({ authRequired: true, groups: [] })
    expect(output.resources[0]?.authMode).toBeUndefined()
  })

  it('returns nothing without calling when the server has no discovery tool', async () => {
    const s = server({ rag_get_raw_results: fixture.structured(fixture.specRaw) })
    expect(await ragToolsV1Adapter.discover(s, asUser())).toMatchObject({ resources: [] })
    expect(s.calls).toEqual([])
  })
})

describe('rag-tools-v1 raw results', () => {
  it('maps the spec example from structuredContent', async () => {
    const s = server({ rag_get_raw_results: fixture.structured(fixture.specRaw) })
    const output = await ragToolsV1Adapter.search(s, input, asUser())
    expect(output.violations).toEqual([])
    expect(output.hits).toEqual([
      expect.objectContaining({
        server: 'docsRag',
        id: 'https://…',
        sourceId: 'handbook',
        title: 'Leave policy',
        snippet: '…',
        score: 0.92,
        uri: 'https://…',
      }),
    ])
  })

  it('reads the JSON text block when there is no structuredContent', () => {
    const output = parseRawResults(fixture.asText(fixture.specRawMinimal), 's', ['kb'])
    expect(output.violations).toEqual([])
    expect(output.hits[0]).toMatchObject({ sourceId: 'kb', title: 'Reset MFA', score: 0.81 })
  })

  it('maps chunk to text, derives the title and keeps provenance and timestamp', () => {
    const [hit] = parseRawResults(fixture.structured(fixture.rawFull), 's', ['kb']).hits
    expect(hit).toMatchObject({
      id: 'kb-17#3',
      title: 'Open the security page',
      text: 'Open the security page. Choose "Reset MFA". Confirm with your password.',
      summary: 'Choose "Reset MFA". Confirm with your password.',
      provenance: { page: 2 },
      timestamp: '2025-02-01T08:00:00Z',
      derived: { title: true, summary: true },
    })
  })

  it('keeps artifacts with their mime type and base64 body', () => {
    const output = parseRawResults(fixture.structured(fixture.rawFull), 's', ['kb'])
    expect(output.artifacts).toEqual([
      { name: 'raw.json', mime: 'application/json', b64: 'eyJvayI6dHJ1ZX0=' },
    ])
  })
})

describe('rag-tools-v1 violations', () => {
  it('reads an error nested thousands of levels deep as a violation, without overflowing the stack', () => {
    // Found by the reply-boundary fuzz suite: results.error was read recursively without a bound.
    let error: unknown = 'unauthorized_user'
    for (let i = 0; i < 20_000; i += 1) error = [error]
    const envelope = { results: { hits: [], error }, meta_data: {}, artifacts: [] }
    const output = parseRawResults({ content: [], structuredContent: envelope }, 's', ['kb'])
    expect(output.violations).toEqual([
      expect.objectContaining({ rule: 'invalid_value', path: expect.stringContaining('error') }),
    ])
  })

  it('reports a hit without resourceId', () => {
    const output = parseRawResults(fixture.structured(fixture.broken.hitWithoutResourceId), 's', [])
    expect(output.violations).toEqual([
      expect.objectContaining({
        rule: 'missing_resource_id',
        path: 'structuredContent.results.hits[0].resourceId',
      }),
    ])
    expect(output.hits[0]?.flags).toContain('violations')
  })

  it('reports a score that is a string and keeps no score', () => {
    const output = parseRawResults(fixture.structured(fixture.broken.scoreNotNumber), 's', [])
    expect(output.violations[0]).toMatchObject({ rule: 'score_not_number', value: '0.9' })
    expect(output.hits[0]?.score).toBeUndefined()
  })

  it('reports a missing score', () => {
    expect(
      rules(parseRawResults(fixture.structured(fixture.broken.missingScore), 's', [])),
    ).toEqual(['missing_field'])
  })

  it('reports an envelope without results and still reads its hits', () => {
    const output = parseRawResults(fixture.structured(fixture.broken.noResults), 's', [])
    expect(output.violations).toEqual([
      expect.objectContaining({ rule: 'unexpected_envelope', path: 'structuredContent.results' }),
    ])
    expect(output.hits).toHaveLength(1)
  })

  it('reports hits that are not an array', () => {
    expect(
      rules(parseRawResults(fixture.structured(fixture.broken.hitsNotArray), 's', [])),
    ).toEqual(['wrong_type'])
  })

  it('reports a text block that is not JSON', () => {
    const output = parseRawResults(fixture.unparsableText, 's', [])
    expect(output.violations).toEqual([
      expect.objectContaining({ rule: 'unparsable_json', path: 'content[0].text' }),
    ])
    expect(output.hits).toEqual([])
  })

  it('reports a hit from a source that was not requested', () => {
    const output = parseRawResults(
      fixture.structured(fixture.broken.hitFromUnrequestedSource),
      's',
      ['handbook'],
    )
    expect(output.violations[0]).toMatchObject({ rule: 'invalid_value', value: 'secret' })
  })

  it('reports bad artifacts and keeps none of them', () => {
    const output = parseRawResults(fixture.structured(fixture.broken.badArtifact), 's', [])
    expect(rules(output)).toEqual(['invalid_base64', 'missing_field'])
    expect(output.artifacts).toBeUndefined()
  })
})

describe('rag-tools-v1 synthesis', () => {
  it('maps the spec example to a server answer with numbered citations', async () => {
    const s = server({ rag_get_synthesized_results: fixture.structured(fixture.specSynth) })
    const answer = await ragToolsV1Adapter.synthesize?.(
      s,
      { query: 'summarize pto policy', topK: 5, sources: ['handbook'] },
      asUser(),
    )
    expect(s.argsOf('rag_get_synthesized_results')).toEqual([
      {
        query: 'summarize pto policy',
        top_k: 5,
        sources: ['handbook'],
        username: 'alice@example.com',
      },
    ])
    expect(answer).toMatchObject({
      server: 'docsRag',
      mode: 'server',
      text: '…',
      citations: [
        { n: 1, server: 'docsRag', sourceId: 'handbook', uri: 'https://…', snippet: '…' },
      ],
      limits: { truncated: false },
      violations: [],
    })
  })

  it('maps the minimal example', () => {
    const answer = parseSynthesisResult(fixture.asText(fixture.specSynthMinimal), 's')
    expect(answer.violations).toEqual([])
    expect(answer.citations).toEqual([{ n: 1, server: 's', sourceId: 'kb', uri: 'https://…' }])
  })

  it('reports a citation without resourceId', () => {
    const answer = parseSynthesisResult(
      fixture.structured(fixture.broken.citationWithoutResourceId),
      's',
    )
    expect(answer.violations).toEqual([
      expect.objectContaining({
        rule: 'missing_resource_id',
        path: 'structuredContent.results.citations[0].resourceId',
      }),
    ])
  })

  it('is unsupported when the server does not list the tool', async () => {
    const s = server({ rag_get_raw_results: fixture.structured(fixture.specRaw) })
    await expect(
      ragToolsV1Adapter.synthesize?.(s, { query: 'q', topK: 5, sources: [] }, asUser()),
    ).rejects.toMatchObject({ code: 'unsupported' })
  })
})
