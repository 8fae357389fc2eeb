import { describe, expect, it } from 'vitest'
import { memoryMapping, memorySearchNodes } from '#test/fixtures/dialects/generic'
import { fillTemplate, genericAdapter, parseGenericResult, readPath, splitPath } from './generic'
import { RecordingSession, asUser, textResult } from '#test/support/dialects/recording-session'

const input = { query: 'leave', phrases: [], topK: 5, sources: [] }
const rules = (output: { violations: { rule: string }[] }) => output.violations.map((v) => v.rule)
const mapped = (tools: Record<string, unknown>, mapping = memoryMapping) =>
  new RecordingSession({ serverId: 'memory', tools, config: { dialect: { search: mapping } } })

describe('generic argument template', () => {
  it('replaces whole-string placeholders with typed values', () => {
    expect(
      fillTemplate(
        { q: '{query}', n: '{topK}', who: '{user}', nested: [{ k: '{topK}' }], keep: true },
        { query: 'pto', topK: 3, user: () => 'alice' },
      ),
    ).toEqual({ q: 'pto', n: 3, who: 'alice', nested: [{ k: 3 }], keep: true })
  })

  it('interpolates placeholders inside longer strings', () => {
    expect(
      fillTemplate('find {query} for {user} (top {topK})', {
        query: 'x',
        topK: 2,
        user: () => 'u',
      }),
    ).toBe('find x for u (top 2)')
  })

  it('sends the acting user for {user} and refuses without one', async () => {
    const mapping = { tool: 'find', arguments: { q: '{query}', as: '{user}' }, hits: 'items' }
    const s = mapped({ find: { structuredContent: { items: [] } } }, mapping)
    await genericAdapter.search(s, input, asUser())
    expect(s.argsOf('find')).toEqual([{ q: 'leave', as: 'alice@example.com' }])
    await expect(genericAdapter.search(s, input, { operation: 'search' })).rejects.toMatchObject({
      code: 'invalid_argument',
    })
  })

  it('defaults to { query } without a template', async () => {
    const s = mapped({ find: { structuredContent: [] } }, { tool: 'find' })
    await genericAdapter.search(s, input, asUser())
    expect(s.argsOf('find')).toEqual([{ query: 'leave' }])
  })
})

describe('generic paths', () => {
  it('splits dotted and bracketed paths', () => {
    expect(splitPath('data[0].hits.2.x')).toEqual(['data', 0, 'hits', 2, 'x'])
    expect(splitPath('')).toEqual([])
  })

  it('reads a value and the JSON path it sits at', () => {
    expect(readPath({ a: [{ b: 1 }] }, 'a[0].b', 'structuredContent')).toEqual({
      found: true,
      value: 1,
      path: 'structuredContent.a[0].b',
    })
    expect(readPath({ a: 1 }, 'a.b', '')).toMatchObject({ found: false, path: 'a.b' })
  })
})

describe('generic mapping of search_nodes', () => {
  it('maps server-memory entities to hits', async () => {
    const s = mapped({ search_nodes: memorySearchNodes })
    const output = await genericAdapter.search(s, input, asUser())
    expect(s.argsOf('search_nodes')).toEqual([{ query: 'leave' }])
    expect(output.violations).toEqual([])
    expect(
      output.hits.map(({ id, title, sourceId, text, snippet }) => ({
        id,
        title,
        sourceId,
        text,
        snippet,
      })),
    ).toEqual([
      {
        id: 'Leave policy',
        title: 'Leave policy',
        sourceId: 'policy',
        text: 'Employees accrue 25 days of leave per year.\nRequests go through HR.',
        snippet: 'Employees accrue 25 days of leave per year. Requests go through HR.',
      },
      {
        id: 'HR portal',
        title: 'HR portal',
        sourceId: 'system',
        text: 'Handles leave requests.',
        snippet: 'Handles leave requests.',
      },
    ])
    expect(output.hits[0]?.score).toBeUndefined()
  })

  it('reads the JSON text block when there is no structuredContent', () => {
    const output = parseGenericResult({ content: memorySearchNodes.content }, 'm', memoryMapping)
    expect(output.violations).toEqual([])
    expect(output.hits).toHaveLength(2)
  })
})

describe('generic mapping of a distance', () => {
  const reply = {
    structuredContent: {
      matches: [
        { id: 'b', distance: 0.42 },
        { id: 'a', distance: 0.08 },
        { id: 'c', distance: 0.91 },
        { id: 'd' },
      ],
    },
  }
  const mapping = {
    tool: 'query',
    hits: 'matches',
    fields: { score: 'distance' },
    scoreOrder: 'lower-is-better' as const,
  }

  it('orders the hits by the mapped score, smallest distance first, unscored last', () => {
    const output = parseGenericResult(reply, 'vec', mapping)
    expect(output.hits.map((hit) => [hit.id, hit.score, hit.scoreOrder])).toEqual([
      ['a', 0.08, 'lower-is-better'],
      ['b', 0.42, 'lower-is-better'],
      ['c', 0.91, 'lower-is-better'],
      ['d', undefined, 'lower-is-better'],
    ])
  })

  it('orders by the largest score first when the mapping says higher is better', () => {
    const output = parseGenericResult(reply, 'vec', { ...mapping, scoreOrder: 'higher-is-better' })
    expect(output.hits.map((hit) => hit.id)).toEqual(['c', 'b', 'a', 'd'])
  })

  it("keeps the server's order when the mapping says nothing about the score", () => {
    const { scoreOrder: _, ...unsaid } = mapping
    const output = parseGenericResult(reply, 'vec', unsaid)
    expect(output.hits.map((hit) => hit.id)).toEqual(['b', 'a', 'c', 'd'])
    expect(output.hits[0]!.scoreOrder).toBeUndefined()
  })
})

describe('generic violations', () => {
  it('reports a hit list path that is not there', () => {
    const output = parseGenericResult(memorySearchNodes, 'm', { ...memoryMapping, hits: 'nodes' })
    expect(output.violations).toEqual([
      expect.objectContaining({ rule: 'missing_field', path: 'structuredContent.nodes' }),
    ])
  })

  it('reports a hit list that is not an array', () => {
    const output = parseGenericResult(memorySearchNodes, 'm', {
      ...memoryMapping,
      hits: 'entities[0]',
    })
    expect(rules(output)).toEqual(['wrong_type'])
  })

  it('reports a mapped field that is missing', () => {
    const output = parseGenericResult(memorySearchNodes, 'm', {
      ...memoryMapping,
      fields: { ...memoryMapping.fields, uri: 'link' },
    })
    expect(output.violations.map((v) => v.path)).toEqual([
      'structuredContent.entities[0].link',
      'structuredContent.entities[1].link',
    ])
  })

  it('reports a mapped score that is not a number', () => {
    const output = parseGenericResult(memorySearchNodes, 'm', {
      ...memoryMapping,
      fields: { ...memoryMapping.fields, score: 'entityType' },
    })
    expect(output.violations[0]).toMatchObject({ rule: 'score_not_number', value: 'policy' })
  })

  it('reports a text that does not parse', () => {
    expect(rules(parseGenericResult(textResult('plain words'), 'm', memoryMapping))).toEqual([
      'unparsable_json',
      'missing_field',
    ])
  })

  it('is a config error without a mapping', async () => {
    const s = new RecordingSession({ tools: { find: {} }, config: { dialect: 'generic' } })
    await expect(genericAdapter.search(s, input, asUser())).rejects.toMatchObject({
      code: 'config',
      message: expect.stringMatching(/needs a mapping/),
    })
  })
})
