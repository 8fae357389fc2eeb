import { describe, expect, it } from 'vitest'
import { ConsoleError } from '#shared/errors'
import * as fixture from '#test/fixtures/dialects/rag-search'
import {
  parseAccessResult,
  parseRagSearchResult,
  ragSearchAdapter,
  searchPhrases,
} from './rag-search'
import { RecordingSession, asUser, rpcError } from '#test/support/dialects/recording-session'

const input = { query: 'key features?', phrases: [], topK: 8, sources: [] }
const session = (reply: unknown, extraTools: string[] = []) =>
  new RecordingSession({
    serverId: 'mindset',
    tools: { rag_search: reply },
    toolList: [{ name: 'rag_search' }, ...extraTools.map((name) => ({ name }))],
  })
const rules = (output: { violations: { rule: string }[] }) => output.violations.map((v) => v.rule)

describe('rag-search phrases', () => {
  it('sends the exact query as phrase 0 and the extra phrases after it', async () => {
    const s = session(fixture.specEmpty)
    await ragSearchAdapter.search(
      s,
      { ...input, query: '  key features?', phrases: ['Product X capabilities', 'Product X docs'] },
      asUser(),
    )
    expect(s.argsOf('rag_search')).toEqual([
      { search_phrases: ['  key features?', 'Product X capabilities', 'Product X docs'] },
    ])
  })

  it('caps the phrases at five and drops blanks and repeats of the query', () => {
    expect(
      searchPhrases({ query: 'q', phrases: ['q', ' ', 'a', 'b', 'a', 'c', 'd', 'e'] }),
    ).toEqual(['q', 'a', 'b', 'c', 'd'])
  })

  it('passes the acting user to the pool in the call options (it sets the headers)', async () => {
    const s = session(fixture.specEmpty)
    await ragSearchAdapter.search(s, input, asUser())
    expect(s.calls[0]?.options.user?.userId).toBe('alice@example.com')
    expect(Object.keys(s.calls[0]?.params ?? {})).toEqual(['search_phrases'])
  })
})

describe('rag-search replies', () => {
  it('maps the spec example segment by segment', async () => {
    const output = await ragSearchAdapter.search(session(fixture.specResponse), input, asUser())
    expect(output.violations).toEqual([])
    expect(output.hits).toHaveLength(2)
    expect(output.hits[0]).toMatchObject({
      server: 'mindset',
      id: 'unique-segment-id-123',
      fileName: 'product_manual.pdf',
      fileType: 'pdf',
      title: 'Product X Advanced Features',
      summary:
        'This section covers advanced features including multi-core processing, GPU acceleration, and AI-powered workflows.',
      text: 'The actual text content from the document segment...',
      uri: 'https://docs.example.com/product_manual.pdf',
      snippet: 'The actual text content from the document segment...',
      derived: { title: false, summary: false },
      flags: [],
    })
    expect(output.hits[0]?.score).toBeUndefined()
    expect(output.hits[1]?.raw).toEqual(fixture.specResponse.segments[1])
  })

  it('reads an empty result as no hits and no violations', () => {
    expect(parseRagSearchResult(fixture.specEmpty, 's')).toMatchObject({ hits: [], violations: [] })
  })

  it('derives headline and summary from raw_text when omitted and marks them', () => {
    const [hit] = parseRagSearchResult(fixture.minimal, 's').hits
    expect(hit).toMatchObject({
      title: 'Employees accrue 25 days of paid leave per year',
      summary: 'Leave requests go through the HR portal. Managers approve within two working days.',
      derived: { title: true, summary: true },
      flags: ['derived_title', 'derived_summary'],
    })
  })

  it('keeps the whole reply as raw', () => {
    expect(parseRagSearchResult(fixture.specResponse, 's').raw).toBe(fixture.specResponse)
  })
})

describe('rag-search violations', () => {
  it('reports a missing required field with its path and flags the hit', () => {
    const output = parseRagSearchResult(fixture.broken.missingRawText, 's')
    expect(output.violations).toEqual([
      {
        rule: 'missing_field',
        path: 'segments[0].raw_text',
        message: 'required field `raw_text` is missing',
      },
    ])
    expect(output.hits[0]?.flags).toContain('violations')
    expect(output.hits[0]?.violations).toEqual(output.violations)
  })

  it('reports a wrong type with the offending value', () => {
    const output = parseRagSearchResult(fixture.broken.wrongType, 's')
    expect(output.violations).toContainEqual(
      expect.objectContaining({ rule: 'wrong_type', path: 'segments[0].segment_uid', value: 42 }),
    )
  })

  it('reports more than 20 segments and keeps them all', () => {
    const output = parseRagSearchResult(fixture.broken.tooManySegments, 's')
    expect(rules(output)).toEqual(['too_many_segments'])
    expect(output.violations[0]).toMatchObject({ path: 'segments', value: 21 })
    expect(output.hits).toHaveLength(21)
  })

  it('reports a headline over ten words and still uses it', () => {
    const output = parseRagSearchResult(fixture.broken.longHeadline, 's')
    expect(rules(output)).toEqual(['headline_too_long'])
    expect(output.violations[0]?.path).toBe('segments[0].headline')
    expect(output.hits[0]?.title).toMatch(/^This headline/)
  })

  it('reports a score that is not a number and keeps none', () => {
    const output = parseRagSearchResult(fixture.broken.scoreNotNumber, 's')
    expect(output.violations[0]).toMatchObject({ rule: 'score_not_number', value: 'high' })
    expect(output.hits[0]?.score).toBeUndefined()
  })

  it('reports duplicate segment ids', () => {
    const output = parseRagSearchResult(fixture.broken.duplicateIds, 's')
    expect(output.violations).toEqual([
      expect.objectContaining({ rule: 'duplicate_id', path: 'segments[1].segment_uid' }),
    ])
  })

  it('reports a status other than success', () => {
    expect(rules(parseRagSearchResult(fixture.broken.unknownStatus, 's'))).toEqual([
      'unknown_status',
    ])
  })

  it('keeps the hits of a reply whose status is not success, without failing it', () => {
    const output = parseRagSearchResult(fixture.broken.unknownStatus, 's')
    expect(output.failure).toBeUndefined()
    expect(output.hits).toHaveLength(1)
  })

  it('fails a reply that is nothing but an error status, as a refusal when it says so', () => {
    const refused = { content: [], status: 'error', segments: [], error: 'Unauthorized user' }
    expect(parseRagSearchResult(refused, 's').failure).toMatchObject({
      code: 'unauthorized',
      origin: 'server',
      server: 's',
      message: expect.stringMatching(
        /^server s answered rag_search with status "error": Unauthorized user;/,
      ),
      details: { status: 'error', serverMessage: 'Unauthorized user' },
    })
    const broken = { content: [], status: 'failed' }
    expect(parseRagSearchResult(broken, 's').failure).toMatchObject({ code: 'server_error' })
  })

  it('reports segments that are not an array', () => {
    const output = parseRagSearchResult(fixture.broken.segmentsNotArray, 's')
    expect(output.violations).toEqual([
      expect.objectContaining({ rule: 'wrong_type', path: 'segments' }),
    ])
    expect(output.hits).toEqual([])
  })

  it('reports a reply without segments', () => {
    expect(rules(parseRagSearchResult(fixture.broken.noSegments, 's'))).toEqual([
      'missing_field',
      'missing_field',
    ])
  })

  it('reads segments wrapped in a text block but reports the envelope', () => {
    const output = parseRagSearchResult(fixture.broken.wrappedInText, 's')
    expect(rules(output)).toEqual(['unexpected_envelope'])
    expect(output.hits.map((hit) => hit.id)).toEqual(['seg-1'])
  })
})

describe('rag-search failures', () => {
  it('passes a JSON-RPC error from the server through unchanged', async () => {
    const error = rpcError('mindset', -32603, 'RAG search failed: Database connection timeout')
    await expect(ragSearchAdapter.search(session(error), input, asUser())).rejects.toBe(error)
  })

  it('turns an isError result into a tool_error with the server text', async () => {
    const reply = { isError: true, content: [{ type: 'text', text: 'index offline' }] }
    const failure = ragSearchAdapter.search(session(reply), input, asUser())
    await expect(failure).rejects.toBeInstanceOf(ConsoleError)
    await expect(failure).rejects.toMatchObject({ code: 'tool_error', message: /index offline/ })
  })
})

describe('rag-search verify_document_access', () => {
  it('maps a granted access with its refreshed URL', async () => {
    const s = new RecordingSession({
      tools: { rag_search: fixture.specEmpty, verify_document_access: fixture.specAccessGranted },
    })
    const access = await ragSearchAdapter.verifyAccess?.(s, 'unique-segment-id-123', asUser())
    expect(s.argsOf('verify_document_access')).toEqual([{ segment_uid: 'unique-segment-id-123' }])
    expect(access).toEqual({
      server: 'test',
      segmentId: 'unique-segment-id-123',
      hasAccess: true,
      refreshedUrl: 'https://docs.example.com/product_manual.pdf?token=new_token_xyz&expires=...',
      accessLevel: 'view',
      checked: true,
      violations: [],
    })
  })

  it('maps a denial with the server reason and a null URL', () => {
    expect(parseAccessResult(fixture.specAccessDenied, 's', 'seg')).toEqual({
      server: 's',
      segmentId: 'seg',
      hasAccess: false,
      error: 'Document has been deleted',
      checked: true,
      violations: [],
    })
  })

  it('reports a non-boolean has_access and leaves the verdict unknown', () => {
    const access = parseAccessResult(fixture.broken.accessNotBoolean, 's', 'seg')
    expect(access.hasAccess).toBeNull()
    expect(access.violations).toEqual([
      expect.objectContaining({ rule: 'wrong_type', path: 'has_access', value: 'yes' }),
    ])
  })

  it('does not call a server that lacks the tool', async () => {
    const s = session(fixture.specEmpty)
    const access = await ragSearchAdapter.verifyAccess?.(s, 'seg', asUser())
    expect(access).toMatchObject({ hasAccess: null, checked: false })
    expect(s.calls).toEqual([])
  })

  it('declares verify only when the tool is listed', () => {
    expect(ragSearchAdapter.capabilities([{ name: 'rag_search' }]).verify).toBe(false)
    expect(
      ragSearchAdapter.capabilities([{ name: 'rag_search' }, { name: 'verify_document_access' }])
        .verify,
    ).toBe(true)
  })
})
