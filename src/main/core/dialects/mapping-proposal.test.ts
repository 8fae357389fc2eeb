import { describe, expect, it } from 'vitest'
import {
  memorySearchNodes,
  uikitSearchDocs,
  vectorQuery,
  voltagentSearchDocs,
} from '#test/fixtures/dialects/generic'
import { argumentTemplate, previewMapping, proposeMapping } from './mapping-proposal'

const call = (tool: string, args: Record<string, unknown> = { query: 'memory' }) => ({
  tool,
  arguments: args,
  queryArgument: 'query',
})

describe('a mapping proposed from a real reply', () => {
  it('maps a JSON text reply of results with filepath and excerpt', () => {
    const proposal = proposeMapping(voltagentSearchDocs, call('search_voltagent_docs'))
    expect(proposal.problem).toBeUndefined()
    expect(proposal.root).toBe('content[0].text')
    expect(proposal.mapping).toEqual({
      tool: 'search_voltagent_docs',
      arguments: { query: '{query}' },
      hits: 'results',
      fields: {
        id: 'filepath',
        title: 'title',
        snippet: 'excerpt',
        uri: 'filepath',
        sourceId: 'section',
      },
    })
    expect(proposal.candidates.map((c) => [c.path, c.items])).toEqual([['results', 2]])
    expect(proposal.fields.map((f) => [f.path, f.kind])).toEqual([
      ['filepath', 'string'],
      ['title', 'string'],
      ['excerpt', 'string'],
      ['section', 'string'],
    ])
  })

  it('maps structuredContent results whose link is a resource URI several hits share', () => {
    const proposal = proposeMapping(uikitSearchDocs, call('search_docs', { query: 'button' }))
    expect(proposal.root).toBe('structuredContent')
    // Not the id: two sections of one page share it (the link stands in as the id).
    expect(proposal.mapping).toMatchObject({
      hits: 'results',
      fields: { title: 'title', snippet: 'summary', uri: 'resource', sourceId: 'section' },
    })
    expect(proposal.mapping.fields).not.toHaveProperty('id')
    expect(previewMapping(uikitSearchDocs, 'uikit', proposal.mapping).violations).toEqual([])
  })

  it('picks the entities of a knowledge graph over its relations', () => {
    const proposal = proposeMapping(memorySearchNodes, call('search_nodes', { query: 'leave' }))
    expect(proposal.candidates.map((c) => c.path)).toEqual(['entities', 'relations'])
    expect(proposal.mapping).toMatchObject({
      hits: 'entities',
      fields: { id: 'name', title: 'name', text: 'observations' },
    })
  })

  it('finds nested fields and reads a distance as lower-is-better', () => {
    const proposal = proposeMapping(vectorQuery, call('query', { query: 'leave', top_k: 5 }))
    expect(proposal.mapping).toEqual({
      tool: 'query',
      arguments: { query: '{query}', top_k: '{topK}' },
      hits: 'matches',
      fields: {
        id: 'chunk_id',
        title: 'metadata.title',
        text: 'page_content',
        uri: 'metadata.source_url',
        score: 'distance',
      },
      scoreOrder: 'lower-is-better',
    })
    expect(proposal.notes).toContain('`distance` looks like a distance: lower is better')
  })

  it('reads a score that grows down the list as a distance, and says to check it', () => {
    const reply = {
      structuredContent: {
        hits: [
          { id: 'a', score: 0.1 },
          { id: 'b', score: 0.6 },
        ],
      },
    }
    const proposal = proposeMapping(reply, call('find'))
    expect(proposal.mapping.scoreOrder).toBe('lower-is-better')
    expect(proposal.notes.join(' ')).toMatch(/grows down the list/)
    const falling = {
      structuredContent: {
        hits: [
          { id: 'a', score: 9 },
          { id: 'b', score: 2 },
        ],
      },
    }
    expect(proposeMapping(falling, call('find')).mapping.scoreOrder).toBe('higher-is-better')
  })

  it("proposes the reply's error slot as the mapping's error path", () => {
    const reply = { structuredContent: { error: null, items: [{ id: 'a', text: 'x' }] } }
    expect(proposeMapping(reply, call('find')).mapping).toMatchObject({
      hits: 'items',
      error: 'error',
    })
  })

  it("keeps the admin's choices and guesses the rest for the chosen list", () => {
    const proposal = proposeMapping(memorySearchNodes, call('search_nodes'), {
      hits: 'relations',
      fields: { title: 'relationType', id: null },
    })
    expect(proposal.mapping.hits).toBe('relations')
    expect(proposal.mapping.fields).toEqual({ title: 'relationType' })
    expect(proposal.roles).toEqual({ title: 'chosen', id: 'chosen' })
    expect(proposal.fields.map((f) => f.path)).toEqual(['from', 'to', 'relationType'])
  })

  it('takes a root that is itself the list', () => {
    const reply = {
      content: [{ type: 'text', text: '[{"url":"https://a.example/x","content":"A"}]' }],
    }
    expect(proposeMapping(reply, call('find')).mapping).toMatchObject({
      hits: '',
      fields: { id: 'url', text: 'content', uri: 'url' },
    })
  })
})

describe('replies a mapping cannot be made from', () => {
  it('says so for plain text', () => {
    const proposal = proposeMapping(
      { content: [{ type: 'text', text: '1. Button (uikit-doc://components/button)' }] },
      call('search_docs'),
    )
    expect(proposal.problem).toMatch(/plain text, not JSON/)
    expect(proposal.mapping).toEqual({ tool: 'search_docs', arguments: { query: '{query}' } })
  })

  it('says so for an error result', () => {
    const proposal = proposeMapping(
      { isError: true, content: [{ type: 'text', text: 'boom' }] },
      call('search_docs'),
    )
    expect(proposal.problem).toMatch(/answered with an error/)
  })

  it('says so for JSON without a list of objects, and for a chosen path that holds none', () => {
    const words = { structuredContent: { words: ['a', 'b'], count: 2 } }
    expect(proposeMapping(words, call('find')).problem).toMatch(/no list of objects/)
    expect(proposeMapping(memorySearchNodes, call('find'), { hits: 'nope' }).problem).toBe(
      'there is no list of objects at `nope`',
    )
  })
})

describe('argument template', () => {
  it('turns the query and a result count into placeholders and keeps the rest', () => {
    expect(
      argumentTemplate({
        tool: 't',
        arguments: { q: 'leave', maxResults: 3, library: 'react', exact: true },
        queryArgument: 'q',
      }),
    ).toEqual({ template: { q: '{query}', maxResults: '{topK}', library: 'react', exact: true } })
  })

  it('says where the query goes when no argument is known to take it', () => {
    const result = argumentTemplate({ tool: 't', arguments: { pattern: 'x' } })
    expect(result.template).toEqual({ pattern: 'x' })
    expect(result.note).toMatch(/no argument of t is known to take the query/)
  })
})

describe('mapping preview', () => {
  it('normalizes the hits as a search through the mapping would', () => {
    const { mapping } = proposeMapping(vectorQuery, call('query'))
    const preview = previewMapping(vectorQuery, 'vec', mapping)
    expect(preview.count).toBe(2)
    expect(preview.violations).toEqual([])
    expect(preview.hits[0]).toMatchObject({
      server: 'vec',
      id: 'hb-12',
      title: 'Handbook',
      uri: 'https://intranet.example/handbook#leave',
      score: 0.18,
      scoreOrder: 'lower-is-better',
    })
    expect(preview.hits[0]).not.toHaveProperty('raw')
  })

  it('reports what a wrong field choice breaks', () => {
    const preview = previewMapping(voltagentSearchDocs, 'docs', {
      tool: 'search_voltagent_docs',
      hits: 'results',
      fields: { score: 'title' },
    })
    expect(preview.violations.map((v) => v.rule)).toEqual(['score_not_number', 'score_not_number'])
  })
})
