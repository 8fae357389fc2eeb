import { describe, expect, it } from 'vitest'
import { checkAnswer, defaultsOf, parseForm, type ElicitField } from './elicitation'

/** The conformance suite's SEP-1034 form. */
const SEP_1034 = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', default: 30 },
    score: { type: 'number', default: 95.5 },
    status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', default: true },
  },
  required: [],
}

function fields(schema: unknown): ElicitField[] {
  const parsed = parseForm(schema)
  if (!parsed.ok) throw new Error(parsed.error)
  return parsed.value
}

describe('elicitation forms', () => {
  it('takes every default of a form (SEP-1034)', () => {
    expect(defaultsOf(fields(SEP_1034))).toEqual({
      name: 'John Doe',
      age: 30,
      score: 95.5,
      status: 'active',
      verified: true,
    })
  })

  it('reads titled single- and multi-select enums with their labels', () => {
    const [hero, fish, pet] = fields({
      type: 'object',
      properties: {
        hero: { type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }], default: 'h1' },
        fish: {
          type: 'array',
          items: { anyOf: [{ const: 'f1', title: 'Tuna' }] },
          maxItems: 1,
          default: ['f1'],
        },
        pet: { type: 'string', enum: ['p1'], enumNames: ['Cats'] },
      },
    })
    expect(hero).toMatchObject({ kind: 'enum', options: [{ value: 'h1', label: 'Superman' }] })
    expect(fish).toMatchObject({ kind: 'multi', maxItems: 1, default: ['f1'] })
    expect(pet).toMatchObject({ kind: 'enum', options: [{ value: 'p1', label: 'Cats' }] })
  })

  it.each([
    [
      { type: 'object', properties: { a: { type: 'object', properties: {} } } },
      /"a": type "object"/,
    ],
    [{ type: 'object', properties: { a: { type: 'array', items: { type: 'number' } } } }, /"a"/],
    [{ type: 'object', properties: { a: { type: 'integer', default: 'x' } } }, /default must be/],
    [{ type: 'object', properties: {}, required: ['ghost'] }, /unknown properties: ghost/],
    [{ type: 'array' }, /object schema/],
    ['not a schema', /object schema/],
  ])('refuses a form that is not flat primitives: %j', (schema, error) => {
    const parsed = parseForm(schema)
    expect(parsed.ok).toBe(false)
    expect(!parsed.ok && parsed.error).toMatch(error)
  })

  it('accepts an answer that fits and leaves out optional fields', () => {
    expect(checkAnswer(fields(SEP_1034), { age: 31, status: 'pending' })).toBeUndefined()
  })

  it.each([
    [
      { name: 'x' },
      { type: 'object', properties: { n: { type: 'string' } }, required: ['n'] },
      /"n" is required/,
    ],
    [{ age: 3.5 }, { type: 'object', properties: { age: { type: 'integer' } } }, /whole number/],
    [
      { age: 200 },
      { type: 'object', properties: { age: { type: 'integer', maximum: 120 } } },
      /≤ 120/,
    ],
    [{ s: 'gone' }, SEP_1034, /no field s/],
    [{ status: 'asleep' }, SEP_1034, /one of "active"/],
    [{ verified: 'yes' }, SEP_1034, /true or false/],
    [
      { mail: 'nope' },
      { type: 'object', properties: { mail: { type: 'string', format: 'email' } } },
      /valid email/,
    ],
  ])('refuses an answer that does not fit: %j', (content, schema, problem) => {
    expect(checkAnswer(fields(schema), content)).toMatch(problem)
  })
})
