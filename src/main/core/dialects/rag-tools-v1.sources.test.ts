import { describe, expect, it } from 'vitest'
import * as fixture from '#test/fixtures/dialects/rag-tools-v1'
import { parseRawResults, ragToolsV1Adapter } from './rag-tools-v1'
import { RecordingSession, asUser, type Reply } from '#test/support/dialects/recording-session'

/** Per-source behaviour: error codes reported inside replies, and capability-token calls. */

const input = { query: 'pto policy', phrases: [], topK: 8, sources: ['handbook'] }

const server = (tools: Record<string, Reply>, inputSchemas: Record<string, unknown> = {}) =>
  new RecordingSession({ serverId: 'docsRag', tools, inputSchemas })

describe('rag-tools-v1 error codes', () => {
  it('lists a refused source next to the hits of the others', async () => {
    const s = server({ rag_get_raw_results: fixture.structured(fixture.partialUnauthorized) })
    const output = await ragToolsV1Adapter.search(
      s,
      { ...input, sources: ['handbook', 'legal'] },
      asUser(),
    )
    expect(output.hits.map((hit) => hit.id)).toEqual(['h1'])
    expect(output.sourceErrors).toEqual([
      {
        sourceId: 'legal',
        error: expect.objectContaining({
          code: 'unauthorized',
          origin: 'server',
          server: 'docsRag',
          details: expect.objectContaining({
            serverCode: 'unauthorized_source',
            serverMessage: 'alice is not in group legal',
          }),
        }),
      },
    ])
  })

  it('pins a per-source code without a source on the only requested source', () => {
    const reply = fixture.structured({ results: { hits: [], error: 'invalid_source' } })
    expect(parseRawResults(reply, 's', ['gone']).sourceErrors).toEqual([
      { sourceId: 'gone', error: expect.objectContaining({ code: 'not_found' }) },
    ])
  })

  it('accepts a map of source ids to codes', () => {
    const reply = fixture.structured({
      results: { hits: [], errors: { a: 'token_expired', b: { code: 'unauthorized_source' } } },
    })
    expect(
      parseRawResults(reply, 's', ['a', 'b']).sourceErrors.map((e) => [e.sourceId, e.error.code]),
    ).toEqual([
      ['a', 'unauthorized'],
      ['b', 'unauthorized'],
    ])
  })

  it('fails the whole call when the reply is only a server-wide error', async () => {
    const s = server({ rag_get_raw_results: fixture.structured(fixture.rateLimited) })
    await expect(ragToolsV1Adapter.search(s, input, asUser())).rejects.toMatchObject({
      code: 'rate_limited',
      origin: 'server',
      details: expect.objectContaining({ serverCode: 'rate_limited' }),
    })
  })

  it('maps each spec code to a console code', () => {
    const codes = [
      'unauthorized_user',
      'unauthorized_source',
      'rate_limited',
      'invalid_source',
      'backend_unavailable',
      'token_expired',
      'something_new',
    ]
    const mapped = codes.map((code) => {
      const reply = fixture.structured({ results: { hits: [], error: { code, source: 'kb' } } })
      return parseRawResults(reply, 's', ['kb']).sourceErrors[0]?.error.code
    })
    expect(mapped).toEqual([
      'unauthorized',
      'unauthorized',
      'rate_limited',
      'not_found',
      'server_error',
      'unauthorized',
      'server_error',
    ])
  })

  it('reads error codes from meta_data too', () => {
    const reply = fixture.structured({
      results: { hits: [{ id: 'h', resourceId: 'a', score: 1, title: 't' }] },
      meta_data: { errors: [{ code: 'backend_unavailable', resourceId: 'b' }] },
    })
    expect(parseRawResults(reply, 's', ['a', 'b']).sourceErrors).toEqual([
      { sourceId: 'b', error: expect.objectContaining({ code: 'server_error' }) },
    ])
  })
})

describe('rag-tools-v1 capability tokens', () => {
  const schema = { type: 'object', properties: { username: {}, query: {}, capability_token: {} } }

  it('sends each token in its own call and merges the results', async () => {
    const s = server(
      {
        rag_get_raw_results: (args: Record<string, unknown>) =>
          fixture.structured({
            results: {
              hits: (args.sources as string[]).map((source) => ({
                id: `${source}-1`,
                resourceId: source,
                score: 0.5,
                title: source,
              })),
            },
          }),
      },
      { rag_get_raw_results: schema },
    )
    const output = await ragToolsV1Adapter.search(
      s,
      { ...input, sources: ['handbook', 'legal'], capabilityTokens: { legal: 'cap-123' } },
      asUser(),
    )
    const calls = s.argsOf('rag_get_raw_results')
    expect(calls.map((args) => [args?.sources, args?.capability_token])).toEqual([
      [['handbook'], undefined],
      [['legal'], 'cap-123'],
    ])
    expect(output.hits.map((hit) => hit.id)).toEqual(['handbook-1', 'legal-1'])
    expect(output.raw).toHaveLength(2)
  })

  it('prefixes violation paths with the call they came from', async () => {
    const s = server(
      {
        rag_get_raw_results: (args: Record<string, unknown>) =>
          args.capability_token
            ? fixture.structured(fixture.broken.missingScore)
            : fixture.structured(fixture.specRaw),
      },
      { rag_get_raw_results: schema },
    )
    const output = await ragToolsV1Adapter.search(
      s,
      { ...input, sources: ['handbook', 'kb'], capabilityTokens: { kb: 't' } },
      asUser(),
    )
    expect(output.violations.map((v) => v.path)).toEqual([
      '[1].structuredContent.results.hits[0].score',
    ])
  })

  it('does not send tokens to a tool that does not declare them', async () => {
    const s = server({ rag_get_raw_results: fixture.structured(fixture.specRaw) })
    await ragToolsV1Adapter.search(s, { ...input, capabilityTokens: { handbook: 'x' } }, asUser())
    expect(s.argsOf('rag_get_raw_results')).toHaveLength(1)
    expect(s.argsOf('rag_get_raw_results')[0]).not.toHaveProperty('capability_token')
  })
})
