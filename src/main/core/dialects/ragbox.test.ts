import { describe, expect, it } from 'vitest'
import { ConsoleError } from '#shared/errors'
import * as fixture from '#test/fixtures/dialects/ragbox'
import {
  LIST_MAX_PAGES,
  mapRagboxError,
  parseRagboxAnswer,
  parseRagboxDocument,
  parseRagboxList,
  parseRagboxSearch,
  ragboxAdapter,
} from './ragbox'
import {
  RecordingSession,
  asUser,
  rpcError,
  type Reply,
} from '#test/support/dialects/recording-session'

const input = { query: 'cancellation policy', phrases: [], topK: 3, sources: [] }
const rules = (output: { violations: { rule: string }[] }) => output.violations.map((v) => v.rule)
const vault = (tools: Record<string, Reply>) => new RecordingSession({ serverId: 'ragbox', tools })

describe('ragbox search_documents', () => {
  it('sends query and limit and maps the spec example', async () => {
    const s = vault({ search_documents: fixture.specSearch })
    const output = await ragboxAdapter.search(s, input, asUser())
    expect(s.argsOf('search_documents')).toEqual([{ query: 'cancellation policy', limit: 3 }])
    expect(output.violations).toEqual([])
    expect(output.hits).toEqual([
      expect.objectContaining({
        server: 'ragbox',
        id: 'doc_abc123',
        sourceId: 'doc_abc123',
        title: 'Office Policies v2.3',
        score: 0.94,
        snippet: '24-hour cancellation policy applies to all appointments...',
        provenance: { security_tier: 'standard' },
      }),
    ])
  })

  it('clamps the limit to the documented 1–20', async () => {
    const s = vault({ search_documents: fixture.specSearch })
    await ragboxAdapter.search(s, { ...input, topK: 50 }, asUser())
    expect(s.argsOf('search_documents')[0]?.limit).toBe(20)
  })

  it('passes privilege_mode only when the filters ask for it', async () => {
    const s = vault({ search_documents: fixture.specSearch })
    await ragboxAdapter.search(s, { ...input, filters: { privilege_mode: true } }, asUser())
    expect(s.argsOf('search_documents')[0]?.privilege_mode).toBe(true)
  })

  it('keeps only hits from the selected documents', async () => {
    const s = vault({ search_documents: fixture.specSearch })
    const output = await ragboxAdapter.search(s, { ...input, sources: ['doc_other'] }, asUser())
    expect(output.hits).toEqual([])
  })

  it('fills in title and snippet for a minimal hit', () => {
    const output = parseRagboxSearch(fixture.minimalSearch, 's')
    expect(rules(output)).toEqual(['missing_field', 'missing_field'])
    expect(output.hits[0]).toMatchObject({
      id: 'doc_1',
      title: 'doc_1',
      snippet: 'doc_1',
      score: 0.5,
    })
  })
})

describe('ragbox reply violations', () => {
  it('reports text that is not JSON', () => {
    const output = parseRagboxSearch(fixture.broken.unparsable, 's')
    expect(output.violations).toEqual([
      expect.objectContaining({
        rule: 'unparsable_json',
        path: 'content[0].text',
        value: 'Unauthorized: invalid API key',
      }),
    ])
  })

  it('reports a reply without a text block', () => {
    expect(rules(parseRagboxSearch(fixture.broken.noContent, 's'))).toEqual(['missing_content'])
  })

  it('reports an object where an array belongs', () => {
    expect(rules(parseRagboxSearch(fixture.broken.notArray, 's'))).toEqual(['unexpected_envelope'])
  })

  it('reads a list wrapped in an object and reports the envelope', () => {
    const output = parseRagboxSearch(fixture.broken.wrappedList, 's')
    expect(rules(output)).toEqual(['unexpected_envelope'])
    expect(output.hits.map((hit) => hit.id)).toEqual(['doc_1'])
  })

  it('reports a relevance that is not a number', () => {
    const output = parseRagboxSearch(fixture.broken.relevanceString, 's')
    expect(output.violations[0]).toMatchObject({
      rule: 'score_not_number',
      path: 'content[0].text[0].relevance',
      value: 'high',
    })
  })

  it('reports a hit without id', () => {
    expect(parseRagboxSearch(fixture.broken.missingId, 's').violations[0]).toMatchObject({
      rule: 'missing_field',
      path: 'content[0].text[0].id',
    })
  })
})

describe('ragbox query_knowledge', () => {
  it('maps a confident answer with its sources as citations', async () => {
    const s = vault({ query_knowledge: fixture.specAnswer })
    const answer = await ragboxAdapter.synthesize?.(
      s,
      { query: 'What is the cancellation fee?', topK: 5, sources: [] },
      asUser(),
    )
    expect(s.argsOf('query_knowledge')).toEqual([{ query: 'What is the cancellation fee?' }])
    expect(answer).toMatchObject({
      server: 'ragbox',
      mode: 'server',
      text: 'The cancellation fee is $50 for appointments cancelled less than 24 hours in advance.',
      confidence: 0.92,
      citations: [
        {
          n: 1,
          server: 'ragbox',
          title: 'Office Policies v2.3',
          snippet: '4.1 Cancellation Policy, page 4',
        },
      ],
      violations: [],
    })
    expect(answer?.silence).toBeUndefined()
  })

  it('maps the Silence Protocol to a silence with its reason', () => {
    const answer = parseRagboxAnswer(fixture.specSilence, 's')
    expect(answer).toMatchObject({
      text: '',
      confidence: 0.31,
      silence: { reason: 'No documents in the vault contain information about this topic.' },
      citations: [],
      violations: [],
    })
  })

  it('reports a silence without a reason', () => {
    const answer = parseRagboxAnswer(fixture.broken.silenceWithoutReason, 's')
    expect(answer.silence).toEqual({ reason: 'the server gave no reason' })
    expect(answer.violations).toEqual([
      expect.objectContaining({ rule: 'missing_field', path: 'content[0].text.silence_reason' }),
    ])
  })

  it('reports a silence that still carries an answer', () => {
    expect(rules(parseRagboxAnswer(fixture.broken.silenceWithAnswer, 's'))).toEqual([
      'invalid_value',
    ])
  })

  it('reports a confidence outside 0..1', () => {
    expect(rules(parseRagboxAnswer(fixture.broken.confidenceOutOfRange, 's'))).toEqual([
      'invalid_value',
    ])
  })

  it('reports an answer that is not an object', () => {
    expect(rules(parseRagboxAnswer(fixture.broken.answerNotObject, 's'))).toEqual(['wrong_type'])
  })
})

describe('ragbox list_documents discovery', () => {
  it('makes each document a data source', async () => {
    const s = vault({ list_documents: fixture.listDocuments })
    const output = await ragboxAdapter.discover(s, asUser())
    expect(s.argsOf('list_documents')).toEqual([{ limit: 100, offset: 0 }])
    expect(output.violations).toEqual([])
    expect(output.resources).toEqual([
      {
        server: 'ragbox',
        id: 'doc_abc123',
        name: 'Office Policies v2.3',
        description: 'office-policies.pdf',
        sourceType: 'document',
        authRequired: true,
        authMode: 'api_key',
        groups: [],
        scopes: ['standard'],
        counts: { chunks: 34 },
        defaultSelected: true,
      },
      expect.objectContaining({
        id: 'doc_def456',
        name: 'fees-2026.xlsx',
        scopes: ['confidential'],
      }),
    ])
  })

  it('pages through a large vault and stops at the page bound', async () => {
    const page = (offset: number) => ({
      content: [
        {
          type: 'text',
          text: JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ id: `d${offset + i}` }))),
        },
      ],
    })
    const s = vault({
      list_documents: (args: Record<string, unknown>) => page(args.offset as number),
    })
    const output = await ragboxAdapter.discover(s, asUser())
    expect(s.argsOf('list_documents')).toHaveLength(LIST_MAX_PAGES)
    expect(output.resources).toHaveLength(100 * LIST_MAX_PAGES)
  })

  it('reports a page that is not a list', () => {
    expect(rules(parseRagboxList(fixture.broken.notArray, 's'))).toEqual(['unexpected_envelope'])
  })
})

describe('ragbox get_document', () => {
  it('reads a document with its content as one hit', async () => {
    const s = vault({ get_document: fixture.documentWithContent })
    const output = await ragboxAdapter.read?.(s, 'doc_abc123', asUser())
    expect(s.argsOf('get_document')).toEqual([{ document_id: 'doc_abc123', include_content: true }])
    expect(output?.hits[0]).toMatchObject({
      id: 'doc_abc123',
      title: 'Office Policies v2.3',
      fileName: 'office-policies.pdf',
      timestamp: '2026-02-15T10:30:00Z',
      summary:
        'A 24-hour cancellation policy applies to all appointments. Late cancellations cost $50.',
      derived: { title: false, summary: true },
    })
  })

  it('maps the spec metadata-only example', () => {
    const output = parseRagboxDocument(fixture.specGetDocument, 's')
    expect(output.violations).toEqual([])
    expect(output.hits[0]).toMatchObject({
      id: 'doc_abc123',
      provenance: {
        security_tier: 'standard',
        pages: 12,
        chunks: 34,
        size_bytes: 245760,
        indexed: true,
      },
    })
  })
})

describe('ragbox errors', () => {
  it('maps -32000 sent by the server to unauthorized with the next step', async () => {
    const s = vault({ search_documents: rpcError('ragbox', -32000, 'Unauthorized') })
    await expect(ragboxAdapter.search(s, input, asUser())).rejects.toMatchObject({
      code: 'unauthorized',
      origin: 'server',
      message: expect.stringMatching(/X-API-Key/),
      details: expect.objectContaining({ code: -32000, serverMessage: 'Unauthorized' }),
    })
  })

  it('maps -32001 sent by the server to rate_limited', async () => {
    const s = vault({ query_knowledge: rpcError('ragbox', -32001, 'Rate limited') })
    await expect(
      ragboxAdapter.synthesize?.(s, { query: 'q', topK: 5, sources: [] }, asUser()),
    ).rejects.toMatchObject({ code: 'rate_limited', origin: 'server' })
  })

  it("leaves the SDK's own -32001 timeout alone", () => {
    const local = new ConsoleError({
      code: 'timeout',
      origin: 'local',
      message: 'Request timed out',
      details: { code: -32001 },
    })
    expect(mapRagboxError(local, 'ragbox')).toBe(local)
  })

  it('leaves other server codes alone', () => {
    const error = rpcError('ragbox', -32002, 'Internal error')
    expect(mapRagboxError(error, 'ragbox')).toBe(error)
  })
})
