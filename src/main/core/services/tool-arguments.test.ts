import { describe, expect, it } from 'vitest'
import { ArgumentValidator } from './tool-arguments'

const validator = new ArgumentValidator()

describe('ArgumentValidator', () => {
  it('reports missing required fields, wrong types and enums by JSON pointer', () => {
    const schema = {
      type: 'object',
      properties: {
        query: { type: 'string' },
        limit: { type: 'integer', minimum: 1 },
        mode: { enum: ['fast', 'deep'] },
      },
      required: ['query'],
    }
    expect(validator.check(schema, { limit: 0, mode: 'slow' })).toEqual(
      expect.arrayContaining([
        { path: '/query', message: 'is required' },
        { path: '/limit', message: 'must be >= 1' },
        { path: '/mode', message: 'must be one of "fast", "deep"' },
      ]),
    )
  })

  it('checks nested objects and arrays, and accepts nullable fields given as null', () => {
    const schema = {
      type: 'object',
      properties: {
        filters: {
          type: 'object',
          properties: { tags: { type: 'array', items: { type: 'string' }, maxItems: 2 } },
          additionalProperties: false,
        },
        author: { type: ['string', 'null'] },
      },
    }
    expect(validator.check(schema, { filters: { tags: ['a', 'b'] }, author: null })).toEqual([])
    expect(validator.check(schema, { filters: { tags: ['a', 3], extra: 1 } })).toEqual(
      expect.arrayContaining([
        { path: '/filters/tags/1', message: 'must be string' },
        { path: '/filters/extra', message: 'is not a parameter of this tool' },
      ]),
    )
  })

  it('takes draft 2020-12 schemas with formats, $defs and $ref', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'urn:tool',
      type: 'object',
      $defs: { when: { type: 'string', format: 'date' } },
      properties: { since: { $ref: '#/$defs/when' } },
    }
    expect(validator.check(schema, { since: '2026-01-31' })).toEqual([])
    expect(validator.check(schema, { since: 'yesterday' })).toEqual([
      { path: '/since', message: 'must match format "date"' },
    ])
  })

  it('reports a schema it cannot use instead of throwing', () => {
    expect(
      validator.check({ type: 'object', properties: { a: { $ref: '#/nowhere' } } }, {}),
    ).toEqual([
      { path: '', message: expect.stringMatching(/^the tool's input schema cannot be used: /) },
    ])
    expect(validator.check('not a schema', {})).toHaveLength(1)
  })

  it('accepts anything when the tool has no schema', () => {
    expect(validator.check(undefined, { any: 'thing' })).toEqual([])
  })
})
