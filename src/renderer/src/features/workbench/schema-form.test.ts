import { describe, expect, it } from 'vitest'
import {
  argumentsOf,
  collect,
  draftOf,
  emptyDraft,
  formOf,
  withoutFields,
  type Draft,
  type FormNode,
} from './schema-form'

const fieldsOf = (form: FormNode): FormNode[] => (form.kind === 'object' ? form.fields : [])
const field = (form: FormNode, name: string): FormNode => {
  const found = fieldsOf(form).find((f) => f.name === name)
  if (!found) throw new Error(`no field ${name}`)
  return found
}
const text = (value: string): Draft => ({ t: 'text', text: value })

describe('formOf', () => {
  it('marks the required properties and keeps the optional ones', () => {
    const form = formOf({
      type: 'object',
      properties: { query: { type: 'string' }, limit: { type: 'integer' } },
      required: ['query'],
    })
    expect(fieldsOf(form).map((f) => [f.name, f.kind, f.required])).toEqual([
      ['query', 'string', true],
      ['limit', 'integer', false],
    ])
  })

  it('turns an enum into a choice and a nullable enum into a choice that allows null', () => {
    const form = formOf({
      type: 'object',
      properties: {
        level: { type: 'string', enum: ['low', 'high'] },
        mode: { enum: ['a', null] },
      },
    })
    expect(field(form, 'level')).toMatchObject({
      kind: 'enum',
      options: ['low', 'high'],
      nullable: false,
    })
    expect(field(form, 'mode')).toMatchObject({ kind: 'enum', options: ['a'], nullable: true })
  })

  it('reads nullable from a type list, from nullable: true and from anyOf with null', () => {
    const form = formOf({
      type: 'object',
      properties: {
        a: { type: ['string', 'null'] },
        b: { type: 'number', nullable: true },
        c: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
      },
    })
    expect(fieldsOf(form).map((f) => [f.kind, f.nullable])).toEqual([
      ['string', true],
      ['number', true],
      ['integer', true],
    ])
  })

  it('falls back to JSON for a oneOf or anyOf of several shapes', () => {
    const form = formOf({
      type: 'object',
      properties: {
        filter: {
          oneOf: [{ type: 'string' }, { type: 'object', properties: { x: { type: 'string' } } }],
        },
        either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      },
    })
    expect(field(form, 'filter').kind).toBe('json')
    expect(field(form, 'either').kind).toBe('json')
  })

  it('follows $ref into $defs and definitions, and stops on a cycle', () => {
    const form = formOf({
      type: 'object',
      $defs: { tag: { type: 'string', enum: ['x', 'y'] } },
      definitions: {
        node: { type: 'object', properties: { child: { $ref: '#/definitions/node' } } },
      },
      properties: { tag: { $ref: '#/$defs/tag' }, tree: { $ref: '#/definitions/node' } },
    })
    expect(field(form, 'tag')).toMatchObject({ kind: 'enum', options: ['x', 'y'] })
    let depth = 0
    let current = field(form, 'tree')
    while (current.kind === 'object') {
      current = field(current, 'child')
      depth++
    }
    expect(current.kind).toBe('json')
    expect(depth).toBeGreaterThan(3)
  })

  it('builds nested objects and arrays of objects', () => {
    const form = formOf({
      type: 'object',
      properties: {
        filters: {
          type: 'object',
          properties: { tags: { type: 'array', items: { type: 'string' }, minItems: 1 } },
          required: ['tags'],
        },
        sources: {
          type: 'array',
          items: { type: 'object', properties: { id: { type: 'string' } } },
        },
      },
    })
    const tags = field(field(form, 'filters'), 'tags')
    expect(tags).toMatchObject({
      kind: 'array',
      minItems: 1,
      required: true,
      items: { kind: 'string' },
    })
    expect(field(form, 'sources')).toMatchObject({ kind: 'array', items: { kind: 'object' } })
  })

  it('treats a schema with properties but no type as an object and an array without items as JSON', () => {
    const form = formOf({ properties: { list: { type: 'array' } } })
    expect(form.kind).toBe('object')
    expect(field(form, 'list').kind).toBe('json')
  })
})

describe('drafts and collect', () => {
  const schema = {
    type: 'object',
    properties: {
      query: { type: 'string' },
      top_k: { type: 'integer', default: 5 },
      exact: { type: 'boolean' },
      ranking: { type: 'string', enum: ['bm25', 'dense'], default: 'dense' },
      tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
      note: { type: ['string', 'null'] },
      extra: { oneOf: [{ type: 'string' }, { type: 'number' }] },
    },
    required: ['query', 'tags'],
  }
  const form = formOf(schema)

  it('starts from the defaults and the minimum number of items', () => {
    const { args, problems } = argumentsOf(form, emptyDraft(form))
    expect(args).toEqual({ top_k: 5, ranking: 'dense', tags: [undefined] })
    expect(problems).toEqual([
      { path: '/query', message: 'is required' },
      { path: '/tags/0', message: 'is required' },
    ])
  })

  it('leaves optional empty fields out and sends explicit nulls', () => {
    const draft = draftOf(form, { query: 'vpn', tags: ['it'], note: null })
    const { args, problems } = argumentsOf(form, draft)
    expect(problems).toEqual([])
    expect(args).toEqual({ query: 'vpn', top_k: 5, ranking: 'dense', tags: ['it'], note: null })
  })

  it('names numbers and JSON that do not parse by their JSON pointer', () => {
    const draft = draftOf(form, { query: 'q', tags: ['a'] })
    if (draft.t !== 'object') throw new Error('object draft expected')
    draft.fields.top_k = text('2.5')
    draft.fields.extra = text('{oops')
    const { problems } = argumentsOf(form, draft)
    expect(problems.map((p) => p.path)).toEqual(['/top_k', '/extra'])
    expect(problems[0]!.message).toBe('must be a whole number')
    expect(problems[1]!.message).toMatch(/^is not valid JSON/)
  })

  it('round-trips a value through draftOf and collect', () => {
    const value = {
      query: 'q',
      top_k: 3,
      exact: false,
      ranking: 'bm25',
      tags: ['a', 'b'],
      extra: 7,
    }
    expect(collect(form, draftOf(form, value)).value).toEqual(value)
  })

  it('escapes "/" and "~" in property names of pointers', () => {
    const odd = formOf({
      type: 'object',
      properties: { 'a/b~c': { type: 'number' } },
      required: ['a/b~c'],
    })
    expect(argumentsOf(odd, emptyDraft(odd)).problems).toEqual([
      { path: '/a~1b~0c', message: 'is required' },
    ])
  })
})

describe('withoutFields', () => {
  it('drops a property the console fills in, so it is neither shown nor required', () => {
    const form = withoutFields(
      formOf({
        type: 'object',
        properties: { username: { type: 'string' }, query: { type: 'string' } },
        required: ['username', 'query'],
      }),
      ['username'],
    )
    expect(fieldsOf(form).map((f) => f.name)).toEqual(['query'])
    expect(argumentsOf(form, draftOf(form, { query: 'q' }))).toEqual({
      args: { query: 'q' },
      problems: [],
    })
  })
})
